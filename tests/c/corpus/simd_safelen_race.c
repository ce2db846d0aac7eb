// expect: race 7 7
int main(void) {
  int i;
  int b[64];
  for (i = 0; i < 64; i++) b[i] = i;
#pragma omp simd safelen(4)
  for (i = 3; i < 64; i++) b[i] = b[i - 3] + 1;
  return b[63];
}
