// expect: ok
int main(void) {
  int i, count = 0;
#pragma omp parallel for
  for (i = 0; i < 40; i++) {
#pragma omp critical(update)
    count += 2;
#pragma omp critical(update)
    count -= 1;
  }
  return count;
}
