// Random schedules of the built-in algorithms (schedules.hpp).
#include "fuzz/schedules.hpp"

#include "scheduler/lower.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <stdexcept>

namespace sched::fuzz {

const std::vector<BuiltinAlgorithm>& builtin_algorithms() {
  static const std::vector<BuiltinAlgorithm> algos = {
      {"sgemm", R"(param N, M, K;
assume N >= 1 && M >= 1 && K >= 1;
input A(i, k) : f32[N, K];
input B(k, j) : f32[K, M];
func C(j, i) : f32 = 0;
C(j, i) = C(j, i) + A(i, r) * B(r, j) for r = 0 to K;
output C : [M, N];
)"},
      {"blur", R"(param W, H;
assume W >= 1 && H >= 1;
input In(x, y) : f32[W + 2, H + 2];
func BlurX(x, y) : f32 = (In(x, y) + In(x + 1, y) + In(x + 2, y)) / 3;
func BlurY(x, y) : f32 = (BlurX(x, y) + BlurX(x, y + 1) + BlurX(x, y + 2)) / 3;
output BlurY : [W, H];
)"},
      {"rownorm", R"(param N, M;
assume N >= 1 && M >= 1;
input A(x, y) : f32[N, M];
func S(y) : f32 = 0;
S(y) = S(y) + A(r, y) * A(r, y) for r = 0 to N;
func T(x, y) : f32 = A(x, y) - S(y);
output T : [N, M];
)"},
      {"sdot", R"(param N;
assume N >= 1;
input X(i) : f32[N];
input Y(i) : f32[N];
func D() : f32 = 0;
D() = D() + X(r) * Y(r) for r = 0 to N;
output D : [];
)"},
      {"conv", R"(param W, CI, CO;
assume W >= 1 && CI >= 1 && CO >= 1;
input X(x, c) : f32[W + 2, CI];
input Wt(c, o, k) : f32[CI, CO, 3];
func Conv(x, o) : f32 = 0;
Conv(x, o) = Conv(x, o) + Wt(rc, o, rx) * X(x + rx, rc) for rx = 0 to 3, rc = 0 to CI;
func Relu(x, o) : f32 = max(Conv(x, o), 0);
output Relu : [W, CO];
)"},
  };
  return algos;
}

const BuiltinAlgorithm* find_builtin(const std::string& name) {
  for (const auto& a : builtin_algorithms())
    if (a.name == name) return &a;
  return nullptr;
}

bool lower_case(const ScheduledCase& c, std::string& out, std::string& errors) {
  const BuiltinAlgorithm* a = find_builtin(c.algorithm);
  if (!a) {
    errors = "no built-in algorithm " + c.algorithm;
    return false;
  }
  return algo::lower_source(std::make_shared<SourceFile>(c.algorithm + ".algo", a->text), c.schedule, out, errors);
}

namespace {

struct StageVars {
  std::string func;
  int stage = 0;
  std::vector<std::string> pure, rvars;
};

// The stages of each built-in algorithm, in definition order.
std::vector<StageVars> stages_of(const std::string& algo) {
  if (algo == "sgemm") return {{"C", 0, {"j", "i"}, {}}, {"C", 1, {"j", "i"}, {"r"}}};
  if (algo == "blur") return {{"BlurX", 0, {"x", "y"}, {}}, {"BlurY", 0, {"x", "y"}, {}}};
  if (algo == "rownorm") return {{"S", 0, {"y"}, {}}, {"S", 1, {"y"}, {"r"}}, {"T", 0, {"x", "y"}, {}}};
  if (algo == "sdot") return {{"D", 0, {}, {}}, {"D", 1, {}, {"r"}}};
  return {{"Conv", 0, {"x", "o"}, {}}, {"Conv", 1, {"x", "o"}, {"rx", "rc"}}, {"Relu", 0, {"x", "o"}, {}}};
}

std::string head(const StageVars& st) { return st.stage ? fmt::format("{}.update({})", st.func, st.stage - 1) : st.func; }

struct StageOptions {
  bool split_rvars = true;
  bool reorder = true;
  bool parallel = true;
};

// Random legal directives for one stage; `loops` receives the stage's loop names at the end.
std::string stage_directives(const Pick& pick, const StageVars& st, ScheduledCase& c, std::vector<std::string>& loops, const StageOptions& opt = {}) {
  std::vector<std::string> vars = st.pure, rvars = st.rvars, constant;
  std::string d;
  int n = pick(0, 5);
  for (int k = 0; k < n; ++k) {
    int kind = pick(0, 7);
    if (vars.empty() && kind != 5) continue;
    std::string v = vars.empty() ? "" : vars[static_cast<size_t>(pick(0, static_cast<int>(vars.size())))];
    std::string sfx = std::to_string(k);
    if (kind == 0) {  // split
      std::string o = v + "o" + sfx, i = v + "i" + sfx;
      d += fmt::format(".split({}, {}, {}, {})", v, o, i, pick(2, 5));
      std::replace(vars.begin(), vars.end(), v, i);
      vars.push_back(o);
      constant.push_back(i);
    } else if (kind == 1 && vars.size() >= 2 && opt.reorder) {  // reorder the pure variables
      std::vector<std::string> perm = vars;
      std::rotate(perm.begin(), perm.begin() + pick(0, static_cast<int>(perm.size())), perm.end());
      if (pick(0, 2)) std::swap(perm.front(), perm.back());
      std::string list;
      for (const auto& x : perm) list += (list.empty() ? "" : ", ") + x;
      d += fmt::format(".reorder({})", list);
    } else if (kind == 2 && opt.parallel) {
      d += fmt::format(".parallel({})", v);
      ++c.parallel;
    } else if (kind == 3 || kind == 4) {  // vectorize or unroll with a factor
      std::string o = v + "_o", i = v + "_i";
      if (std::find(vars.begin(), vars.end(), i) != vars.end() || std::find(vars.begin(), vars.end(), o) != vars.end()) continue;
      d += fmt::format(".{}({}, {})", kind == 3 ? "vectorize" : "unroll", v, pick(2, 5));
      std::replace(vars.begin(), vars.end(), v, i);
      vars.push_back(o);
    } else if (kind == 5 && !rvars.empty() && opt.split_rvars) {  // split a reduction variable: its order is kept
      std::string r = rvars[static_cast<size_t>(pick(0, static_cast<int>(rvars.size())))];
      std::string o = r + "o" + sfx, i = r + "i" + sfx;
      d += fmt::format(".split({}, {}, {}, {})", r, o, i, pick(2, 4));
      auto at = std::find(rvars.begin(), rvars.end(), r);
      *at = i;
      rvars.insert(at + 1, o);
    } else if (kind == 6 && vars.size() >= 2) {  // fuse a constant inner loop with another pure loop
      std::vector<std::string> inner;
      for (const auto& x : constant)
        if (std::find(vars.begin(), vars.end(), x) != vars.end()) inner.push_back(x);
      if (inner.empty()) continue;
      std::string i = inner[static_cast<size_t>(pick(0, static_cast<int>(inner.size())))];
      std::string w;
      for (const auto& x : vars)
        if (x != i && w.empty() && pick(0, 2)) w = x;
      if (w.empty()) continue;
      std::string f = "f" + sfx;
      d += fmt::format(".fuse({}, {}, {})", i, w, f);
      vars.erase(std::find(vars.begin(), vars.end(), i));
      std::replace(vars.begin(), vars.end(), w, f);
    }
  }
  loops = vars;
  loops.insert(loops.end(), rvars.begin(), rvars.end());
  c.directives += static_cast<int>(std::count(d.begin(), d.end(), '.'));
  return d.empty() ? "" : head(st) + d + "; ";
}

// Blur with a rolling buffer: BlurX stored above the row loop, computed at it, folded by `fold`.
std::string folded_blur(const Pick& pick, ScheduledCase& c, int fold, bool parallel_rows_inside_storage) {
  std::string s;
  StageVars bx{"BlurX", 0, {"x", "y"}, {}};
  std::vector<std::string> loops;
  bool strips = pick(0, 2);
  std::string vec = pick(0, 2) ? fmt::format(".vectorize(x, {})", pick(2, 5)) : "";
  if (strips) {
    s += fmt::format("BlurY.split(y, yo, yi, {}){}{}; ", pick(2, 9), pick(0, 2) ? ".parallel(yo)" : "", vec);
    if (parallel_rows_inside_storage) s += "BlurY.parallel(yi); ";
    s += fmt::format("BlurX.store_at(BlurY, yo).compute_at(BlurY, yi).fold_storage(y, {}); ", fold);
  } else {
    s += fmt::format("BlurY{}{}; ", parallel_rows_inside_storage ? ".parallel(y)" : "", vec.empty() ? ".vectorize(x, 2)" : vec);
    s += fmt::format("BlurX.store_root().compute_at(BlurY, y).fold_storage(y, {}); ", fold);
  }
  StageOptions opt;
  opt.reorder = false;  // BlurX's rows stay its outer loop
  std::string own = stage_directives(pick, StageVars{"BlurX", 0, {"x"}, {}}, c, loops, opt);
  c.directives += 4;
  c.compute_at = c.folded = true;
  return s + own;
}

}  // namespace

ScheduledCase random_legal_schedule(const Pick& pick, int algorithm) {
  const auto& algos = builtin_algorithms();
  ScheduledCase c;
  int which = algorithm >= 0 ? algorithm : pick(0, static_cast<int>(algos.size()));
  c.algorithm = algos[static_cast<size_t>(which)].name;
  auto stages = stages_of(c.algorithm);
  if (c.algorithm == "blur" && pick(0, 3) == 0) {
    c.schedule = folded_blur(pick, c, pick(3, 7), false);
    return c;
  }
  // producers: inline (blur's default), at root, or inside a consumer's loop
  std::string producer = c.algorithm == "blur" ? "BlurX" : c.algorithm == "rownorm" ? "S" : c.algorithm == "conv" ? "Conv" : "";
  std::string consumer = c.algorithm == "blur" ? "BlurY" : c.algorithm == "rownorm" ? "T" : c.algorithm == "conv" ? "Relu" : "";
  int where = producer.empty() ? 0 : pick(0, 3);  // 0: default, 1: root, 2: compute_at
  if (c.algorithm == "blur" && where == 0) stages.erase(stages.begin());  // inlined: no stage of its own
  std::map<std::string, std::vector<std::string>> loops;
  std::string consumer_part;
  for (auto it = stages.rbegin(); it != stages.rend(); ++it) {  // consumers first: compute_at names their loops
    std::vector<std::string> l;
    std::string d = stage_directives(pick, *it, c, l);
    loops[head(*it)] = l;
    consumer_part = d + consumer_part;
  }
  c.schedule = consumer_part;
  if (where == 1) c.schedule += producer + ".compute_root(); ";
  if (where == 2) {
    const auto& l = loops.at(consumer);
    if (l.empty()) return c;
    c.schedule += fmt::format("{}.compute_at({}, {}); ", producer, consumer, l[static_cast<size_t>(pick(0, static_cast<int>(l.size())))]);
    c.compute_at = true;
  }
  c.directives += where ? 1 : 0;
  return c;
}

const std::vector<ScheduleDefect>& schedule_defects() {
  static const std::vector<ScheduleDefect> d = {
      {"parallel-rvar", "race"},
      {"store-outside-par", "race"},
      {"shift-inwards-update", "value"},
      {"fold-too-small", "value"},
      {"roundup-output", "out-of-bounds"},
  };
  return d;
}

ScheduledCase defective_schedule(const Pick& pick, const std::string& cls) {
  ScheduledCase c;
  if (cls == "parallel-rvar") {
    const char* with_updates[] = {"sgemm", "rownorm", "sdot", "conv"};
    c.algorithm = with_updates[pick(0, 4)];
    for (const auto& st : stages_of(c.algorithm)) {
      std::vector<std::string> l;
      StageOptions opt;
      opt.split_rvars = st.rvars.empty();
      std::string d = stage_directives(pick, st, c, l, opt);
      if (!st.rvars.empty()) {
        std::string r = st.rvars[static_cast<size_t>(pick(0, static_cast<int>(st.rvars.size())))];
        d += fmt::format("{}.parallel({}); ", head(st), r);
      }
      c.schedule += d;
    }
  } else if (cls == "store-outside-par") {
    c.algorithm = "blur";
    c.schedule = folded_blur(pick, c, pick(3, 7), true);
  } else if (cls == "shift-inwards-update") {
    c.algorithm = "sgemm";
    c.schedule = fmt::format("C.update(0).split({}, vo, vi, {}, ShiftInwards); ", pick(0, 2) ? "j" : "i", pick(2, 5));
  } else if (cls == "fold-too-small") {
    c.algorithm = "blur";
    c.schedule = folded_blur(pick, c, pick(1, 3), false);
  } else if (cls == "roundup-output") {
    c.algorithm = pick(0, 2) ? "sgemm" : "blur";
    std::string f = c.algorithm == "sgemm" ? "C" : "BlurY";
    std::string v = c.algorithm == "sgemm" ? (pick(0, 2) ? "j" : "i") : (pick(0, 2) ? "x" : "y");
    c.schedule = fmt::format("{}.split({}, vo, vi, {}, RoundUp); ", f, v, pick(2, 5));
  } else {
    throw std::invalid_argument("no schedule defect class " + cls);
  }
  return c;
}

}  // namespace sched::fuzz
