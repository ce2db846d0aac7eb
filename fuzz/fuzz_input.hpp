// Bytes to a generated case, for the libFuzzer entry points over programs (diff_fuzz.cpp,
// verify_fuzz.cpp): libFuzzer mutates bytes, the existing generator (gen.hpp, RapidCheck) turns
// them into a well-typed program, so every input is a valid program and a crash or a
// disagreement is a bug, not a parse error.
//
//   bytes 0-7   the generator's seed (little-endian; missing bytes are 0)
//   byte  8     the generator's size: 5 + b % 36
//   byte  9     options: bit 0 racy (a race appended on purpose), bit 1 non-affine indices,
//               bit 2 no floats, bit 3 no annotations; bit 4 a reduction kernel instead
//               (gen_reduce.hpp: scatter or rfactor, a defect injected in about half of them,
//               the correct ones verify), the other bits then unused
//   bytes 10-   parameter values, one byte each: 1 + b % 6 (missing bytes give 3)
//
// Example: the 10 bytes 2a 00 00 00 00 00 00 00 14 01 decode to the program of seed 42, size
// 25, with a race appended, every parameter 3. A corpus file is such bytes (fuzz/corpus/);
// `decode` is deterministic, so a crashing input replays.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace sched::fuzz {

struct FuzzCase {
  std::string text;             // the program, printed
  std::vector<int64_t> params;  // one value per parameter
  bool racy = false;
  std::string family;           // "program", or the reduction kernel's family
  std::string defect;           // a reduction kernel's injected defect ("": none)
};

FuzzCase decode(const uint8_t* data, size_t size);

// Case k of `seed` for `sched selfcheck bisim --generated` and its test: every fourth a
// reduction kernel, the others affine programs without an appended race (annotations and floats
// on), each decoded from its seed and size bytes as above.
FuzzCase affine_case(uint64_t seed, int k);

}  // namespace sched::fuzz
