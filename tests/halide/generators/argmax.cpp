// A tuple-valued update that reads its other value (argmax): the largest value of each column
// and the row where it first occurs. The algorithm format updates one func at a time, so the
// export refuses it, naming the func and its line (tests/test_halide_generators.cpp).
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
    Expr better = input(x, r) > best(x)[0];
    best(x) = Tuple(select(better, input(x, r), best(x)[0]), select(better, r, best(x)[1]));
    output(x) = best(x)[1];
  }
  void schedule() {
    input.set_estimates({{0, 128}, {0, 128}});
    output.set_estimates({{0, 128}});
    if (!auto_schedule) best.compute_root().update(0).parallel(x);
  }
};
HALIDE_REGISTER_GENERATOR(ArgMax, argmax)
