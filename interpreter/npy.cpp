#include "interpreter/npy.hpp"

#include "interpreter/files.hpp"
#include "interpreter/limits.hpp"

#include <fmt/format.h>

#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace sched {

size_t NpyArray::size() const {
  size_t n = 1;
  for (int64_t d : shape) n *= static_cast<size_t>(d);
  return n;
}

std::string npy_descr(Type t) {
  switch (t) {
    case Type::Bool: return "|b1";
    case Type::I8: return "|i1";
    case Type::U8: return "|u1";
    case Type::I16: return "<i2";
    case Type::U16: return "<u2";
    case Type::I32: return "<i4";
    case Type::U32: return "<u4";
    case Type::I64: return "<i8";
    case Type::U64: return "<u8";
    case Type::F32: return "<f4";
    case Type::F64: return "<f8";
    default: return "";
  }
}

namespace {

[[noreturn]] void fail(const std::string& name, const std::string& msg) {
  throw std::runtime_error(fmt::format("{}: not a readable .npy file: {}", name, msg));
}

// Extracts the value of 'key' from the header dict text (a tiny parser for numpy's repr).
std::string dict_value(const std::string& h, const std::string& key, const std::string& name) {
  auto k = h.find("'" + key + "'");
  if (k == std::string::npos) fail(name, fmt::format("header has no '{}'", key));
  auto colon = h.find(':', k);
  if (colon == std::string::npos) fail(name, "malformed header");
  size_t b = colon + 1;
  while (b < h.size() && h[b] == ' ') ++b;
  if (b >= h.size()) fail(name, "malformed header");
  size_t e;
  if (h[b] == '\'') {
    e = h.find('\'', b + 1);
    if (e == std::string::npos) fail(name, "malformed header string");
    return h.substr(b + 1, e - b - 1);
  }
  if (h[b] == '(') {
    e = h.find(')', b);
    if (e == std::string::npos) fail(name, "malformed header shape");
    return h.substr(b, e - b + 1);
  }
  e = h.find_first_of(",}", b);
  if (e == std::string::npos) fail(name, "malformed header");
  return h.substr(b, e - b);
}

}  // namespace

NpyArray parse_npy(const std::string& bytes, const std::string& name) {
  if (bytes.size() < 10 || std::memcmp(bytes.data(), "\x93NUMPY", 6) != 0) fail(name, "missing the \\x93NUMPY magic");
  uint8_t major = static_cast<uint8_t>(bytes[6]);
  size_t hlen, hstart;
  if (major == 1) {
    hlen = static_cast<uint8_t>(bytes[8]) | (static_cast<size_t>(static_cast<uint8_t>(bytes[9])) << 8);
    hstart = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) fail(name, "truncated header");
    hlen = 0;
    for (int i = 0; i < 4; ++i) hlen |= static_cast<size_t>(static_cast<uint8_t>(bytes[8 + i])) << (8 * i);
    hstart = 12;
  } else {
    fail(name, fmt::format("unsupported format version {}", major));
  }
  if (hstart + hlen > bytes.size()) fail(name, "truncated header");
  std::string h = bytes.substr(hstart, hlen);
  std::string descr = dict_value(h, "descr", name);
  std::string fortran = dict_value(h, "fortran_order", name);
  std::string shape_s = dict_value(h, "shape", name);
  if (descr.size() < 3) fail(name, fmt::format("unsupported dtype '{}'", descr));
  char endian = descr[0];
  std::string kind = descr.substr(1);
  NpyArray a;
  struct K { const char* k; Type t; };
  static const K kinds[] = {{"b1", Type::Bool}, {"i1", Type::I8}, {"u1", Type::U8}, {"i2", Type::I16}, {"u2", Type::U16},
                            {"i4", Type::I32}, {"u4", Type::U32}, {"i8", Type::I64}, {"u8", Type::U64}, {"f4", Type::F32},
                            {"f8", Type::F64}};
  for (const auto& k : kinds) if (kind == k.k) a.type = k.t;
  if (a.type == Type::Invalid || (endian != '<' && endian != '>' && endian != '|' && endian != '='))
    fail(name, fmt::format("unsupported dtype '{}' (expected one of bool, int8..64, uint8..64, float32, float64)", descr));
  // shape "(2, 3)" / "(4,)" / "()"
  if (shape_s.size() < 2 || shape_s.front() != '(' || shape_s.back() != ')') fail(name, fmt::format("malformed shape '{}'", shape_s));
  std::string inner = shape_s.substr(1, shape_s.size() - 2);
  std::stringstream ss(inner);
  std::string item;
  while (std::getline(ss, item, ',')) {
    size_t b = item.find_first_not_of(' ');
    if (b == std::string::npos) continue;
    size_t pos = 0;
    long long d;
    try { d = std::stoll(item.substr(b), &pos); } catch (...) { fail(name, "malformed shape"); }
    if (item.find_first_not_of(' ', b + pos) != std::string::npos) fail(name, "malformed shape");
    if (d < 0) fail(name, "negative dimension");
    a.shape.push_back(d);
  }
  size_t n = 1;
  for (int64_t d : a.shape) {
    if (d != 0 && n > (size_t{1} << 40) / static_cast<size_t>(d)) fail(name, "array too large");
    n *= static_cast<size_t>(d);
  }
  size_t w = static_cast<size_t>(type_bits(a.type) == 1 ? 1 : type_bits(a.type) / 8);
  size_t data = hstart + hlen;
  if (bytes.size() - data < n * w) fail(name, fmt::format("truncated data: {} elements need {} bytes, found {}", n, n * w, bytes.size() - data));
  bool swap = endian == '>' && w > 1;
  a.bits.resize(n);
  for (size_t i = 0; i < n; ++i) {
    uint64_t raw = 0;
    const unsigned char* p = reinterpret_cast<const unsigned char*>(bytes.data() + data + i * w);
    for (size_t b = 0; b < w; ++b) raw |= static_cast<uint64_t>(p[swap ? w - 1 - b : b]) << (8 * b);
    if (a.type == Type::Bool) raw = raw != 0;
    a.bits[i] = Value::from_bits(a.type, raw).bits();  // sign-extend narrow signed types
  }
  if (fortran.find("True") != std::string::npos && a.shape.size() > 1) {
    // convert column-major to row-major
    std::vector<uint64_t> c(n);
    size_t r = a.shape.size();
    std::vector<int64_t> idx(r, 0);
    for (size_t f = 0; f < n; ++f) {
      // idx is the multi-index of Fortran-flat f; compute C-flat
      size_t cf = 0;
      for (size_t d = 0; d < r; ++d) cf = cf * static_cast<size_t>(a.shape[d]) + static_cast<size_t>(idx[d]);
      c[cf] = a.bits[f];
      for (size_t d = 0; d < r; ++d) {
        if (++idx[d] < a.shape[d]) break;
        idx[d] = 0;
      }
    }
    a.bits = std::move(c);
  }
  return a;
}

