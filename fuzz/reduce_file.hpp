// `sched reduce`: a program's finding kept while the program shrinks (delta debugging on the
// syntax tree: the campaign's reducer of campaign.hpp, made a command).
//
//   ReduceRequest r{.text = slurp("lowered.sched"), .name = "lowered.sched", .param_items = {"N=8"}, .keep = "race"};
//   ReduceResult x = reduce_file(r);
//   x.text           // the smallest program found that still races at the same statement
//   x.lines_before   // 40
//   x.lines_after    // 9
//
// What is kept: the kind of the finding and the statement it names (the text of the line its
// position points at, in the printed program: positions move while the program shrinks, the
// statement does not). Kinds:
//   race, out-of-bounds, error, mismatch   the reference engine's outcome (outputs compared)
//   annotation                             the reference engine with every write checked
//   refuted                                the verifier's verdict (the first failed condition's rule and statement)
//   disagreement                           the engines (model, reference, fast) disagree (the rule's text)
// Without `keep`, the file's own finding on the reference engine (its outcome when not ok).
// Parameters are lowered too (each towards 1) while the finding stays.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace sched::fuzz {

struct ReduceRequest {
  std::string text, name;
  std::vector<std::string> param_items;  // "N=8"
  std::string keep;                      // "": the file's own finding
  double seconds = 60;                   // reduction budget
  double verify_seconds = 10;            // per verifier call (refuted)
  uint64_t seed = 1;                     // input values
};

const std::vector<std::string>& keep_kinds();

struct ReduceResult {
  std::string error;        // bad input: the file does not load, a bad parameter, no such finding to keep
  std::string kind, statement, message;  // the finding kept, the statement it names, its message in the reduced program
  std::string text;         // the reduced program
  std::vector<std::string> param_items;  // its parameters ("N=1")
  long lines_before = 0, lines_after = 0;
  bool finished = true;     // false: the budget ran out before no smaller program kept the finding
  int candidates = 0;       // programs tried
  double seconds = 0;
};

ReduceResult reduce_file(const ReduceRequest& r);

}  // namespace sched::fuzz
