#include "python/arrays.hpp"

#include <fmt/format.h>

#include <cstring>
#include <stdexcept>

namespace py = pybind11;

namespace sched::python {

namespace {

// The value type of a NumPy dtype, or Invalid.
Type type_of(const py::dtype& dt) {
  char kind = dt.kind();
  auto size = dt.itemsize();
  if (kind == 'b' && size == 1) return Type::Bool;
  if (kind == 'i') return size == 1 ? Type::I8 : size == 2 ? Type::I16 : size == 4 ? Type::I32 : size == 8 ? Type::I64 : Type::Invalid;
  if (kind == 'u') return size == 1 ? Type::U8 : size == 2 ? Type::U16 : size == 4 ? Type::U32 : size == 8 ? Type::U64 : Type::Invalid;
  if (kind == 'f') return size == 4 ? Type::F32 : size == 8 ? Type::F64 : Type::Invalid;
  return Type::Invalid;
}

size_t width(Type t) { return t == Type::Bool ? 1 : static_cast<size_t>(type_bits(t) / 8); }

}  // namespace

NpyArray to_npy(const py::handle& obj, const std::string& tensor) {
  py::module_ np = py::module_::import("numpy");
  // C order and native byte order (a big-endian or strided array is converted by NumPy)
  py::array arr = np.attr("asarray")(obj);
  py::dtype dt = arr.dtype();
  NpyArray a;
  a.type = type_of(dt);
  if (a.type == Type::Invalid)
    throw py::value_error(fmt::format("input {}: dtype {} is not a value type of SCHED (bool, int8..int64, uint8..uint64, "
                                      "float32, float64)",
                                      tensor, py::str(dt).cast<std::string>()));
  arr = np.attr("ascontiguousarray")(arr, dt.attr("newbyteorder")("="));
  for (py::ssize_t d = 0; d < arr.ndim(); ++d) a.shape.push_back(static_cast<int64_t>(arr.shape(d)));
  size_t n = static_cast<size_t>(arr.size());
  size_t w = width(a.type);
  a.bits.resize(n);
  const auto* src = static_cast<const unsigned char*>(arr.data());
  for (size_t i = 0; i < n; ++i) {
    uint64_t raw = 0;
    std::memcpy(&raw, src + i * w, w);  // little-endian: the low bytes
    if (a.type == Type::Bool) raw = raw != 0;
    a.bits[i] = Value::from_bits(a.type, raw).bits();  // sign-extends narrow signed types
  }
  return a;
}

py::array to_numpy(const ArrayState& a) {
  std::vector<py::ssize_t> shape(a.shape.begin(), a.shape.end());
  py::array out(py::dtype::from_args(py::str(npy_descr(a.elem))), shape);
  auto* dst = static_cast<unsigned char*>(out.mutable_data());
  size_t w = width(a.elem);
  for (size_t c = 0; c < a.cells.size(); ++c) {
    uint64_t bits = a.cells[c].defined ? a.cells[c].bits() : 0;
    std::memcpy(dst + c * w, &bits, w);
  }
  return out;
}

py::array defined_mask(const ArrayState& a) {
  std::vector<py::ssize_t> shape(a.shape.begin(), a.shape.end());
  py::array_t<bool> out(shape);
  bool* dst = out.mutable_data();
  for (size_t c = 0; c < a.cells.size(); ++c) dst[c] = a.cells[c].defined;
  return out;
}

}  // namespace sched::python
