// expect: refused 6:1 the clause 'if' (not yet taken)
int main(void) {
  int i, n = 10;
  int a[10];
  for (i = 0; i < n; i++) a[i] = i;
#pragma omp parallel for if (n > 100)
  for (i = 0; i < n - 1; i++) a[i] = a[i + 1];
  return 0;
}
