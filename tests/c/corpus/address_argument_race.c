// expect: race 3 3
typedef int counter_t;
void bump(counter_t* c) { *c += 1; }
int main(void) {
  counter_t count = 0;
#pragma omp parallel
  {
    bump(&count);
  }
  return count;
}
