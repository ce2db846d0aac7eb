// A matrix product: an update over an RDom, tiled and vectorized with an unrolled reduction.
#include "Halide.h"
using namespace Halide;

class MatMul : public Generator<MatMul> {
 public:
  GeneratorParam<int> tile{"tile", 8};
  Input<Buffer<float>> a{"a", 2};
  Input<Buffer<float>> b{"b", 2};
  Output<Buffer<float>> c{"c", 2};
  Var i{"i"}, j{"j"}, io{"io"}, jo{"jo"}, ii{"ii"}, ji{"ji"};
  Func prod{"prod"};
  RDom k;
  void generate() {
    k = RDom(0, a.width(), "k");
    prod(j, i) = 0.0f;
    prod(j, i) += a(k, i) * b(j, k);
    c(j, i) = prod(j, i);
  }
  void schedule() {
    a.set_estimates({{0, 64}, {0, 64}});
    b.set_estimates({{0, 64}, {0, 64}});
    c.set_estimates({{0, 64}, {0, 64}});
    if (!auto_schedule) {
      c.tile(j, i, jo, io, ji, ii, tile, tile, TailStrategy::GuardWithIf).parallel(io);
      prod.compute_at(c, jo).vectorize(j, 4).update(0).reorder(j, i, k).vectorize(j, 4);
    }
  }
};
HALIDE_REGISTER_GENERATOR(MatMul, matmul)
