// Hardening of the newer surfaces (issue 48): each class of broken promise has a property here
// beyond the attack that found it (tests/robustness/surfaces.py holds the attacks themselves).
//   - parsers: the --flops formula is bounded like every parser (depth), never a crash;
//   - JSON read back: the report pages read any damage to a real result without throwing;
//   - limits: the native kernel's step counts are the reference's (loop iterations at each
//     loop's entry, assignments, each against the bound), so a bound is reached exactly when one
//     of them passes it;
//   - names: every word of SCHED is refused as an `.algo` name, at the name;
//   - recursions without a base case are refused before anything runs, and only those;
//   - inlining that would pass the tree limit or double without end is refused at the call.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <chrono>
#include <map>
#include <thread>
#include <vector>
#include <string>

#include "codegen/native.hpp"
#include "driver/bench.hpp"
#include "interpreter/child.hpp"
#include "interpreter/limits.hpp"
#include "interpreter/load.hpp"
#include "interpreter/reserved.hpp"
#include "interpreter/setup.hpp"
#include "interpreter/types.hpp"
#include "report/pages.hpp"
#include "scheduler/algo.hpp"
#include "scheduler/lower.hpp"
#include "interpreter/sanitized.hpp"

namespace sched {
namespace {

// ---- parsers: one depth limit ----
RC_GTEST_PROP(Properties, FlopsFormulasAreBoundedInDepthNeverACrash, ()) {
  const int depth = *rc::gen::inRange(0, 3000);
  const bool minus = *rc::gen::arbitrary<bool>();
  std::string text = minus ? std::string(static_cast<size_t>(depth), '-') + "N"
                           : std::string(static_cast<size_t>(depth), '(') + "N" + std::string(static_cast<size_t>(depth), ')');
  driver::FormulaError error;
  std::optional<double> v = driver::eval_formula(text, {{"N", 3}}, error);
  const bool refused = depth >= kMaxTreeDepth;
  RC_CLASSIFY(refused, "past the limit");
  if (refused) {
    RC_ASSERT(!v);
    RC_ASSERT(error.message == "nesting deeper than 1000 levels");
    RC_ASSERT(error.col >= 1 && error.col <= text.size());
  } else if (minus && depth % 2 == 1) {
    RC_ASSERT(!v);  // a negative count of operations
    RC_ASSERT(error.message.find("not a count of operations") != std::string::npos);
  } else {
    RC_ASSERT(v && *v == 3.0);
  }
}

// ---- JSON read back: a real result damaged anywhere, by type ----
nlohmann::json race_result() {
  return nlohmann::json::parse(R"({"schema_version": 1, "file": "r.sched", "engine": "fast", "outcome": "race", "exit_code": 1,
    "message": "read-write race in 'par i' on x[]", "where": "11:1", "position": {"line": 11, "col": 1},
    "details": ["iteration i = 0 writes x[] := -4", "iteration i = 1 reads x[]"], "params": {"N": 4},
    "race": {"loop": "par i", "loop_var": "i", "cell": "x[]", "iterations": [0, 1],
             "accesses": [{"access": "write", "cell": "x[]", "value": "-4", "line": 15, "col": 5, "iteration": {"i": 0}},
                          {"access": "read", "cell": "x[]", "value": "-4", "line": 18, "col": 5, "iteration": {"i": 1}}]},
    "stats": {"steps": 8}})");
}
nlohmann::json explore_result() {
  return nlohmann::json::parse(R"({"file": "r.sched", "verdict": "nondeterministic", "strategy": "exhaustive", "reduction": true,
    "executions": 4, "steps": 30, "races": 2, "seconds": 0.01, "pruned": 0,
    "finals": [{"schedule": "0 1 -", "digest": "ab", "executions": 2, "stuck": false},
               {"schedule": "1 0 -", "digest": "cd", "executions": 2, "why": {"message": "stuck"}}],
    "trace": [{"line": 3, "col": 1, "reads": [{"cell": "x[]", "value": "1"}], "writes": [{"cell": "x[]", "value": "2"}]}]})");
}
nlohmann::json summary_result() {
  return nlohmann::json::parse(R"({"seed": 1, "shard": "0/1", "cases": 3, "inconclusive": 0, "seconds": 1.5, "cases_per_second": 2.0,
    "oracles": {"model": {"runs": 3, "seconds": 0.5, "flagged": 1, "inconclusive": 0}},
    "kinds": {"legal": {"cases": 3}}, "classes": {"for-to-par": {"injected": 2, "detected": 2, "by": {"model": 2}}},
    "findings": [{"case": 2, "kind": "mutant", "class": "for-to-par", "file": "f/2.sched", "disagreements": ["model: race"]}],
    "timeline": [[0.5, 1], [1.5, 3]], "missing_shards": []})");
}

nlohmann::json other_type(int pick) {
  switch (pick % 9) {
    case 0: return nullptr;
    case 1: return 5;
    case 2: return "x";
    case 3: return nlohmann::json::array({1});
    case 4: return nlohmann::json::object();
    case 5: return true;
    case 6: return -1.5e308;
    case 7: return nlohmann::json::array({nlohmann::json::array({nlohmann::json::array()})});
    default: return nlohmann::json::array({"x", nullptr});
  }
}

