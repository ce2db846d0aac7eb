// expect: refused 7:3 a while loop that is not counted
int main(void) {
  int i;
  double a[100];
  for (i = 0; i < 100; i++) a[i] = i;
  int n = 99;
  while (a[n] > 1.0) {
    a[n] = a[n] / 2;
  }
  return 0;
}
