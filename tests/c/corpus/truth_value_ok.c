// expect: ok
int main(void) {
  int i;
  int flags[32];
  double weight[32];
#pragma omp parallel for
  for (i = 0; i < 32; i++) {
    flags[i] = (i % 3 == 0) && i > 4;
    weight[i] = !(i < 16);
  }
  int error = (flags[3] != 0);
  return error;
}
