// expect: race 9 9
int main(void) {
  int i, outLen = 0;
  int len = 50;
  int input[50], output[50];
  for (i = 0; i < len; i++) input[i] = i;
#pragma omp parallel for
  for (i = 0; i < len; i++)
    output[outLen++] = input[i];
  return 0;
}
