// expect: refused 5:3 a while loop
int main(void) {
  int i = 0;
  int a[10];
  while (i < 10) { a[i] = i; i++; }
  return 0;
}
