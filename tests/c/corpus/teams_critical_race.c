// expect: race 7 7
int main(void) {
  int i, count = 0;
#pragma omp target teams distribute parallel for map(tofrom : count)
  for (i = 0; i < 64; i++) {
#pragma omp critical
    count++;
  }
  return count;
}
