// The native kernel against the reference engine, from the same initial memory, bit for bit
// (tests/test_native.cpp, tests/test_register_tile.cpp).
#pragma once
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bigstep/reference.hpp"
#include "codegen/native.hpp"
#include "interpreter/params.hpp"
#include "tests/test_util.hpp"

namespace sched::test {

// Runs both engines from the same initial memory; returns the number of defined cells compared.
inline size_t compare_engines(const std::string& text, const std::vector<std::string>& params, const ModelOptions& mo = {}) {
  Loaded l = load_text(text, "t.sched");
  EXPECT_EQ(l.stage, LoadStage::Ok) << l.diagnostics;
  if (l.stage != LoadStage::Ok) return 0;
  std::vector<std::string> errs;
  auto ps = bind_params(*l.program, params, errs);
  Memory init;
  EXPECT_TRUE(prepare_run(*l.program, *ps, mo, init).ok());
  Memory ref = init, nat = init;
  Outcome r = run_reference(*l.program, ref);
  EXPECT_TRUE(r.ok()) << r.message;
  std::string err;
  auto k = build_native(*l.program, err);
  EXPECT_TRUE(k) << err;
  if (!k) return 0;
  Outcome n = run_native(*l.program, nat, *k);
  EXPECT_TRUE(n.ok()) << n.message;
  size_t compared = 0;
  for (size_t a = 0; a < ref.arrays.size(); ++a)
    for (size_t c = 0; c < ref.arrays[a].size(); ++c) {
      const Value& x = ref.arrays[a].cells[c];
      if (!x.defined) continue;
      ++compared;
      EXPECT_TRUE(identical(x, nat.arrays[a].cells[c]))
          << ref.arrays[a].name << "[" << c << "]: reference " << to_string(x) << ", native " << to_string(nat.arrays[a].cells[c]);
    }
  return compared;
}

}  // namespace sched::test
