// expect: ok
#include <omp.h>
int main(void) {
  int out[16];
  int mine;
#pragma omp parallel num_threads(4) private(mine)
  {
    mine = omp_get_thread_num();
    out[mine] = mine;
  }
  return out[0];
}
