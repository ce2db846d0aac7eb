// NumPy .npy files (format versions 1.0, 2.0, 3.0): read and write every value type of
// LANGUAGE.md. Reading accepts little- and big-endian data and C or Fortran order (converted to
// C order); writing produces version 1.0 (2.0 when the header needs it), little-endian, C order.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "interpreter/types.hpp"
#include "interpreter/value.hpp"

namespace sched {

struct NpyArray {
  Type type = Type::Invalid;
  std::vector<int64_t> shape;
  std::vector<uint64_t> bits;  // C order, canonical bit patterns (Value::bits)
  std::vector<uint8_t> defined;  // optional: empty = all defined (only used when writing ⊥ cells)

  size_t size() const;
  Value at(size_t flat) const { return Value::from_bits(type, bits[flat]); }
};

// Throws std::runtime_error with a message naming the file and the problem.
NpyArray read_npy(const std::string& path);
NpyArray parse_npy(const std::string& bytes, const std::string& name = "<npy>");
void write_npy(const std::string& path, const NpyArray& a);
std::string serialize_npy(const NpyArray& a);

// numpy dtype descriptor ("<f4", "|b1", ...) of a value type.
std::string npy_descr(Type t);

}  // namespace sched
