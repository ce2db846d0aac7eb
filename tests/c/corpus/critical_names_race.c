// expect: race 9 9
int main(void) {
  int i, count = 0;
#pragma omp parallel for
  for (i = 0; i < 40; i++) {
#pragma omp critical(add)
    count += 2;
#pragma omp critical(sub)
    count -= 1;
  }
  return count;
}
