// `sched fuzz --compiler halide` (halide_campaign.hpp).
#include "fuzz/halide_campaign.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <random>
#include <set>

#include "driver/run.hpp"
#include "fuzz/findings.hpp"
#include "fuzz/pool.hpp"
#include "halide/bridge.hpp"
#include "halide/build.hpp"
#include "halide/cpp.hpp"
#include "halide/jit.hpp"
#include "halide/passes.hpp"
#include "interpreter/files.hpp"
#include "interpreter/load.hpp"
#include "scheduler/lower.hpp"

namespace sched::fuzz {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

const std::vector<BuiltinAlgorithm>& halide_algorithms() {
  static const std::vector<BuiltinAlgorithm> algos = [] {
    std::vector<BuiltinAlgorithm> v = builtin_algorithms();
    v.push_back({"blur5x5", R"(param W, H;
assume W >= 1 && H >= 1;
func Inp(x, y) : i32 = 2 * x + 5 * y;
func LocalSum(x, y) : i32 = 0;
LocalSum(x, y) = LocalSum(x, y) + Inp(x + rx, y + ry) for rx = -2 to 3, ry = -2 to 3;
func Blurry(x, y) : i32 = LocalSum(x, y) / 25;
output Blurry : [W, H];
)"});
    return v;
  }();
  return algos;
}

namespace {

std::optional<algo::Algorithm> parse(const std::string& name, const std::string& source, std::string& error) {
  auto src = std::make_shared<SourceFile>(name + ".algo", source);
  Diagnostics d(src);
  auto a = algo::parse_algorithm(src, d);
  if (!a) error = d.render();
  return a;
}

// The case's algorithm, schedule and parameters as the bridge reads them (halide::read_algorithm).
bool read_case(const HalideCase& c, algo::Algorithm& a, std::vector<algo::Directive>& extra, std::string& error) {
  std::vector<std::string> items;
  for (size_t i = 0; i < c.params.size() && i < c.param_names.size(); ++i) items.push_back(fmt::format("{}={}", c.param_names[i], c.params[i]));
  std::vector<int64_t> params;
  return halide::read_algorithm(std::make_shared<SourceFile>(c.algorithm + ".algo", c.source), show(c.schedule), items, a, extra, params, error);
}

// The specification program of `a` (our scheduler, no schedule): parameters are checked against it.
std::optional<Loaded> spec_program(const algo::Algorithm& a) {
  std::string text;
  Diagnostics d;
  if (!algo::specification(a, text, d)) return std::nullopt;
  Loaded l = load_text(text, "specification");
  if (l.stage != LoadStage::Ok) return std::nullopt;
  return l;
}

}  // namespace

HalideCase make_halide_case(const HalideCampaignOptions& o, uint64_t index) {
  const auto& algos = o.algorithms.empty() ? halide_algorithms() : o.algorithms;
  HalideCase c;
  c.index = index;
  std::mt19937_64 rng = case_rng(o.seed, index, 0x4a1de);
  Pick pick = [&](int lo, int hi) { return pick_from(rng, lo, hi); };
  // blur5x5, on which Halide's own fuzzer found its regressions, gets a third of the default cases
  size_t which = static_cast<size_t>(pick(0, static_cast<int>(algos.size())));
  if (o.algorithms.empty() && pick(0, 3) == 0) which = algos.size() - 1;
  const BuiltinAlgorithm& b = algos[which];
  c.algorithm = b.name;
  c.source = b.text;
  auto a = parse(b.name, b.text, c.error);
  if (!a) return c;
  if (o.autoscheduler.empty()) c.schedule = random_schedule(pick, *a, Vocabulary::Halide);
  c.param_names = a->params;
  static const int sizes[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17, 31, 32, 33};
  auto spec = spec_program(*a);
  for (int attempt = 0; attempt < 20; ++attempt) {
    c.params.clear();
    for (size_t i = 0; i < a->params.size(); ++i) c.params.push_back(sizes[pick(0, static_cast<int>(std::size(sizes)))]);
    if (!spec || driver::make_instance(*spec->program, c.params).prepared.ok()) break;
  }
  if (!o.autoscheduler.empty() && !a->funcs.empty()) {
    // the autoscheduler's machine (parallelism, cache in KB, balance) and estimates: the case's
    // sizes, or others drawn the same way (an autoscheduler tiles for its estimates, not the run's)
    static const int cache_kb[] = {32, 256, 1024, 16384};
    Step st{a->funcs.back().name, "autoschedule", {o.autoscheduler}};
    for (int v : {1 << pick(0, 5), cache_kb[pick(0, 4)], 10 * pick(1, 11)}) st.args.push_back(std::to_string(v));
    for (int64_t p : c.params) st.args.push_back(std::to_string(pick(0, 2) == 0 ? p : sizes[pick(0, static_cast<int>(std::size(sizes)))] * 8));
    c.schedule = {st};
  }
  return c;
}

std::string compiler_signature(const std::string& message) {
  // the text without digits, up to its first ": " (what follows names the IR at hand), at most n characters
  auto head = [](std::string s, size_t n) {
    s = s.substr(0, s.find('\n'));
    s = s.substr(0, s.find(": "));
    std::string out;
    for (char ch : s)
      if (!std::isdigit(static_cast<unsigned char>(ch))) out += ch;
    return out.substr(0, n);
  };
  size_t at = message.find("Internal Error at ");
  if (at == std::string::npos) at = message.find("Error at ");
  if (at != std::string::npos) {
    size_t s = message.find(" at ", at) + 4, e = message.find(' ', s);
    std::string loc = message.substr(s, e == std::string::npos ? std::string::npos : e - s);
    loc = loc.substr(loc.rfind('/') == std::string::npos ? 0 : loc.rfind('/') + 1);
    size_t cf = message.find("Condition failed: ", s);
    if (cf != std::string::npos) {  // the condition is source code of Halide: stable across schedules
      size_t b = cf + 18, c = message.find(": ", b);
      return loc + ": Condition failed: " + message.substr(b, c == std::string::npos ? std::string::npos : c - b).substr(0, 120);
    }
    size_t u = message.find(": ", e == std::string::npos ? s : e);
    return loc + ": " + head(u == std::string::npos ? "" : message.substr(u + 2), 100);
  }
  if (auto sig = message.find("died of signal"); sig != std::string::npos) return message.substr(sig, message.find(')', sig) - sig + 1);
  if (message.find("killed") != std::string::npos) return "hang: still running at the time limit";
  if (message.find("which no loop or let defines") != std::string::npos) return "the IR uses a variable nothing defines";
  return head(message, 100);
}

namespace {

json finding(const std::string& oracle, const std::string& stage, const std::string& message, bool wrong_output, const std::string& detail) {
  return {{"oracle", oracle}, {"stage", stage}, {"pass", ""}, {"message", message}, {"wrong_output", wrong_output}, {"detail", detail.substr(0, 2000)}};
}

std::string signature_of(const json& f) {
  std::string s = f.value("oracle", "") + " | " + f.value("stage", "");
  if (!f.value("pass", "").empty()) s += " | pass " + f.value("pass", "");
  if (!f.value("message", "").empty()) s += " | " + f.value("message", "");
  return s;
}

struct Checked {
  json result;
  std::string export_text;
};

// The loop nest of `text` at `params`: the outcome of the fast engine with outputs compared.
Outcome run_loop_nest(const std::string& text, const std::vector<int64_t>& params, bool& ran) {
  ran = false;
  Loaded l = load_text(text, "loop_nest.sched");
  if (l.stage != LoadStage::Ok) return Outcome::make(OutcomeKind::Error, {}, "the export does not load: " + l.diagnostics.substr(0, 400));
  driver::Instance inst = driver::make_instance(*l.program, params);
  if (!inst.prepared.ok()) return inst.prepared;
  driver::RunOptions ro;
  ro.threads = 1;
  ran = true;
  return driver::run(driver::Engine::Fast, inst, ro).outcome;
}

Checked check(const HalideCase& c, const HalideCampaignOptions& o, const std::set<std::string>& skip) {
  Checked out;
  json& r = out.result;
  r = {{"findings", json::array()}, {"refused", false}, {"seconds", {{"compiler", 0.0}, {"loop_nest", 0.0}, {"jit", 0.0}}}};
  std::string error;
  algo::Algorithm a;
  std::vector<algo::Directive> extra;
  if (!read_case(c, a, extra, error)) {
    r["status"] = "bad-input";
    r["findings"].push_back(finding("harness", "case", "the generated case does not parse", false, error));
    return out;
  }
  auto t0 = Clock::now();
  auto lap = [&](const char* k, Clock::time_point since) { r["seconds"][k] = std::chrono::duration<double>(Clock::now() - since).count(); };
  halide::Options ho;
  ho.timeout_ms = o.compiler_timeout_ms;
  ho.skip = skip;
  ho.final_lowering = skip.empty();  // with a pass skipped, only the exported loop nest is asked about
  halide::Exported x = halide::lower_via_halide(a, extra, ho);
  lap("compiler", t0);
  r["status"] = halide::status_name(x.status) == "ok" ? "exported" : std::string(halide::status_name(x.status));
  using S = halide::Exported::Status;
  if (x.status == S::Ok && !x.later_rejection.empty()) {  // refused by a later pass: not valid Halide
    r["status"] = "rejected";
    r["message"] = x.later_rejection.substr(0, 400);
    return out;
  }
  if (x.status == S::Rejected) {
    r["message"] = x.message.substr(0, 400);
    return out;
  }
  if (x.status == S::BadInput) {
    r["findings"].push_back(finding("harness", "bridge", "the bridge cannot build the generated case", false, x.message));
    return out;
  }
  bool compiler_failed = false;
  if (x.status == S::Compiler) {
    r["findings"].push_back(finding("compiler", x.stage, compiler_signature(x.message), false, x.message));
    compiler_failed = true;
  }
  if (x.status == S::Ok && !x.later_failure.empty()) {
    r["findings"].push_back(finding("compiler", "complete lowering", compiler_signature(x.later_failure), false, x.later_failure));
    compiler_failed = true;
  }
  if (x.status == S::Unsupported || x.status == S::Limit) r["message"] = x.message.substr(0, 400);
  if (x.status == S::Limit) return out;  // our time or memory limit: inconclusive, nothing to compare
  // the JIT compiles with every pass: when the complete lowering failed, it fails the same way
  halide::JitRun j;
  bool jit_ran = false;
  if (!compiler_failed && skip.empty()) {
    auto t1 = Clock::now();
    j = halide::jit_check(a, extra, c.params, 1, true, o.compiler_timeout_ms);
    lap("jit", t1);
    jit_ran = true;
    r["jit"] = halide::status_name(j.status);
  }
  if (jit_ran && j.status == halide::JitRun::Status::Rejected) {  // Halide refuses it at code generation: no compiled code exists
    r["status"] = "rejected";
    r["message"] = j.message.substr(0, 400);
    return out;
  }
  bool refused = jit_ran && j.status == halide::JitRun::Status::Refused;
  r["refused"] = refused;
  if (x.status == S::Ok) {
    out.export_text = x.text;
    auto t2 = Clock::now();
    bool ran = false;
    Outcome n = run_loop_nest(x.text, c.params, ran);
    lap("loop_nest", t2);
    r["loop_nest"] = ran ? std::string(outcome_name(n.kind)) : "not run";
    if (ran && !n.ok() && !refused) {
      std::string detail = n.message;
      for (const auto& d : n.details) detail += "\n  " + d;
      std::string confirm = !jit_ran ? "" : j.status == halide::JitRun::Status::Ok ? "jit ok" : fmt::format("jit {}", halide::status_name(j.status));
      // a wrong output: the loop nest's values are wrong (or undefined) and the compiled code's are wrong too; a
      // loop nest that reads outside its buffers or cells never written while the compiled code's outputs are right
      // is a finding (memory Halide's code touches and should not), not a wrong output
      // (only a mismatch of the compiled code's outputs confirms one: a JIT that fails to compile or crashes says nothing of them)
      bool wrong = (n.kind == OutcomeKind::Mismatch || n.kind == OutcomeKind::Error) && jit_ran && j.status == halide::JitRun::Status::Mismatch;
      r["findings"].push_back(finding("loop nest", std::string(outcome_name(n.kind)), confirm, wrong, detail));
      return out;  // the JIT's verdict is part of this finding
    }
  }
  if (jit_ran && j.status != halide::JitRun::Status::Ok && !refused && j.status != halide::JitRun::Status::BadInput &&
      j.status != halide::JitRun::Status::Limit) {  // our time or memory limit: inconclusive, never a finding
    std::string detail = j.message;
    for (const auto& d : j.outcome.details) detail += "\n  " + d;
    std::string loop = x.status == S::Ok ? "loop nest ok" : "no loop nest";
    bool wrong = j.status == halide::JitRun::Status::Mismatch;
    // a wrong output says whether the loop nest was right (the bug is in a later pass); a compiler failure or a
    // crash is the same bug whatever the export made of the IR
    // a death inside compile_jit is the compiler's (row 8 of docs/halide.md: a compile-time stack overflow)
    bool compiler = j.status == halide::JitRun::Status::Compiler || (j.status == halide::JitRun::Status::Crash && j.compiling);
    r["findings"].push_back(finding(compiler ? "compiler" : "jit", compiler ? "jit compilation" : std::string(halide::status_name(j.status)),
                                    wrong ? loop : compiler_signature(j.message), wrong, detail + "\n(" + loop + ")"));
  }
  return out;
}

// The pass whose skipping makes a loop-nest finding go away ("" if none does).
std::string implicated_pass(const HalideCase& c, const HalideCampaignOptions& o, const json& f) {
  for (const auto& p : halide::pass_names()) {
    if (!halide::skippable(p)) continue;
    Checked k = check(c, o, {p});
    if (k.result.value("status", "") != "exported") continue;
    bool same = false;
    for (const auto& g : k.result["findings"])
      if (g.value("oracle", "") == "loop nest" && g.value("stage", "") == f.value("stage", "")) same = true;
    if (!same) return p;
  }
  return "";
}

// Reduces `c` while a finding with the signature of `f` (its pass aside) stays.
HalideCase reduce_case(const HalideCase& c0, const HalideCampaignOptions& o, const json& f) {
  auto t0 = Clock::now();
  auto left = [&] { return std::chrono::duration<double>(Clock::now() - t0).count() < o.reduce_seconds; };
  std::string want = signature_of(f);
  auto still = [&](const HalideCase& t) {
    Checked k = check(t, o, {});
    for (const auto& g : k.result["findings"])
      if (signature_of(g) == want) return true;
    return false;
  };
  HalideCase best = c0;
  for (bool progress = true; progress && left();) {
    progress = false;
    for (const auto& s : smaller_schedules(best.schedule)) {
      if (!left()) break;
      HalideCase t = best;
      t.schedule = s;
      if (still(t)) {
        best = t;
        progress = true;
        break;
      }
    }
  }
  if (f.value("oracle", "") != "compiler")  // Halide compiles for all parameters: they matter only when it runs
    best.params = lower_params(best.params, [&](const std::vector<int64_t>& ps) {
      HalideCase t = best;
      t.params = ps;
      return still(t);
    }, left);
  return best;
}

json case_json(const HalideCase& c) {
  return {{"index", c.index}, {"algorithm", c.algorithm}, {"schedule", show(c.schedule)}, {"param_names", c.param_names}, {"params", c.params}};
}

std::string params_text(const HalideCase& c, const char* sep) {
  std::string s;
  for (size_t i = 0; i < c.params.size(); ++i) s += fmt::format("{}{}={}", sep, c.param_names[i], c.params[i]);
  return s;
}

// The reproducer files of a finding's case.
json reproducer(const HalideCase& c, const json& f, const HalideCampaignOptions& o, const std::string& export_text) {
  json files = json::object();
  std::string algo_text = fmt::format("// sched fuzz --compiler halide: seed {}, case {}, algorithm {}\n// finding: {}\n", o.seed, c.index,
                                      c.algorithm, f.value("signature", ""));
  algo_text += fmt::format("// replay: sched lower case.algo --via halide --jit{} -o loop_nest.sched && sched run loop_nest.sched{}\n",
                           params_text(c, " -p "), params_text(c, " -p "));
  algo_text += c.source + "\n// the schedule under test (reduced)\n";
  for (const auto& s : c.schedule) algo_text += "schedule " + s.text() + ";\n";
  files["case.algo"] = algo_text;
  std::string error;
  algo::Algorithm a;
  std::vector<algo::Directive> extra;
  if (read_case(c, a, extra, error)) {
    try {
      files["repro.cpp"] = halide::halide_program(a, extra, c.params,
                                                  fmt::format("sched fuzz --compiler halide, seed {}, case {}: {}", o.seed, c.index, f.value("signature", "")));
    } catch (const std::exception& e) {
      files["repro.cpp"] = std::string("// no C++ reproducer: ") + e.what() + "\n";
    }
  }
  if (!export_text.empty()) files["loop_nest.sched"] = export_text;
  return files;
}

// The kinds of a schedule's directives, sorted and each once: "split", "split:PredicateStores"
// (with its tail strategy), "update.rfactor" (on an update). A reduced schedule's kinds are what
// its finding needs (each directive, removed, makes it go): two findings of one message whose
// cases hold different such sets are different bugs (#7890 and #7764 share a message).
std::set<std::string> directive_kinds(const Schedule& sch) {
  const auto& tails = tail_strategies();
  std::set<std::string> out;
  for (const auto& st : sch) {
    std::string k = (st.head.find(".update(") != std::string::npos ? "update." : "") + st.name;
    if (!st.args.empty() && std::find(tails.begin(), tails.end(), st.args.back()) != tails.end()) k += ":" + st.args.back();
    out.insert(k);
  }
  return out;
}

std::string kinds_text(const std::set<std::string>& k) { return k.empty() ? "no directive" : fmt::format("{}", fmt::join(k, " + ")); }

// Essential directive kinds of the findings reduced so far, by base signature.
using Essentials = std::map<std::string, std::vector<std::set<std::string>>>;

// The child: one case, its oracles, and for a finding of a signature not seen yet, the reduced
// case and its reproducer files.
json run_one(const HalideCase& c, const HalideCampaignOptions& o, const Essentials& seen) {
  if (!c.error.empty()) return {{"status", "bad-input"}, {"findings", json::array({finding("harness", "case", "the algorithm does not parse", false, c.error)})}};
  Checked k = check(c, o, {});
  json r = k.result;
  for (auto& f : r["findings"]) f["signature"] = signature_of(f);
  if (r["findings"].empty()) return r;
  json& f = r["findings"][0];
  if (auto known = seen.find(f.value("signature", "")); known != seen.end()) {
    std::set<std::string> kinds = directive_kinds(c.schedule);
    for (const auto& ess : known->second)
      if (std::includes(kinds.begin(), kinds.end(), ess.begin(), ess.end())) {
        r["known_as"] = kinds_text(ess);  // counted under that reduced finding, not reduced again
        return r;
      }
  }
  HalideCase red = o.reduce_seconds > 0 ? reduce_case(c, o, f) : c;
  Checked rk = check(red, o, {});
  json rf = f;
  for (const auto& g : rk.result["findings"])
    if (signature_of(g) == f.value("signature", "")) rf = g;
  if (rf.value("oracle", "") == "loop nest") rf["pass"] = implicated_pass(red, o, rf);
  std::set<std::string> needs = directive_kinds(red.schedule);
  rf["essential_kinds"] = needs;
  rf["signature"] = signature_of(rf) + " | needs " + kinds_text(needs);
  rf["base_signature"] = f.value("signature", "");
  r["reduced"] = case_json(red);
  r["reduced_finding"] = rf;
  r["files"] = reproducer(red, rf, o, rk.export_text.empty() ? k.export_text : rk.export_text);
  return r;
}

}  // namespace

nlohmann::json check_halide_case(const HalideCase& c, const HalideCampaignOptions& o, bool find_pass) {
  json r = check(c, o, {}).result;
  for (auto& f : r["findings"]) {
    if (find_pass && f.value("oracle", "") == "loop nest") f["pass"] = implicated_pass(c, o, f);
    f["signature"] = signature_of(f);
  }
  return r;
}

json run_halide_campaign(const HalideCampaignOptions& o) {
  CampaignCore core(o, "fuzz halide");
  json s = core.start({{"compiler", "halide"}, {"cases", 0}, {"statuses", json::object()}, {"oracles", json::object()},
                       {"algorithms", json::object()}, {"refused", 0}, {"signatures", json::array()}, {"findings", 0}, {"timeouts", 0}});
  for (const char* k : {"compiler", "loop_nest", "jit"}) s["oracles"][k] = {{"runs", 0}, {"seconds", 0.0}, {"flagged", 0}};
  Essentials seen;                            // base signatures (before the pass is known) of reduced findings, with what each needs
  std::map<std::string, size_t> by_signature;  // final signature -> index in s["signatures"]
  std::map<std::string, std::string> final_of;  // base signature " | " the kinds it needs -> final signature
  auto status = [&] {
    return fmt::format("{} finding(s), {} signature(s), exported {}, rejected {}", s["findings"].get<int>(), s["signatures"].size(),
                       s["statuses"].value("exported", 0), s["statuses"].value("rejected", 0));
  };
  auto work = [&](uint64_t idx, const Emit& emit) {
    // Halide's warnings ("Update definition 0 of function C has not been scheduled") are noise here
    if (int null = open("/dev/null", O_WRONLY | O_CLOEXEC); null >= 0) {
      dup2(null, 2);
      close(null);
    }
    HalideCase c = make_halide_case(o, idx);
    emit(case_json(c));
    emit(run_one(c, o, seen));
  };
  auto finished = [&](TaskEnd& e) {
    json c = !e.lines.empty() && !e.lines[0].is_discarded() ? e.lines[0] : json{{"index", e.index}};
    json r;
    if (e.lines.size() >= 2 && !e.lines[1].is_discarded()) {
      r = e.lines[1];
    } else if (e.timed_out) {
      s["timeouts"] = s["timeouts"].get<int>() + 1;
      if (o.on_case) o.on_case({e.index, c.value("algorithm", "?") + ": " + c.value("schedule", ""), o.case_timeout_s, {}, "", true});
      return;
    } else {
      std::string why = e.died.empty() ? "the case's process exited without a result" : e.died;
      r = {{"status", "crash"}, {"findings", json::array({finding("harness", "crash", why, false, why)})}};
      r["findings"][0]["signature"] = signature_of(r["findings"][0]);
    }
    s["cases"] = ++core.done;
    std::string st = r.value("status", "?");
    s["statuses"][st] = s["statuses"].value(st, 0) + 1;
    json& al = s["algorithms"][c.value("algorithm", "?")];
    if (!al.is_object()) al = json::object();
    al["cases"] = al.value("cases", 0) + 1;
    if (st == "exported") al["exported"] = al.value("exported", 0) + 1;
    if (r.value("refused", false)) s["refused"] = s["refused"].get<int>() + 1;
    const json& secs = r.contains("seconds") ? r["seconds"] : json::object();
    for (const auto& [k, v] : secs.items()) {
      if (v.get<double>() <= 0) continue;
      json& orc = s["oracles"][k];
      if (!orc.is_object()) orc = json::object();
      orc["runs"] = orc.value("runs", 0) + 1;
      orc["seconds"] = orc.value("seconds", 0.0) + v.get<double>();
    }
    const json& fs = r.contains("findings") ? r["findings"] : json::array();
    for (const auto& f : fs) {
      std::string o_name = f.value("oracle", "");
      std::string key = o_name == "loop nest" ? "loop_nest" : o_name;
      if (s["oracles"].contains(key)) s["oracles"][key]["flagged"] = s["oracles"][key].value("flagged", 0) + 1;
    }
    CaseReport report{e.index, c.value("algorithm", "?") + ": " + c.value("schedule", ""), 0, {}, "", false};
    for (const auto& [k, v] : secs.items()) report.seconds += v.get<double>();
    for (const auto& f : fs) report.findings.push_back(fmt::format("{}: {}", f.value("oracle", ""), f.value("message", "")));
    auto notify = [&] {
      if (o.on_case) o.on_case(report);
    };
    if (fs.empty()) return notify();
    s["findings"] = s["findings"].get<int>() + 1;
    std::string base = fs[0].value("signature", "");
    std::string needs = r.value("known_as", "");  // what the reduced finding it is counted under needs
    if (r.contains("reduced_finding")) {
      const json& rf = r["reduced_finding"];
      seen[base].push_back(rf.value("essential_kinds", std::set<std::string>{}));
      needs = kinds_text(seen[base].back());
      final_of[base + " | " + needs] = rf.value("signature", base);
    }
    std::string known = base + " | " + needs;
    std::string sig = final_of.count(known) ? final_of[known] : base;
    if (!by_signature.count(sig)) {
      const json& f = r.contains("reduced_finding") ? r["reduced_finding"] : fs[0];
      std::string dir = fmt::format("{:02}-{}", by_signature.size() + 1, f.value("oracle", "") == "loop nest" ? "loop-nest" : f.value("oracle", ""));
      json entry = {{"signature", sig}, {"oracle", f.value("oracle", "")}, {"stage", f.value("stage", "")}, {"pass", f.value("pass", "")},
                    {"message", f.value("message", "")}, {"wrong_output", f.value("wrong_output", false)}, {"detail", f.value("detail", "")},
                    {"count", 0}, {"cases", json::array()}, {"first_case", c.value("index", 0)}, {"first_seconds", core.elapsed()},
                    {"algorithm", c.value("algorithm", "")}, {"schedule", c.value("schedule", "")}, {"params", c.value("params", json::array())},
                    {"dir", o.out_dir.empty() ? "" : dir}};
      if (r.contains("reduced")) entry["reduced"] = r["reduced"];
      by_signature[sig] = s["signatures"].size();
      s["signatures"].push_back(entry);
      if (r.contains("files") && !o.out_dir.empty()) {
        std::string why;
        if (!make_output_dir((std::filesystem::path(o.out_dir) / dir).string(), why)) s["write_errors"].push_back(why);
      }
      if (r.contains("files"))
        for (const auto& [name, text] : r["files"].items()) save_to(s, o.out_dir, dir + "/" + name, text.get<std::string>());
    }
    json& entry = s["signatures"][by_signature[sig]];
    entry["count"] = entry["count"].get<int>() + 1;
    if (entry["cases"].size() < 20) entry["cases"].push_back(c.value("index", 0));
    if (!o.out_dir.empty() && !entry.value("dir", std::string()).empty()) report.file = entry["dir"].get<std::string>();
    notify();
  };
  long abandoned = core.run(work, finished, status);
  s["wrong_output_signatures"] = 0;
  double first = -1;
  for (const auto& e : s["signatures"]) {
    if (e.value("wrong_output", false)) s["wrong_output_signatures"] = s["wrong_output_signatures"].get<int>() + 1;
    if (first < 0 || e.value("first_seconds", 0.0) < first) first = e.value("first_seconds", 0.0);
  }
  s["time_to_first_finding"] = first;
  core.finish(s, abandoned, halide_summary_markdown);
  return s;
}

std::string halide_summary_markdown(const json& s) {
  auto num = [&](const char* k) { return s.value(k, 0); };
  auto table = [&](const char* k) -> const json& { return member(s, k); };
  std::string md = fmt::format("# sched fuzz --compiler halide: seed {}, shard {}\n\n", s.value("seed", uint64_t{0}), s.value("shard", ""));
  md += fmt::format("{} cases in {:.1f} s ({:.2f} cases/s, {} job(s)); {} finding(s) of {} distinct signature(s), {} of them wrong outputs.",
                    num("cases"), s.value("seconds", 0.0), s.value("cases_per_second", 0.0), num("jobs"), num("findings"),
                    s.value("signatures", json::array()).size(), num("wrong_output_signatures"));
  if (s.value("time_to_first_finding", -1.0) >= 0) md += fmt::format(" First finding after {:.1f} s.", s.value("time_to_first_finding", 0.0));
  md += "\n\n";
  if (s.contains("interrupted")) md += "Interrupted (SIGINT or SIGTERM): the running cases were abandoned and are not counted.\n\n";
  md += "| Halide's verdict on the schedule | cases |\n|---|---|\n";
  for (const auto& [k, v] : table("statuses").items()) md += fmt::format("| {} | {} |\n", k, v.get<int>());
  md += fmt::format("\n{} case(s) where Halide's runtime refused the buffers at the drawn parameters (the schedule's precondition), "
                    "{} killed at the case time limit.\n\n",
                    num("refused"), num("timeouts"));
  md += "| oracle | runs | seconds | flagged |\n|---|---|---|---|\n";
  for (const auto& [k, v] : table("oracles").items())
    md += fmt::format("| {} | {} | {:.1f} | {} |\n", k, v.value("runs", 0), v.value("seconds", 0.0), v.value("flagged", 0));
  md += "\n| algorithm | cases | exported |\n|---|---|---|\n";
  for (const auto& [k, v] : table("algorithms").items()) md += fmt::format("| {} | {} | {} |\n", k, v.value("cases", 0), v.value("exported", 0));
  const json& sigs = s.value("signatures", json::array());
  if (!sigs.empty()) {
    md += "\n## Findings by signature\n\n| # | signature | wrong output | cases | first (case, s) | reduced schedule | reproducer |\n|---|---|---|---|---|---|---|\n";
    int n = 0;
    for (const auto& e : sigs) {
      std::string sched = e.contains("reduced") ? e["reduced"].value("schedule", "") : e.value("schedule", "");
      std::string params;
      if (e.contains("reduced"))
        for (size_t i = 0; i < e["reduced"]["params"].size(); ++i)
          params += fmt::format(" {}={}", e["reduced"]["param_names"][i].get<std::string>(), e["reduced"]["params"][i].get<int64_t>());
      std::string sig = e.value("signature", "");
      std::replace(sig.begin(), sig.end(), '|', '/');
      std::replace(sched.begin(), sched.end(), '|', '/');
      md += fmt::format("| {} | {} | {} | {} | {}, {:.0f} | `{}`{} | {} |\n", ++n, sig, e.value("wrong_output", false) ? "yes" : "no", e.value("count", 0),
                        e.value("first_case", 0), e.value("first_seconds", 0.0), sched.empty() ? "(none)" : sched,
                        params.empty() ? "" : fmt::format(" at{}", params), e.value("dir", "").empty() ? "-" : fmt::format("`{}/`", e.value("dir", "")));
    }
  }
  return md;
}

}  // namespace sched::fuzz
