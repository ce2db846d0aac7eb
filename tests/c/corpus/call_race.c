// expect: race 6 6
int atoi(const char*);
void shift(int* a, int n) {
  int i;
#pragma omp parallel for
  for (i = 0; i < n - 1; i++) a[i] = a[i + 1];
}
int main(int argc, char* argv[]) {
  int len = 30;
  if (argc > 1) len = atoi(argv[1]);
  int a[len];
  for (int i = 0; i < len; i++) a[i] = i;
  shift(a, len);
  return 0;
}
