// expect: refused 3:16 expected expression
int main(void) {
  int a[10] = {;
  return 0;
}