NpyArray read_npy(const std::string& path) {
  std::string bytes, why;
  if (!read_input_file(path, kMaxNpyBytes, bytes, why)) throw std::runtime_error(why);
  return parse_npy(bytes, path);
}

std::string serialize_npy(const NpyArray& a) {
  if (npy_descr(a.type).empty()) throw std::runtime_error("npy: cannot store values of this type");
  if (a.bits.size() != a.size())
    throw std::runtime_error(fmt::format("npy: {} values for a shape of {} elements", a.bits.size(), a.size()));
  std::string shape = "(";
  for (size_t i = 0; i < a.shape.size(); ++i) shape += fmt::format("{}{}", a.shape[i], a.shape.size() == 1 ? "," : (i + 1 < a.shape.size() ? ", " : ""));
  shape += ")";
  std::string dict = fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': {}, }}", npy_descr(a.type), shape);
  auto padding = [&](size_t pre) { size_t total = pre + dict.size() + 1; return (64 - total % 64) % 64; };
  bool v2 = dict.size() + padding(10) + 1 > 65535;  // version 1.0 stores the header length in 2 bytes
  size_t pad = padding(v2 ? 12 : 10);
  std::string header = dict + std::string(pad, ' ') + "\n";
  std::string out = "\x93NUMPY";
  out += static_cast<char>(v2 ? 2 : 1);
  out += '\0';
  size_t hl = header.size();
  out += static_cast<char>(hl & 0xff);
  out += static_cast<char>((hl >> 8) & 0xff);
  if (v2) { out += static_cast<char>((hl >> 16) & 0xff); out += static_cast<char>((hl >> 24) & 0xff); }
  out += header;
  size_t w = static_cast<size_t>(type_bits(a.type) == 1 ? 1 : type_bits(a.type) / 8);
  out.reserve(out.size() + a.bits.size() * w);
  for (uint64_t b : a.bits)
    for (size_t i = 0; i < w; ++i) out += static_cast<char>((b >> (8 * i)) & 0xff);
  return out;
}

void write_npy(const std::string& path, const NpyArray& a) {
  std::string error;
  if (!write_file_atomically(path, serialize_npy(a), error)) throw std::runtime_error(error);
}

}  // namespace sched
