// Two outputs from one tuple-valued producer: a gradient's magnitude and a thresholded mask
// (a pure Tuple, lerp, mux, casts).
#include "Halide.h"
using namespace Halide;

class TwoOutputs : public Generator<TwoOutputs> {
 public:
  GeneratorParam<float> threshold{"threshold", 0.5f};
  Input<Buffer<float>> input{"input", 2};
  Output<Buffer<float>> magnitude{"magnitude", 2};
  Output<Buffer<uint8_t>> mask{"mask", 2};
  Var x{"x"}, y{"y"};
  Func grad{"grad"};
  void generate() {
    grad(x, y) = Tuple(input(x + 1, y) - input(x, y), input(x, y + 1) - input(x, y));
    magnitude(x, y) = lerp(abs(grad(x, y)[0]), abs(grad(x, y)[1]), 0.5f);
    // clamped before the cast: a float out of int's range has no defined int (Halide's rule too)
    mask(x, y) = mux(cast<int>(clamp(magnitude(x, y) / threshold, 0.0f, 2.0f)), {cast<uint8_t>(0), cast<uint8_t>(128), cast<uint8_t>(255)});
  }
  void schedule() {
    input.set_estimates({{0, 129}, {0, 129}});
    magnitude.set_estimates({{0, 128}, {0, 128}});
    mask.set_estimates({{0, 128}, {0, 128}});
    if (!auto_schedule) {
      grad.compute_at(magnitude, y);
      magnitude.compute_root();
    }
  }
};
HALIDE_REGISTER_GENERATOR(TwoOutputs, two_outputs)