// Every value of the tree, as a JSON pointer.
void pointers(const nlohmann::json& j, const std::string& at, std::vector<std::string>& out) {
  if (j.is_object())
    for (const auto& [k, v] : j.items()) {
      out.push_back(at + "/" + k);
      pointers(v, at + "/" + k, out);
    }
  else if (j.is_array())
    for (size_t i = 0; i < j.size(); ++i) {
      out.push_back(at + "/" + std::to_string(i));
      pointers(j[i], at + "/" + std::to_string(i), out);
    }
}

RC_GTEST_PROP(Properties, ReportPagesReadDamagedResultsWithoutThrowing, ()) {
  const int which = *rc::gen::inRange(0, 3);
  nlohmann::json j = which == 0 ? race_result() : which == 1 ? explore_result() : summary_result();
  const int edits = *rc::gen::inRange(1, 4);
  for (int e = 0; e < edits; ++e) {
    std::vector<std::string> spots;
    pointers(j, "", spots);
    if (spots.empty()) break;
    const std::string at = spots[static_cast<size_t>(*rc::gen::inRange<size_t>(0, spots.size()))];
    j[nlohmann::json::json_pointer(at)] = other_type(*rc::gen::inRange(0, 9));
  }
  RC_CLASSIFY(which == 0, "run");
  RC_CLASSIFY(which == 1, "explore");
  RC_CLASSIFY(which == 2, "summary");
  std::string page;
  try {
    page = report::page_for_json(j, "param N;\n", ".", ".");
  } catch (const std::exception& e) {
    RC_FAIL(std::string("the page threw: ") + e.what() + "\n" + j.dump());
  }
  RC_TAG(page.empty() ? "not a result any more" : "drawn");
}

// ---- limits: the native kernel counts as the reference engine does ----
TEST(Hardening, NativeStepsAreLoopIterationsAndAssignments) {
  Loaded l = load_text("param A, B;\noutput o[i] : i32[1] = 0;\nfor i < A { for j < B { o[0] := 0 } }\n", "steps.sched");
  ASSERT_EQ(l.stage, LoadStage::Ok) << l.diagnostics;
  std::string err;
  auto k = build_native(*l.program, err, EmitOptions{true});
  ASSERT_TRUE(k) << err;
  auto run = [&](int64_t a, int64_t b, uint64_t bound) {
    Memory st;
    EXPECT_TRUE(prepare_run(*l.program, {a, b}, ModelOptions{}, st).ok());
    return run_native(*l.program, st, *k, nullptr, bound);
  };
  int reached = 0, cases = 0;
  for (int64_t a : {0, 1, 3, 17})
    for (int64_t b : {0, 1, 5, 40})
      for (uint64_t bound : {1ull, 10ull, 100ull, 1000ull, 2000ull}) {
        // the reference's two counts, each against the bound: A + A·B loop iterations, A·B assignments
        uint64_t iterations = static_cast<uint64_t>(a + a * b), assignments = static_cast<uint64_t>(a * b);
        Outcome o = run(a, b, bound);
        EXPECT_EQ(o.kind == OutcomeKind::Inconclusive, iterations > bound || assignments > bound)
            << "A=" << a << " B=" << b << " bound=" << bound << ": " << o.message;
        if (o.kind == OutcomeKind::Inconclusive) {
          EXPECT_NE(o.message.find("step bound"), std::string::npos);
        }
        reached += o.kind == OutcomeKind::Inconclusive;
        ++cases;
      }
  EXPECT_GT(reached, 10);
  EXPECT_LT(reached, cases);
  Outcome huge = run(int64_t{1} << 46, 1, 1000);  // 7·10^13 iterations: refused at the loop's entry
  EXPECT_EQ(huge.kind, OutcomeKind::Inconclusive);
}

// ---- limits: a child's memory is bounded, and its answer says so ----
TEST(Hardening, ChildrenRunWithinTheMemoryLimit) {
  if (sched::kSanitized) GTEST_SKIP() << "under a sanitizer no address-space limit is set (its shadow memory needs terabytes of it)";
  auto grab = [](size_t bytes) {
    return [bytes]() -> std::string {
      std::vector<char> v(bytes, 1);  // touched: really allocated
      return std::to_string(v[bytes / 2]);
    };
  };
  Child small = run_in_child(30000, grab(size_t{64} << 20), uint64_t{512} << 20);
  EXPECT_EQ(small.status, Child::Status::Done) << small.text;
  Child big = run_in_child(30000, grab(size_t{2} << 30), uint64_t{512} << 20);
  EXPECT_EQ(big.status, Child::Status::OutOfMemory) << big.text;
  EXPECT_NE(big.text.find("ran out of memory (the limit of 512 MB)"), std::string::npos) << big.text;
  Child slow = run_in_child(300, [] {
    std::this_thread::sleep_for(std::chrono::seconds(30));
    return std::string("late");
  });
  EXPECT_EQ(slow.status, Child::Status::Killed) << slow.text;
}

