#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "interpreter/npy.hpp"

using namespace sched;

TEST(Npy, RoundTripEveryType) {
  for (Type t : {Type::Bool, Type::I8, Type::I16, Type::I32, Type::I64, Type::U8, Type::U16, Type::U32, Type::U64, Type::F32, Type::F64}) {
    NpyArray a;
    a.type = t;
    a.shape = {2, 3};
    for (int i = 0; i < 6; ++i) {
      Value v = t == Type::F32 ? Value::of_f32(i * -0.5f) : t == Type::F64 ? Value::of_f64(i * 1e100)
                : t == Type::Bool ? Value::of_bool(i % 2) : Value::of_wrapped(t, static_cast<uint64_t>(i * 1000 - 2500));
      a.bits.push_back(v.bits());
    }
    NpyArray b = parse_npy(serialize_npy(a));
    EXPECT_EQ(b.type, t);
    EXPECT_EQ(b.shape, a.shape);
    EXPECT_EQ(b.bits, a.bits) << type_name(t);
  }
}

TEST(Npy, HeaderIsNumpyCompatible) {
  NpyArray a;
  a.type = Type::F32;
  a.shape = {4};
  a.bits.assign(4, Value::of_f32(1).bits());
  std::string s = serialize_npy(a);
  EXPECT_EQ(s.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  size_t hl = static_cast<uint8_t>(s[8]) | (static_cast<size_t>(static_cast<uint8_t>(s[9])) << 8);
  EXPECT_EQ((10 + hl) % 64, 0u) << "data is 64-byte aligned";
  EXPECT_NE(s.find("'descr': '<f4', 'fortran_order': False, 'shape': (4,)"), std::string::npos);
  EXPECT_EQ(s.size(), 10 + hl + 16);
  NpyArray z;
  z.type = Type::I32;
  z.bits = {7};
  EXPECT_NE(serialize_npy(z).find("'shape': ()"), std::string::npos);
  EXPECT_EQ(parse_npy(serialize_npy(z)).size(), 1u);
}

static std::string header(const std::string& dict, const std::string& data) {
  std::string h = dict;
  while ((10 + h.size() + 1) % 64) h += ' ';
  h += '\n';
  std::string s = "\x93NUMPY\x01";
  s += '\0';
  s += static_cast<char>(h.size() & 0xff);
  s += static_cast<char>(h.size() >> 8);
  return s + h + data;
}

TEST(Npy, ReadsFortranOrderAndBigEndian) {
  // 2x3 int16 big-endian in Fortran order: columns (0,3) (1,4) (2,5)
  std::string data;
  for (int v : {0, 3, 1, 4, 2, 5}) { data += static_cast<char>(0); data += static_cast<char>(v); }
  NpyArray a = parse_npy(header("{'descr': '>i2', 'fortran_order': True, 'shape': (2, 3), }", data));
  ASSERT_EQ(a.shape, (std::vector<int64_t>{2, 3}));
  for (int i = 0; i < 6; ++i) EXPECT_EQ(a.at(static_cast<size_t>(i)).i, i);
}

TEST(Npy, RejectsMalformedFilesWithAMessage) {
  EXPECT_THROW(parse_npy("not a numpy file"), std::runtime_error);
  EXPECT_THROW(parse_npy(header("{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }", "12345678")), std::runtime_error);
  try {
    parse_npy(header("{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }", "short"), "x.npy");
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("x.npy"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("truncated"), std::string::npos);
  }
  EXPECT_THROW(read_npy("/nonexistent/file.npy"), std::runtime_error);
}

TEST(Npy, WritesFiles) {
  auto path = std::filesystem::temp_directory_path() / "sched_npy_test.npy";
  NpyArray a;
  a.type = Type::U8;
  a.shape = {3};
  a.bits = {1, 2, 255};
  write_npy(path.string(), a);
  NpyArray b = read_npy(path.string());
  EXPECT_EQ(b.bits, a.bits);
  std::filesystem::remove(path);
}
