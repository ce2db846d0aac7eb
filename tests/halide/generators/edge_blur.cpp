// A boundary condition: repeat_edge on the input, then a 3-tap blur in each direction.
#include "Halide.h"
using namespace Halide;

class EdgeBlur : public Generator<EdgeBlur> {
 public:
  Input<Buffer<uint16_t>> input{"input", 2};
  Output<Buffer<uint16_t>> output{"output", 2};
  Var x{"x"}, y{"y"}, xi{"xi"}, yi{"yi"};
  Func clamped{"clamped"}, blur_x{"blur_x"};
  void generate() {
    clamped = BoundaryConditions::repeat_edge(input);
    blur_x(x, y) = cast<uint16_t>((cast<uint32_t>(clamped(x - 1, y)) + clamped(x, y) + clamped(x + 1, y)) / 3);
    output(x, y) = cast<uint16_t>((cast<uint32_t>(blur_x(x, y - 1)) + blur_x(x, y) + blur_x(x, y + 1)) / 3);
  }
  void schedule() {
    input.set_estimates({{0, 512}, {0, 512}});
    output.set_estimates({{0, 512}, {0, 512}});
    if (!auto_schedule) {
      output.tile(x, y, xi, yi, 32, 8).parallel(y);
      blur_x.compute_at(output, x);
    }
  }
};
HALIDE_REGISTER_GENERATOR(EdgeBlur, edge_blur)
