// `sched fuzz --compiler mlir`: random affine programs through random pipelines of MLIR 19's
// affine passes (generate.hpp), each case checked pass by pass (pipeline.hpp), findings reduced,
// deduplicated by signature and written as reproducers, on the campaign core every campaign
// shares (fuzz/campaign_core.hpp).
//
// The oracles of one case, in its own process:
//   mlir-opt    the pass crashes or fails on a valid program            (crashed)
//   pass        the after-program differs from the before-program, confirmed by MLIR's own
//               execution (different), or races where it did not, confirmed by two schedules
//               of the parallel loop that end differently (defective)
//   import      MLIR's own execution of an imported program disagrees with our engine's: our
//               defect, counted apart and never as MLIR's
//   generator   the generated program fails alone (input-defective): our defect too
// A step the proof does not decide is `unknown`, not a finding.
//
// Signature: oracle | kind | the pass flag without its options ("pass | different |
// --affine-loop-unroll-jam"). The first finding of a signature is reduced (passes before the
// failing one dropped, then loop nests, while the signature stays) and written to
// OUT/<nn>-<kind>-<pass>/: case.mlir, reproduce.sh (the mlir-opt command and `sched mlir`) and
// finding.json.
#pragma once
#include <nlohmann/json.hpp>

#include <string>

#include "fuzz/campaign_core.hpp"
#include "mlir/generate.hpp"

namespace sched::mlir {

struct CampaignOptions : fuzz::CampaignSettings {
  CampaignOptions() {
    case_timeout_s = 240;
    reduce_seconds = 120;
  }
  double equiv_timeout_s = 10;  // each comparison's proof (a step not proved in it is unknown, not a finding)
  // false (the default): each step is checked by runs (our engine, both programs, two inputs)
  // and a difference or a race confirmed, with MLIR's execution of the user's program checking
  // the import; no proofs (`sched mlir` proves a pipeline the campaign found nothing on)
  bool prove = false;
  std::string mlir_opt = "/usr/bin/mlir-opt-19";
};

// One case's check (in the calling process): its findings with their signatures.
nlohmann::json check_case(const Case& c, const CampaignOptions& o);

nlohmann::json run_campaign(const CampaignOptions& o);
std::string summary_markdown(const nlohmann::json& s);

// Whether the MLIR import and mlir-opt are there (else why not).
bool available(const CampaignOptions& o, std::string& why);

}  // namespace sched::mlir
