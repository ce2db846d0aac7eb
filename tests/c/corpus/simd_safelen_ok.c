// expect: ok
int main(void) {
  int i;
  int b[64];
  for (i = 0; i < 64; i++) b[i] = i;
#pragma omp simd safelen(4)
  for (i = 4; i < 64; i++) b[i] = b[i - 4] + 1;
  return b[63];
}
