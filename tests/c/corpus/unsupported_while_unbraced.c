// expect: refused 6:27 a while loop that is not counted
int main(void) {
  int a[10];
  int i = 0, j;
  for (j = 0; j < 10; j++) a[j] = 0;
  for (j = 0; j < 2; j++) while (i < 10) {
      a[i] = j;
      i++;
    }
  return a[0];
}
