// expect: refused 4:3 a recursive call of 'again'
void again(void);
void again(void) {
  again();
}
int main(void) {
  again();
  return 0;
}
