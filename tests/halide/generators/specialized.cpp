// specialize: a vectorized version when the width is a multiple of 8, a scalar one otherwise.
#include "Halide.h"
using namespace Halide;

class Specialized : public Generator<Specialized> {
 public:
  Input<Buffer<float>> input{"input", 1};
  Input<float> gain{"gain"};
  Output<Buffer<float>> output{"output", 1};
  Var x{"x"};
  void generate() { output(x) = input(x) * gain + 1.0f; }
  void schedule() {
    input.set_estimates({{0, 4096}});
    gain.set_estimate(2.0f);
    output.set_estimates({{0, 4096}});
    if (!auto_schedule) {
      Expr w = output.width();
      output.specialize(w % 8 == 0).vectorize(x, 8);
      output.specialize(w >= 64).split(x, x, xi, 16);
    }
  }
  Var xi{"xi"};
};
HALIDE_REGISTER_GENERATOR(Specialized, specialized)
