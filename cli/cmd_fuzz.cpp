// `sched fuzz`: a differential campaign over generated schedules, injected defects and random
// programs (fuzz/campaign.hpp).
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <thread>

#include "cli/commands.hpp"
#include "mlir/campaign.hpp"
#include "report/json_fields.hpp"
#include "report/pages.hpp"
#include "cli/reports.hpp"
#include "interpreter/files.hpp"
#include "interpreter/option_text.hpp"
#include "scheduler/algo.hpp"
#include "driver/oracle.hpp"
#include "fuzz/campaign.hpp"
#include "fuzz/findings.hpp"
#ifdef SCHED_HAVE_HALIDE
#include "fuzz/halide_campaign.hpp"
#include "halide/bridge.hpp"
#endif

namespace sched::cli {

namespace {

// `--compiler halide` (fuzz/halide_campaign.hpp): the checks only it needs, then its campaign on
// the options the command parsed for both compilers (seed, cases, time, shard, jobs, out).
#ifdef SCHED_HAVE_HALIDE
// `case_timeout_given`: --case-timeout was on the command line (it holds as given); otherwise a
// Halide case gets 300 s (a compile, a complete lowering, a JIT run and a reduction).
fuzz::HalideCampaignOptions halide_options(const fuzz::CampaignOptions& o, bool case_timeout_given) {
  fuzz::HalideCampaignOptions h;
  static_cast<fuzz::CampaignSettings&>(h) = o;  // seed, cases, time, shard, jobs, algorithms, out, progress, reports
  h.case_timeout_s = case_timeout_given ? o.case_timeout_s : 300.0;
  // a process a case: a case reads the findings seen before it started (its reduction is skipped
  // for a known signature), and Halide's compiler keeps state in its process
  h.cases_per_process = 1;
  // each compiler step ends (inconclusive) before the case's process is killed: the lowering
  // and the complete lowering share one limit, the JIT has another (halide/bridge.hpp)
  h.compiler_timeout_ms = static_cast<unsigned>(std::clamp(h.case_timeout_s * 400.0, 100.0, 60000.0));
  // a finding's reduction runs inside its case too: at most what the case's first check leaves
  h.reduce_seconds = std::min(h.reduce_seconds, h.case_timeout_s * 0.4);
  return h;
}
#endif

// Bad input for --compiler halide (exit 2 set): options of the other compiler, algorithms the
// bridge cannot build, or no Halide in this build.
bool halide_refuses(const std::string& oracles, const std::vector<std::string>& merge, const fuzz::CampaignOptions& o) {
#ifdef SCHED_HAVE_HALIDE
  if (!oracles.empty() || !merge.empty()) {
    std::cerr << "sched fuzz: --compiler halide runs its own oracles (compiler, loop nest, jit) and does not merge summaries: "
                 "--oracles and --merge are for --compiler sched\n";
    set_exit(kBadInput);
    return true;
  }
  for (const auto& a : o.algorithms) {  // each algorithm must be one the bridge builds, with its own schedule
    halide::Options ho;
    ho.final_lowering = false;
    halide::Exported x = halide::lower_via_halide(std::make_shared<SourceFile>(a.name + ".algo", a.text), "", ho);
    if (x.status == halide::Exported::Status::BadInput || x.status == halide::Exported::Status::Rejected) {
      std::cerr << "sched fuzz: --algo " << a.name << ".algo: not an algorithm Halide builds: " << x.message << "\n";
      set_exit(kBadInput);
      return true;
    }
  }
  return false;
#else
  (void)oracles, (void)merge, (void)o;
  std::cerr << "sched fuzz: --compiler halide: this sched was built without Halide 14 (scripts/setup.sh installs it)\n";
  set_exit(kBadInput);
  return true;
#endif
}

#ifdef SCHED_HAVE_HALIDE
void print_halide_case(const fuzz::CampaignOptions& o, long long print_case) {
  fuzz::HalideCase c = fuzz::make_halide_case(halide_options(o, false), static_cast<uint64_t>(print_case));
  std::string ps;
  for (size_t i = 0; i < c.params.size(); ++i) ps += fmt::format(" -p {}={}", c.param_names[i], c.params[i]);
  std::cout << fmt::format("// seed {}, case {}: algorithm {}\n// replay: sched lower ALGO --via halide --jit{} --schedule \"{}\"\n{}", o.seed, c.index,
                           c.algorithm, ps, fuzz::show(c.schedule), c.source);
  for (const auto& st : c.schedule) std::cout << "schedule " << st.text() << ";\n";
  set_exit(c.error.empty() ? kClean : kBadInput);
}

// Runs the campaign and prints its summary; the caller reports write errors and sets the exit code.
nlohmann::json run_halide(const fuzz::CampaignOptions& o, bool json, bool case_timeout_given) {
  auto s = fuzz::run_halide_campaign(halide_options(o, case_timeout_given));
  std::cout << (json ? s.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n" : fuzz::halide_summary_markdown(s));
  return s;
}
#endif

// `--compiler mlir` (mlir/campaign.hpp): its own oracles and cases; the shared options as parsed.
mlir::CampaignOptions mlir_options(const fuzz::CampaignOptions& o, bool case_timeout_given) {
  mlir::CampaignOptions m;
  static_cast<fuzz::CampaignSettings&>(m) = o;
  m.case_timeout_s = case_timeout_given ? o.case_timeout_s : 240.0;
  m.cases_per_process = 1;  // a case reads the findings seen before it started (as Halide's campaign)
  m.reduce_seconds = std::min(m.reduce_seconds, m.case_timeout_s * 0.4);
  return m;
}

// Bad input for --compiler mlir (exit 2 set): options of the other compilers, or no MLIR.
bool mlir_refuses(const std::string& oracles, const std::vector<std::string>& merge, const fuzz::CampaignOptions& o) {
  std::string why;
  if (!oracles.empty() || !merge.empty() || !o.algorithms.empty())
    why = "--compiler mlir runs its own oracles (mlir-opt, pass, import) on its own programs: --oracles, --merge and --algo are for --compiler sched";
  else if (!mlir::available(mlir::CampaignOptions(), why))
    why = "--compiler mlir: " + why;
  else
    return false;
  std::cerr << "sched fuzz: " << why << "\n";
  set_exit(kBadInput);
  return true;
}

// --sarif and --junit: one SARIF result per case with findings (at its reproducer under --out),
// one JUnit test case per case (sorted by index: the order does not depend on the jobs).
void write_case_reports(std::vector<fuzz::CaseReport>& reports, const fuzz::CampaignOptions& o, const std::string& compiler, const std::string& sarif,
                        const std::string& junit) {
  const bool halide = compiler != "sched";  // a real compiler's campaign: its findings by signature
  std::sort(reports.begin(), reports.end(), [](const fuzz::CaseReport& a, const fuzz::CaseReport& b) { return a.index < b.index; });
  std::vector<Finding> findings;
  std::vector<TestCase> cases;
  std::string suite = fmt::format("fuzz --compiler {} --seed {}", compiler, o.seed);
  for (const auto& r : reports) {
    std::string file = r.file.empty() || o.out_dir.empty() ? "" : (std::filesystem::path(o.out_dir) / r.file).string();
    TestCase t{fmt::format("case {}: {}", r.index, r.name), "fuzz." + compiler, r.seconds, "", r.inconclusive, ""};
    for (const auto& f : r.findings) {
      t.failure += (t.failure.empty() ? "" : "\n") + f;
      findings.push_back({halide ? compiler + "-finding" : "disagreement", "error", fmt::format("case {} ({}): {}", r.index, r.name, f), file, 0, 0, {}});
    }
    if (!file.empty()) t.output = "reproducer: " + file;
    cases.push_back(std::move(t));
  }
  std::string err;
  if (!sarif.empty() && !write_file_atomically(sarif, sarif_text("fuzz", findings), err)) {
    std::cerr << "sched fuzz: --sarif: " << err << "\n";
    set_exit(kBadInput);
  }
  if (!junit.empty() && !write_file_atomically(junit, junit_xml(suite, cases), err)) {
    std::cerr << "sched fuzz: --junit: " << err << "\n";
    set_exit(kBadInput);
  }
}

// The command's options, as parsed.
struct FuzzArgs {
  fuzz::CampaignOptions o;
  std::string time_s, shard = "0/1", oracles;
  bool json = false, quiet = false;
  std::vector<std::string> merge;
  long long print_case = -1;
  std::string compiler = "sched";
  std::vector<std::string> algo_files;
  std::string sarif, junit, html;
  std::vector<fuzz::CaseReport> reports;
  CLI::Option* case_timeout = nullptr;  // given: it holds as given for --compiler halide
  bool halide() const { return compiler == "halide"; }
  bool mlir() const { return compiler == "mlir"; }
};

// --algo files: each must parse (bad input is known at once); false with exit 2 set.
bool read_algorithms(FuzzArgs& a) {
  for (const auto& f : a.algo_files) {
    std::string why;
    auto src = SourceFile::load(f, &why);
    if (!src) {
      std::cerr << "sched fuzz: --algo: " << why << "\n";
      set_exit(kBadInput);
      return false;
    }
    Diagnostics d(src);
    if (!algo::parse_algorithm(src, d)) {
      std::cerr << d.render();
      set_exit(kBadInput);
      return false;
    }
    a.o.algorithms.push_back({std::filesystem::path(f).stem().string(), src->text});
  }
  return true;
}

// --merge: the shards' summaries as one (runs nothing); a missing shard makes it inconclusive.
void merge_shards(FuzzArgs& a) {
  std::vector<nlohmann::json> parts;
  for (auto& f : a.merge) {
    std::error_code ec;
    if (std::filesystem::is_directory(f, ec)) f = (std::filesystem::path(f) / "summary.json").string();  // a shard's --out
    std::string text, err;
    if (!read_input_file(f, uint64_t{1} << 30, text, err)) {
      std::cerr << "sched fuzz: --merge: " << err << "\n";
      return set_exit(kBadInput);
    }
    nlohmann::json j;
    if (!report::parse_json_input(text, j, err) || !j.is_object()) {
      std::cerr << "sched fuzz: " << f << ": not a summary.json" << (err.empty() ? "" : " (" + err + ")") << "\n";
      return set_exit(kBadInput);
    }
    parts.push_back(j);
  }
  std::string refusal = fuzz::merge_refusal(parts, a.merge);
  if (!refusal.empty()) {
    std::cerr << "sched fuzz: --merge: " << refusal << "\n";
    return set_exit(kBadInput);
  }
  nlohmann::json m;
  std::string text, page, err, dir = std::filesystem::path(a.html).parent_path().string();
  try {  // a field of the wrong type deeper than merge_refusal looks is bad input, never an internal error
    m = fuzz::merge_summaries(parts);
    text = a.json ? m.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n" : fuzz::summary_markdown(m);
    if (!a.html.empty()) page = report::campaign_page(m, "", dir.empty() ? "." : dir);
  } catch (const nlohmann::json::exception& e) {
    std::cerr << "sched fuzz: --merge: a field of the wrong type in a summary (" << json_error_text(e) << ")\n";
    return set_exit(kBadInput);
  }
  if (!a.html.empty() && !write_file_atomically(a.html, page, err)) {
    std::cerr << "sched fuzz: --html: " << err << "\n";
    return set_exit(kBadInput);
  }
  std::cout << text;
  int code = m.value("findings", nlohmann::json::array()).empty() ? kClean : kFinding;
  const auto& missing = m["missing_shards"];
  if (!missing.empty()) {  // an incomplete campaign: what it found stands, the rest is unknown
    std::vector<std::string> names;
    for (const auto& x : missing) names.push_back(x.get<std::string>());
    std::cerr << fmt::format("sched fuzz: --merge: {} shard(s) missing ({}): the summary covers {} of {}\n", names.size(),
                             fmt::format("{}", fmt::join(names, ", ")), parts.size(), parts.size() + names.size());
    code = driver::worse(code, kInconclusive);
  }
  set_exit(code);
}

// --print-case of the built-in campaign: the case's program, parameters and how it was made.
void print_case(const fuzz::CampaignOptions& o, long long index) {
  fuzz::Case c = fuzz::make_case(o.seed, static_cast<uint64_t>(index), o.algorithms);
  std::string ps;
  for (size_t i = 0; i < c.params.size(); ++i) ps += fmt::format(" -p {}={}", c.param_names[i], c.params[i]);
  std::cout << fmt::format("// seed {}, case {}: {}{}\n", o.seed, c.index, c.kind, c.cls.empty() ? "" : " " + c.cls);
  if (!c.schedule.empty()) std::cout << fmt::format("// algorithm {}, schedule: {}\n", c.algorithm, c.schedule);
  if (!c.where.empty()) std::cout << "// mutation: " << c.where << "\n";
  std::cout << "// parameters:" << ps << "\n" << c.text;
  if (!c.error.empty()) std::cerr << c.error << "\n";
  set_exit(c.error.empty() ? kClean : kFinding);
}

// --shard, --time and --oracles into the campaign's options; false with exit 2 set.
bool read_campaign_options(FuzzArgs& a) {
  fuzz::CampaignOptions& o = a.o;
  auto part = option_text::shard(a.shard);
  if (!part) {
    std::cerr << fmt::format("sched fuzz: --shard wants {}, got '{}'\n", option_text::kExpectedShard, a.shard);
    set_exit(kBadInput);
    return false;
  }
  o.shard = static_cast<int>(part->index);
  o.shards = static_cast<int>(part->count);
  if (!a.time_s.empty()) {
    auto d = option_text::duration(a.time_s);
    if (!d) {
      std::cerr << fmt::format("sched fuzz: --time wants {}, got '{}'\n", option_text::kExpectedDuration, a.time_s);
      set_exit(kBadInput);
      return false;
    }
    o.seconds = *d;
  }
  if (o.seconds <= 0 && o.cases == 0) o.seconds = 60;
  if (!a.oracles.empty()) {
    o.oracles.enabled.clear();
    size_t pos = 0;
    while (pos <= a.oracles.size()) {
      size_t c = a.oracles.find(',', pos);
      std::string n = a.oracles.substr(pos, c == std::string::npos ? std::string::npos : c - pos);
      if (!driver::find_oracle(n)) {
        std::cerr << "sched fuzz: unknown oracle '" << n << "' (" << driver::oracle_list() << ")\n";
        set_exit(kBadInput);
        return false;
      }
      o.oracles.enabled.push_back(n);
      if (c == std::string::npos) break;
      pos = c + 1;
    }
  }
  o.progress = !a.quiet;
  return true;
}

// Before the campaign, so that a bad path is known at once: --out made and locked (one campaign
// at a time per directory, for this process's life), the reports' directories writable.
bool prepare_outputs(const FuzzArgs& a) {
  const std::string& out = a.o.out_dir;
  if (!out.empty()) {
    std::string why;
    if (!make_output_dir(out, why)) {
      std::cerr << "sched fuzz: --out: " << why << "\n";
      set_exit(kBadInput);
      return false;
    }
    std::string lock_path = (std::filesystem::path(out) / ".lock").string();
    int lock = open(lock_path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (lock < 0 || flock(lock, LOCK_EX | LOCK_NB) != 0) {
      std::cerr << "sched fuzz: --out: " << out << " is in use by another campaign running now (" << lock_path
                << " is locked); choose another directory\n";
      if (lock >= 0) close(lock);
      set_exit(kBadInput);
      return false;
    }
  }
  for (const auto& [opt, path] : {std::pair<const char*, const std::string*>{"--sarif", &a.sarif}, {"--junit", &a.junit}, {"--html", &a.html}}) {
    std::filesystem::path dir = std::filesystem::path(*path).parent_path();
    if (dir.empty()) dir = ".";
    std::error_code ec;
    if (!path->empty() && (!std::filesystem::is_directory(dir, ec) || access(dir.c_str(), W_OK) != 0 || std::filesystem::is_directory(*path, ec))) {
      std::cerr << "sched fuzz: " << opt << ": cannot write " << *path << " (its directory does not exist or is not writable, or it is a directory)\n";
      set_exit(kBadInput);
      return false;
    }
  }
  return true;
}

// The campaign of either compiler, its summary printed, its reports written, its exit code set.
void run_fuzz_campaign(FuzzArgs& a) {
  const fuzz::CampaignOptions& o = a.o;
  const bool halide = a.halide() || a.mlir();  // a campaign of a real compiler: findings by signature
  nlohmann::json s;
  if (a.mlir()) {
    s = mlir::run_campaign(mlir_options(o, a.case_timeout->count() > 0));
    std::cout << (a.json ? s.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n" : mlir::summary_markdown(s));
  }
#ifdef SCHED_HAVE_HALIDE
  if (a.halide()) s = run_halide(o, a.json, a.case_timeout->count() > 0);
#endif
  if (!halide) {
    s = fuzz::run_campaign(o);
    std::cout << (a.json ? s.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n" : fuzz::summary_markdown(s));
  }
  const auto& failed = s["write_errors"];
  for (const auto& w : failed) std::cerr << "sched fuzz: not written: " << w.get<std::string>() << "\n";
  if (!o.out_dir.empty() && !a.json && failed.empty())
    std::cout << "\nwritten: " << o.out_dir << "/summary.json, " << o.out_dir << "/summary.md\n";
  bool interrupted = s.contains("interrupted");
  if (interrupted) std::cerr << "sched fuzz: interrupted: the summary counts the finished cases only\n";
  // a Halide campaign counts its findings and lists them by signature
  bool found = halide ? !fuzz::member(s, "signatures", true).empty() : !fuzz::member(s, "findings", true).empty();
  set_exit(found ? kFinding : interrupted ? kInconclusive : kClean);
  if (!failed.empty()) set_exit(kBadInput);
  write_case_reports(a.reports, o, a.compiler, a.sarif, a.junit);
  if (!a.html.empty() && !halide) {
    std::string err, dir = std::filesystem::path(a.html).parent_path().string();
    if (!write_file_atomically(a.html, report::campaign_page(s, o.out_dir, dir.empty() ? "." : dir), err)) {
      std::cerr << "sched fuzz: --html: " << err << "\n";
      set_exit(kBadInput);
    }
  }
}

void run_fuzz(FuzzArgs& a) {
  if (!read_algorithms(a)) return;
  if (!a.halide() && !a.o.autoscheduler.empty()) {
    std::cerr << "sched fuzz: --autoscheduler needs --compiler halide\n";
    set_exit(kBadInput);
    return;
  }
  if (a.halide() && halide_refuses(a.oracles, a.merge, a.o)) return;
  if (a.mlir() && mlir_refuses(a.oracles, a.merge, a.o)) return;
  if (a.mlir() && a.print_case >= 0) {
    mlir::Case c = mlir::generate_case(a.o.seed, static_cast<uint64_t>(a.print_case));
    std::cout << c.text() << fmt::format("// passes: {}\n// check: sched mlir case.mlir -- {}\n", fmt::join(c.passes, " "), fmt::join(c.passes, " "));
    return;
  }
  if (!a.merge.empty()) return merge_shards(a);
#ifdef SCHED_HAVE_HALIDE
  if (a.halide() && a.print_case >= 0) return print_halide_case(a.o, a.print_case);
#endif
  if (a.print_case >= 0) return print_case(a.o, a.print_case);
  if (!read_campaign_options(a) || !prepare_outputs(a)) return;
  if (!a.sarif.empty() || !a.junit.empty()) a.o.on_case = [&a](const fuzz::CaseReport& r) { a.reports.push_back(r); };
  run_fuzz_campaign(a);
}

}  // namespace

void register_fuzz(CLI::App& app) {
  static FuzzArgs a;
  fuzz::CampaignOptions& o = a.o;
  o.out_dir = "fuzz-out";
  o.jobs = std::max(1u, std::thread::hardware_concurrency());
  auto* cmd = app.add_subcommand("fuzz", "Differential campaign: random legal schedules of built-in algorithms (expected correct), schedules "
                                         "and program mutations with a known defect (expected flagged), random programs; every oracle on each "
                                         "case, disagreements reduced and saved, a summary with throughput and the mutation score");
  cmd->add_option("--compiler", a.compiler,
                  "the compiler whose schedules are fuzzed: sched (our scheduler; every oracle and injected defects) or halide "
                  "(Halide 14 through the bridge: random schedules in Halide's whole vocabulary, checked by the compiler, loop-nest "
                  "and JIT oracles; docs/halide.md) or mlir (random affine programs through random pipelines of MLIR 19's affine passes, each pass "
                  "checked by sched equiv and MLIR's own execution; docs/mlir.md)")
      ->check(CLI::IsMember({"sched", "halide", "mlir"}))
      ->capture_default_str();
  cmd->add_option("--algo", a.algo_files, "an algorithm file (.algo) to draw schedules for instead of the built-in algorithms (repeatable)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--autoscheduler", o.autoscheduler,
                  "with --compiler halide: each case scheduled by this Halide autoscheduler, with random machine parameters and estimates "
                  "(docs/halide.md), instead of a random schedule")
      ->check(CLI::IsMember({"Adams2019", "Li2018", "Mullapudi2016"}));
  cmd->add_option("--time", a.time_s, "stop starting cases after this long (90, 90s, 10m, 1h)");
  cmd->add_option("--cases", o.cases, "number of case indices (of this shard's seed range 0..N-1)")->check(whole_number(1, 1'000'000'000));
  cmd->add_option("--seed", o.seed, "campaign seed: case i of seed S is always the same program")->capture_default_str()->check(whole_number(0, UINT64_MAX));
  cmd->add_option("--jobs,-j", o.jobs, "cases run side by side (one process each)")->capture_default_str()->check(whole_number(1, 256));
  cmd->add_option("--cases-per-process", o.cases_per_process,
                  "cases a process runs in turn before a fresh one starts (1: a process a case; with --compiler halide or mlir always 1)")
      ->capture_default_str()
      ->check(whole_number(1, 1'000'000));
  cmd->add_option("--shard", a.shard, "run the indices i = I mod N only (I/N), to split a campaign across machines")->capture_default_str();
  cmd->add_option("--oracles", a.oracles, fmt::format("comma-separated oracles of: {} (default: {})", driver::oracle_list(), fmt::join(driver::default_oracles(driver::Use::Fuzz), ",")));
  cmd->add_option("--native-every", o.native_every, "run the native oracle (a C++ compile) on every n-th case; 0: never")->capture_default_str()->check(whole_number(0, 1'000'000'000));
  cmd->add_option("--verify-timeout", o.oracles.budget.verify_timeout_s, "seconds for the verifier on one case")
      ->check(positive_seconds())
      ->capture_default_str();
  a.case_timeout = cmd->add_option("--case-timeout", o.case_timeout_s, "seconds before a case's process is killed (counted inconclusive; "
                                         "with --compiler halide the default is 300)")
      ->check(positive_seconds())
      ->capture_default_str();
  cmd->add_option("--reduce-time", o.reduce_seconds, "seconds to reduce a finding (delta debugging); 0: keep it whole")
      ->check(non_negative_seconds())
      ->capture_default_str();
  cmd->add_option("--out", o.out_dir, "directory for findings, undetected examples, summary.json and summary.md ('' for none)")->capture_default_str();
  cmd->add_option("--merge", a.merge, "merge the summary.json files of shards (or their --out directories) into one summary (runs nothing)");
  cmd->add_option("--print-case", a.print_case, "print case I of --seed (its program and parameters) and exit")->check(whole_number(0, static_cast<uint64_t>(INT64_MAX)));
  cmd->add_option("--html", a.html, "also write the summary as a self-contained HTML page (pace, findings per oracle, mutation score, reproducers)");
  cmd->add_option("--sarif", a.sarif, "also write every finding as a SARIF 2.1.0 log to this file (its location: the reproducer under --out)");
  cmd->add_option("--junit", a.junit, "also write a JUnit XML report to this file, one test case per case");
  cmd->add_flag("--json", a.json, "print the summary as JSON instead of Markdown");
  cmd->add_flag("--quiet", a.quiet, "no progress line");
  cmd->footer("Exit codes: 0 no disagreement, 1 findings (disagreements, crashes), 2 bad input.\n"
              "Rules and defect classes: docs/fuzzing.md.");
  cmd->callback([] { run_fuzz(a); });
}

}  // namespace sched::cli
