// expect: ok
int main(void) {
  int i;
  int r[21];
  for (i = 0; i < 21; i++) r[i] = (i - 10) / 3 + (i - 10) % 3;
  return 0;
}
