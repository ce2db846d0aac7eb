// expect: race 9 9
int main(void) {
  int i, j;
  int n = 10, m = 10;
  double b[10][10];
  for (i = 0; i < n; i++) for (j = 0; j < m; j++) b[i][j] = i + j;
#pragma omp parallel for private(j)
  for (i = 1; i < n; i++)
    for (j = 0; j < m; j++) b[i][j] = b[i][j - 1];
  return 0;
}
