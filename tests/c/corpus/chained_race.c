// expect: race 7 7
typedef double real;
int main(void) {
  int i;
  real a[64], last;
#pragma omp parallel for
  for (i = 0; i < 64; i++) a[i] = last = i * 0.5;
  return last > 0 ? 0 : 1;
}
