// A differential fuzz campaign (issue 7, `sched fuzz`): cases generated from a seed, every
// oracle run on each, the agreement rules judged, findings reduced and saved, and a summary
// with throughput and the mutation score.
//
// Case i of seed S is a pure function of (S, i): a legal schedule of a built-in algorithm
// lowered to SCHED (expected correct), a schedule with a defect on purpose, a mutation of a
// lowered program (each a defect class with what it should trigger), a reduction kernel of
// fuzz/gen_reduce.hpp (correct, or with a reduction defect class), or a random program of the
// generator of fuzz/gen.hpp (no expectation: only the cross-oracle rules apply). Shards take the
// indices i = I mod N, so a seed range splits across machines and the summaries merge.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "fuzz/campaign_core.hpp"
#include "fuzz/case_report.hpp"
#include "fuzz/oracles.hpp"
#include "fuzz/schedules.hpp"

namespace sched::fuzz {

struct Case {
  uint64_t index = 0;
  std::string kind;     // legal, schedule-defect, mutation, random, reduction, reduction-defect; refused (a user algorithm's
                        // schedule our scheduler does not lower)
  std::string cls;      // defect class ("" for legal and random)
  std::string expect;   // what the defect should trigger
  std::string algorithm, schedule, where;
  std::string text;     // the program
  std::string unscheduled;  // a schedule's case: its algorithm lowered without a schedule (the equiv oracle's other program)
  std::vector<std::string> param_names;
  std::vector<int64_t> params;
  std::string error;    // generation failed (a scheduler bug: reported as a finding)
  Expect expectation() const {
    return kind == "legal" || kind == "reduction" ? Expect::Correct : kind == "random" ? Expect::Unknown : Expect::Defect;
  }
};

// Case `index` of the campaign `seed`. With `algorithms` (the user's `--algo` files), the cases
// are random schedules of those (algo_schedules.hpp, our scheduler's vocabulary: expected
// correct; kind "refused" when our scheduler does not lower one) and mutations of them.
Case make_case(uint64_t seed, uint64_t index, const std::vector<BuiltinAlgorithm>& algorithms = {});

// Shrinks `c` (its parameters, then its commands: deleted, unwrapped, or a loop cut to its first
// iteration) while `still` holds, for
// at most `seconds`; returns the reduced case.
Case reduce(const Case& c, const std::function<bool(const Case&)>& still, double seconds);

// The campaign's options: the shared ones (campaign_core.hpp; `algorithms` are the user's `--algo`
// files, empty: the built-in cases), its oracles and how often native code is compiled.
struct CampaignOptions : CampaignSettings {
  CampaignOptions() { cases_per_process = kCasesPerProcess; }
  // the cases a process runs before the next one starts (its oracles leave nothing behind but
  // memory, freed at each case's end)
  static constexpr int kCasesPerProcess = 64;
  OracleSet oracles;
  int native_every = 8;   // the native oracle compiles a kernel: on every n-th case
};

// Runs a campaign; returns its summary (see docs/fuzzing.md) and writes findings, the summary
// (summary.json, summary.md) into out_dir.
nlohmann::json run_campaign(const CampaignOptions& o);

// Sums summaries of shards of one campaign; `missing_shards` lists the shards ("I/N") no part
// is (empty when the parts cover the campaign).
nlohmann::json merge_summaries(const std::vector<nlohmann::json>& parts);
// Why `parts` cannot be merged ("" if they can): a part without a summary's shape (seed,
// shard "I/N", counts, tables), parts of different seeds or shard counts, a shard given twice.
std::string merge_refusal(const std::vector<nlohmann::json>& parts, const std::vector<std::string>& names);

// The Markdown form of a summary.
std::string summary_markdown(const nlohmann::json& s);

}  // namespace sched::fuzz
