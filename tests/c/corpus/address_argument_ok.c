// expect: ok
void set(int* c) { *c = 1; }
int main(void) {
  int total = 0;
#pragma omp parallel reduction(+ : total)
  {
    int mine;
    set(&mine);
    total += mine;
  }
  return total;
}
