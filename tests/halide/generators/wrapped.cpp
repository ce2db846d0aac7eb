// Func::in(): a wrapper of a producer, scheduled apart from it, for one consumer.
#include "Halide.h"
using namespace Halide;

class Wrapped : public Generator<Wrapped> {
 public:
  Input<Buffer<float>> input{"input", 2};
  Output<Buffer<float>> output{"output", 2};
  Var x{"x"}, y{"y"};
  Func sq{"sq"};
  void generate() {
    sq(x, y) = input(x, y) * input(x, y);
    output(x, y) = sq(x, y) + sq(x + 1, y) + sq(x, y + 1);
  }
  void schedule() {
    input.set_estimates({{0, 257}, {0, 257}});
    output.set_estimates({{0, 256}, {0, 256}});
    if (!auto_schedule) {
      sq.compute_root();
      sq.in(output).compute_at(output, y).vectorize(x, 4);
    }
  }
};
HALIDE_REGISTER_GENERATOR(Wrapped, wrapped)
