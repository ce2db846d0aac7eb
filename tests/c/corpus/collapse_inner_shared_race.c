// expect: race 7 8
int a[20][20];
int main(void) {
  int i, j;
#pragma omp parallel for
  for (i = 0; i < 20; i++)
    for (j = 0; j < 20; j++)
      a[i][j] = a[i][j] + 1;
  return 0;
}
