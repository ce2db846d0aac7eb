#include "Halide.h"
using namespace Halide;
class Blur3 : public Generator<Blur3> {
 public:
  GeneratorParam<int> tile{"tile", 8};
  Input<Buffer<float>> input{"input", 2};
  Output<Buffer<float>> output{"output", 2};
  Var x{"x"}, y{"y"}, yo{"yo"}, yi{"yi"};
  Func bx{"bx"};
  void generate() {
    bx(x, y) = (input(x, y) + input(x + 1, y) + input(x + 2, y)) / 3.0f;
    output(x, y) = (bx(x, y) + bx(x, y + 1) + bx(x, y + 2)) / 3.0f;
  }
  void schedule() {
    input.set_estimates({{0, 1026}, {0, 1026}});
    output.set_estimates({{0, 1024}, {0, 1024}});
    if (!auto_schedule) {
      output.split(y, yo, yi, tile).parallel(yo);
      bx.compute_at(output, yi);
    }
  }
};
HALIDE_REGISTER_GENERATOR(Blur3, blur3)
