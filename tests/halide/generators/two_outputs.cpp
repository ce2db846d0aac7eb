// Two outputs from one producer: a gradient's magnitude and a thresholded mask (lerp, mux, casts).
#include "Halide.h"
using namespace Halide;

class TwoOutputs : public Generator<TwoOutputs> {
 public:
  GeneratorParam<float> threshold{"threshold", 0.5f};
  Input<Buffer<float>> input{"input", 2};
  Output<Buffer<float>> magnitude{"magnitude", 2};
  Output<Buffer<uint8_t>> mask{"mask", 2};
  Var x{"x"}, y{"y"};
  Func dx{"dx"}, dy{"dy"};
  void generate() {
    dx(x, y) = input(x + 1, y) - input(x, y);
    dy(x, y) = input(x, y + 1) - input(x, y);
    magnitude(x, y) = lerp(abs(dx(x, y)), abs(dy(x, y)), 0.5f);
    mask(x, y) = mux(clamp(cast<int>(magnitude(x, y) / threshold), 0, 2), {cast<uint8_t>(0), cast<uint8_t>(128), cast<uint8_t>(255)});
  }
  void schedule() {
    input.set_estimates({{0, 129}, {0, 129}});
    magnitude.set_estimates({{0, 128}, {0, 128}});
    mask.set_estimates({{0, 128}, {0, 128}});
    if (!auto_schedule) {
      dx.compute_at(magnitude, y);
      dy.compute_at(magnitude, y);
      magnitude.compute_root();
    }
  }
};
HALIDE_REGISTER_GENERATOR(TwoOutputs, two_outputs)