// ---- names: every word of SCHED is refused in an algorithm ----
TEST(Hardening, EveryWordOfSchedIsRefusedAsAnAlgoName) {
  std::vector<std::string> words = {"param", "assume", "require", "tensor", "input", "output", "array", "skip", "if", "else", "let", "in",
                                    "allocate", "for", "par", "to", "true", "false", "atomic", "sum", "prod", "all", "any",
                                    "bool", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f32", "f64"};
  for (const auto& b : builtin_names(true)) words.push_back(b);
  int refused = 0;
  for (const auto& w : words) {
    ASSERT_NE(reserved_word(w), nullptr) << w;
    for (int place = 0; place < 3; ++place) {  // a func, a parameter, a variable
      std::string text = place == 0   ? fmt::format("param N;\ninput A(i) : f32[N];\nfunc {}(i) : f32 = A(i);\noutput {} : [N];\n", w, w)
                         : place == 1 ? fmt::format("param {};\ninput A(i) : f32[4];\nfunc F(i) : f32 = A(i);\noutput F : [4];\n", w)
                                      : fmt::format("param N;\ninput A({}) : f32[N];\nfunc F(i) : f32 = A(i);\noutput F : [N];\n", w);
      auto src = std::make_shared<SourceFile>("w.algo", text);
      Diagnostics d(src);
      auto a = algo::parse_algorithm(src, d);
      EXPECT_FALSE(a) << w << " at place " << place;
      std::string r = d.render();
      bool named = r.find(fmt::format("got '{}'", w)) != std::string::npos;
      EXPECT_TRUE(named) << r;
      refused += !a && named;
    }
  }
  EXPECT_EQ(refused, static_cast<int>(words.size()) * 3);
  EXPECT_EQ(reserved_word("blur"), nullptr);
  EXPECT_EQ(reserved_word("Sum"), nullptr);
}

// ---- recursions without a base case ----
std::string base_case_errors(const std::string& tensors) {
  Loaded l = load_text("param N;\n" + tensors + "output o[i] : f32[N] = R(i);\nfor i < N { o[i] := 0.0 }\n", "r.sched");
  return l.stage == LoadStage::Ok ? "" : l.diagnostics;
}

TEST(Hardening, RecursionsWithoutABaseCaseAreRefusedBeforeRunning) {
  for (const char* bad : {"tensor R(i) : f32 = R(i - 1) + 1.0;\n",
                          "tensor R(i) : f32 = select(i <= 0, 0.0, R(i - 1));\n",  // select is eager
                          "tensor R(i) : f32 = Q(i + 1);\ntensor Q(i) : f32 = R(i - 1) * 2.0;\n",
                          "tensor R(i) : f32 = f32(sqrt(R(i)));\n"}) {
    std::string e = base_case_errors(bad);
    EXPECT_NE(e.find("has no base case"), std::string::npos) << bad << e;
  }
  for (const char* good : {"tensor R(i) : f32 = 0.0 if i <= 0 | R(i - 1) + 1.0 if i > 0;\n",
                           "tensor R(i) : f32 = sum(k | 0 <= k && k < i : R(k)) + 1.0;\n",  // the reduction may run on no point
                           "tensor R(i) : f32 = Q(i);\ntensor Q(i) : f32 = f32(i);\n",
                           "tensor R(i) : f32 = Q(i) + 1.0;\ntensor Q(i) : f32 = 0.0 if i <= 0 | R(i - 1) if i > 0;\n"}) {
    std::string e = base_case_errors(good);
    EXPECT_EQ(e.find("has no base case"), std::string::npos) << good << e;
  }
}

// ---- inlining ----
std::string lower_errors(const std::string& algo) {
  std::string out, errors;
  algo::lower_source(std::make_shared<SourceFile>("i.algo", algo), "", out, errors);
  return errors;
}

TEST(Hardening, InliningPastItsBoundsIsRefusedAtTheCall) {
  auto chain = [](int n, const char* body) {
    std::string t = "param N;\ninput A(x) : f32[N + 1000];\nfunc F0(x) : f32 = A(x);\n";
    for (int i = 1; i < n; ++i) t += fmt::format("func F{}(x) : f32 = {};\n", i, fmt::format(fmt::runtime(body), i - 1));
    return t + fmt::format("func G(x) : f32 = F{}(x);\noutput G : [N];\n", n - 1);
  };
  EXPECT_EQ(lower_errors(chain(100, "F{0}(x) + 1.0")), "");
  EXPECT_NE(lower_errors(chain(5000, "F{0}(x) + 1.0")).find("compute_root"), std::string::npos);
  EXPECT_EQ(lower_errors(chain(10, "F{0}(x) + F{0}(x + 1)")), "");  // 2^10 terms: fine
  std::string doubling = lower_errors(chain(300, "F{0}(x) + F{0}(x + 1)"));
  EXPECT_NE(doubling.find("more than 1000000 nodes"), std::string::npos) << doubling;
}

}  // namespace
}  // namespace sched
