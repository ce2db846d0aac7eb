// expect: ok
typedef double real;
int main(void) {
  int i;
  real a[64], b[64];
#pragma omp parallel for
  for (i = 0; i < 64; i++) a[i] = b[i] = i * 0.5;
  return a[3] == b[3] ? 0 : 1;
}
