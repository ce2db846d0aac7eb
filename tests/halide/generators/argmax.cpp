// A tuple-valued update: the largest value of each column and the row where it first occurs.
#include "Halide.h"
using namespace Halide;

class ArgMax : public Generator<ArgMax> {
 public:
  Input<Buffer<float>> input{"input", 2};
  Output<Buffer<int32_t>> output{"output", 1};
  Var x{"x"};
  Func best{"best"};
  void generate() {
    RDom r(0, input.height(), "r");
    best(x) = Tuple(input(x, 0), 0);
    best(x) = select(input(x, r) > best(x)[0], Tuple(input(x, r), r), Tuple(best(x)[0], best(x)[1]));
    output(x) = best(x)[1];
  }
  void schedule() {
    input.set_estimates({{0, 128}, {0, 128}});
    output.set_estimates({{0, 128}});
    if (!auto_schedule) best.compute_root().update(0).parallel(x);
  }
};
HALIDE_REGISTER_GENERATOR(ArgMax, argmax)
