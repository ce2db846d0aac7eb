// An update over an RDom: the sum of each row, then scaled (pure and update definitions).
#include "Halide.h"
using namespace Halide;

class RowSum : public Generator<RowSum> {
 public:
  GeneratorParam<int> vector_width{"vector_width", 4};
  Input<Buffer<int32_t>> input{"input", 2};
  Input<int32_t> scale{"scale"};
  Output<Buffer<int32_t>> output{"output", 1};
  Var y{"y"};
  Func sum{"sum"};
  void generate() {
    RDom r(0, input.width(), "r");
    sum(y) = 0;
    sum(y) += input(r, y);
    output(y) = sum(y) * scale;
  }
  void schedule() {
    input.set_estimates({{0, 256}, {0, 256}});
    scale.set_estimate(3);
    output.set_estimates({{0, 256}});
    if (!auto_schedule) {
      output.vectorize(y, vector_width, TailStrategy::GuardWithIf);
      sum.compute_at(output, y);
    }
  }
};
HALIDE_REGISTER_GENERATOR(RowSum, row_sum)
