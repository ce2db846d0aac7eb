// Case generation and reduction of a fuzz campaign (campaign.hpp); the process pool and the
// summary are in campaign_run.cpp.
#include "fuzz/campaign.hpp"
#include "fuzz/gen_reduce.hpp"

#include <fmt/format.h>

#include <chrono>
#include <random>

#include "fuzz/algo_schedules.hpp"
#include "fuzz/findings.hpp"
#include "fuzz/gen.hpp"
#include "fuzz/mutate.hpp"
#include "fuzz/schedules.hpp"
#include "interpreter/load.hpp"
#include "interpreter/printer.hpp"
#include "interpreter/visit.hpp"
#include "scheduler/lower.hpp"

namespace sched::fuzz {

namespace {

bool lower_into(Case& c, const ScheduledCase& s) {
  c.algorithm = s.algorithm;
  c.schedule = s.schedule;
  std::string errors;
  ScheduledCase none = s;
  none.schedule.clear();
  if (lower_case(s, c.text, errors) && lower_case(none, c.unscheduled, errors)) return true;
  c.error = "lowering failed: " + errors;
  return false;
}

void choose_params(Case& c, std::mt19937_64& rng, int hi) {
  Loaded l = load_text(c.text, "case.sched", false);
  if (!l.program) return;
  for (const auto& p : l.program->params) {
    c.param_names.push_back(p.name);
    c.params.push_back(std::uniform_int_distribution<int64_t>(1, hi)(rng));
  }
}

}  // namespace

namespace {

// A case of the user's algorithms: a random schedule in our scheduler's vocabulary, lowered
// (kind legal), or a mutation of one (kind mutation).
Case user_case(Case c, std::mt19937_64& rng, const Pick& pick, const std::vector<BuiltinAlgorithm>& algorithms) {
  const BuiltinAlgorithm& b = algorithms[static_cast<size_t>(pick(0, static_cast<int>(algorithms.size())))];
  auto src = std::make_shared<SourceFile>(b.name + ".algo", b.text);
  Diagnostics d(src);
  auto a = algo::parse_algorithm(src, d);
  c.algorithm = b.name;
  if (!a) {
    c.error = d.render();
    return c;
  }
  bool mutation = pick(0, 100) < 40;
  const auto& pd = program_defects();
  size_t k = static_cast<size_t>(pick(0, static_cast<int>(pd.size())));
  for (int attempt = 0; attempt < (mutation ? 20 : 1); ++attempt) {
    c.schedule = show(random_schedule(pick, *a, Vocabulary::Sched));
    std::string text, errors;
    if (!algo::lower_source(src, c.schedule, text, errors)) {
      c.kind = "refused";
      c.where = errors.substr(0, 400);
      return c;
    }
    if (c.unscheduled.empty() && !algo::lower_source(src, "", c.unscheduled, errors)) {  // once, whatever the attempts
      c.error = "lowering without a schedule failed: " + errors;
      return c;
    }
    if (!mutation) {
      c.kind = "legal";
      c.text = text;
      choose_params(c, rng, 7);
      return c;
    }
    auto m = mutate(text, pd[k].cls, pick);
    if (!m) continue;
    c.kind = "mutation";
    c.cls = pd[k].cls;
    c.expect = pd[k].expect;
    c.text = m->text;
    c.where = m->where;
    choose_params(c, rng, 7);
    return c;
  }
  c.kind = "refused";
  c.where = "no applicable place for " + pd[k].cls + " in 20 schedules";
  return c;
}

}  // namespace

Case make_case(uint64_t seed, uint64_t index, const std::vector<BuiltinAlgorithm>& algorithms) {
  Case c;
  c.index = index;
  std::mt19937_64 rng = case_rng(seed, index);
  Pick pick = [&](int lo, int hi) { return pick_from(rng, lo, hi); };
  if (!algorithms.empty()) return user_case(c, rng, pick, algorithms);
  int roll = pick(0, 100);
  if (roll < 10) {
    c.kind = "random";
    GenOptions go;
    go.nonaffine = pick(0, 4) == 0;
    go.racy = pick(0, 3) == 0;
    Generated g = gen_program(go)(rc::Random(rng()), pick(5, 40)).value();
    c.text = print_program(g.program);
    choose_params(c, rng, 5);
    return c;
  }
  if (roll < 16) {
    // a reduction kernel (fuzz/gen_reduce.hpp): its specification holds unless a defect was injected
    ReductionKernel k = gen_reduction_kernel()(rc::Random(rng()), 100).value();
    c.kind = k.defect.empty() ? "reduction" : "reduction-defect";
    c.algorithm = fmt::format("{} {} over {}", k.family, reduction_name(k.op), type_name(k.type));
    if (!k.defect.empty()) {
      c.cls = "reduction-" + k.defect;
      c.expect = k.defect == "atomic-dropped" ? "race (lost update) in reference, fast, explore; refuted by verify"
                 : k.defect == "no-init"      ? "error (accumulation into an undefined cell) in reference, fast; refuted by verify"
                                              : "mismatch in model, reference, fast; refuted by verify";
    }
    c.text = k.text;
    choose_params(c, rng, 9);
    return c;
  }
  if (roll < 45) {
    c.kind = "legal";
    lower_into(c, random_legal_schedule(pick));
    choose_params(c, rng, 7);
    return c;
  }
  const auto& sd = schedule_defects();
  const auto& pd = program_defects();
  size_t k = static_cast<size_t>(pick(0, static_cast<int>(sd.size() + pd.size())));
  if (k < sd.size()) {
    c.kind = "schedule-defect";
    c.cls = sd[k].cls;
    c.expect = sd[k].expect;
    lower_into(c, defective_schedule(pick, c.cls));
    choose_params(c, rng, 7);
    return c;
  }
  c.kind = "mutation";
  c.cls = pd[k - sd.size()].cls;
  c.expect = pd[k - sd.size()].expect;
  // a legal schedule to mutate (compute_at ones for the region class)
  for (int attempt = 0; attempt < 20; ++attempt) {
    ScheduledCase s = random_legal_schedule(pick);
    if (c.cls == "region-too-small" && !s.compute_at) continue;
    Case base;
    if (!lower_into(base, s)) {
      c.error = base.error;
      return c;
    }
    auto m = mutate(base.text, c.cls, pick);
    if (!m) continue;
    c.algorithm = base.algorithm;
    c.schedule = base.schedule;
    c.unscheduled = base.unscheduled;
    c.text = m->text;
    c.where = m->where;
    choose_params(c, rng, 7);
    return c;
  }
  c.error = "no applicable place for " + c.cls + " in 20 schedules";
  return c;
}

namespace {

// Every command slot of the body, pre-order.
void slots(CmdPtr& c, std::vector<CmdPtr*>& out) {
  if (!c) return;
  out.push_back(&c);
  each_child(*c, [](ExprPtr&, Part, bool) {}, [&](CmdPtr& x, Part, bool) { slots(x, out); });
}

// Every expression slot of the body's commands (indices, values, conditions, bounds; not the
// annotations, which name the specification), pre-order.
void expr_slots(ExprPtr& e, std::vector<ExprPtr*>& out) {
  if (!e) return;
  out.push_back(&e);
  each_child(*e, [&](ExprPtr& x, Part, bool) { expr_slots(x, out); });
}
void expr_slots(CmdPtr& c, std::vector<ExprPtr*>& out) {
  if (!c) return;
  each_child(*c, [&](ExprPtr& x, Part p, bool) { if (!is_annotation(p)) expr_slots(x, out); },
             [&](CmdPtr& x, Part, bool) { expr_slots(x, out); });
}

// The body's expression slots, then those of the tensor equations (the specification).
void program_expr_slots(Program& p, std::vector<ExprPtr*>& out) {
  expr_slots(p.body, out);
  for (auto& t : p.tensors)
    for (auto& c : t.cases) {
      expr_slots(c.value, out);
      expr_slots(c.cond, out);
    }
}

// Without comments: the reducer compares and prints programs without them.
void strip_comments(CmdPtr& c) {
  c->comments = {};
  each_child(*c, [](ExprPtr&, Part, bool) {}, [](CmdPtr& x, Part, bool) { strip_comments(x); });
}
void strip_comments(Program& p) {
  for (auto& x : p.params) x.comments = {};
  p.assume_comments.clear();
  p.trailing_comments.clear();
  for (auto& x : p.tensors) x.comments = {};
  for (auto& x : p.arrays) x.comments = {};
  if (p.body) strip_comments(p.body);
}

}  // namespace

namespace {

using Still = std::function<bool(const Case&)>;
using Left = std::function<bool()>;

// One pass over the commands; true when it made the program smaller.
bool reduce_commands(Case& best, const Still& still, const Left& left) {
  bool any = false;
  // commands: delete one (skip), unwrap a loop, let, if or allocate into its body, keep a loop's
  // first iteration only, inline a let's value, keep an if's else branch, drop an annotation
  bool progress = true;
  while (progress && left()) {
    progress = false;
    Loaded l = load_text(best.text, "case.sched", false);
    if (!l.program || !l.program->body) break;
    std::vector<CmdPtr*> s;
    slots(l.program->body, s);
    for (size_t i = 0; i < s.size() && left() && !progress; ++i) {
      for (int how = 0; how < 6 && !progress; ++how) {
        Loaded m = load_text(best.text, "case.sched", false);
        std::vector<CmdPtr*> ms;
        slots(m.program->body, ms);
        CmdPtr& slot = *ms[i];
        if (slot->kind == CmdKind::Skip || (slot->kind == CmdKind::Seq && how == 0)) continue;
        if (how == 0) {
          slot = make_skip(slot->loc);
        } else if (how == 1) {
          if (!slot->body) continue;
          CmdPtr body = std::move(slot->body);
          slot = std::move(body);
        } else if (how == 2) {  // a loop becomes its first iteration
          if (!slot->is_loop()) continue;
          ExprPtr first = slot->lo ? std::move(slot->lo) : make_int(0);
          slot = make_let(slot->name, std::move(first), std::move(slot->body), slot->loc);
        } else if (how == 3) {  // a let's value inlined into its body
          if (slot->kind != CmdKind::Let) continue;
          CmdPtr body = std::move(slot->body);
          substitute(body, slot->name, *slot->value);
          slot = std::move(body);
        } else if (how == 4) {  // an if becomes its else branch
          if (slot->kind != CmdKind::If || !slot->els) continue;
          CmdPtr els = std::move(slot->els);
          slot = std::move(els);
        } else {  // an assignment without its annotation
          if (slot->kind != CmdKind::Assign || !slot->annot) continue;
          slot->annot.reset();
        }
        Case t = best;
        t.text = print_program(*m.program);
        if (t.text.size() >= best.text.size() || load_text(t.text, "case.sched").stage != LoadStage::Ok) continue;
        if (still(t)) {
          best = t;
          progress = any = true;
        }
      }
    }
  }
  return any;
}

// One pass over the tensor declarations: each deleted (when nothing refers to it any more).
bool reduce_tensors(Case& best, const Still& still, const Left& left) {
  bool any = false;
  for (size_t i = 0; left();) {
    Loaded m = load_text(best.text, "case.sched", false);
    if (!m.program || i >= m.program->tensors.size()) break;
    m.program->tensors.erase(m.program->tensors.begin() + static_cast<long>(i));
    Case t = best;
    t.text = print_program(*m.program);
    if (load_text(t.text, "case.sched").stage == LoadStage::Ok && still(t)) {
      best = t;
      any = true;
    } else {
      ++i;
    }
  }
  return any;
}

// One pass over the expressions; true when it made the program smaller.
bool reduce_expressions(Case& best, const Still& still, const Left& left) {
  bool any = false;
  // expressions: one replaced by one of its operands (a smaller program only)
  for (bool more = true; more && left();) {
    more = false;
    Loaded l = load_text(best.text, "case.sched", false);
    if (!l.program || !l.program->body) break;
    std::vector<ExprPtr*> es;
    program_expr_slots(*l.program, es);
    for (size_t i = 0; i < es.size() && left() && !more; ++i) {
      for (size_t k = 0; k < (*es[i])->args.size() && !more; ++k) {
        Loaded m = load_text(best.text, "case.sched", false);
        std::vector<ExprPtr*> ms;
        program_expr_slots(*m.program, ms);
        ExprPtr& slot = *ms[i];
        if (k >= slot->args.size()) continue;
        ExprPtr operand = std::move(slot->args[k]);
        slot = std::move(operand);
        Case t = best;
        t.text = print_program(*m.program);
        if (t.text.size() >= best.text.size() || load_text(t.text, "case.sched").stage != LoadStage::Ok) continue;
        if (still(t)) {
          best = t;
          more = any = true;
        }
      }
    }
  }
  return any;
}

}  // namespace

Case reduce(const Case& c0, const std::function<bool(const Case&)>& still, double seconds) {
  auto t0 = std::chrono::steady_clock::now();
  auto left = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < seconds; };
  Case best = c0;
  {
    Loaded l = load_text(best.text, "case.sched", false);  // printed the way candidates are, without comments
    if (l.program && l.program->body) {
      Case t = best;
      t.text = print_program(*l.program);
      if (still(t)) best = t;
      strip_comments(*l.program);
      t.text = print_program(*l.program);
      if (t.text != best.text && still(t)) best = t;
    }
  }
  // parameters: each towards 1 while the finding stays
  best.params = lower_params(best.params, [&](const std::vector<int64_t>& ps) {
    Case t = best;
    t.params = ps;
    return still(t);
  }, left);
  // then commands, expressions (one replaced by one of its operands, in the body and the
  // specification) and tensor declarations (deleted), while any of them makes the program smaller
  while (left()) {
    bool commands = reduce_commands(best, still, left);
    bool expressions = reduce_expressions(best, still, left);
    bool tensors = reduce_tensors(best, still, left);
    if (!commands && !expressions && !tensors) break;
  }
  return best;
}

}  // namespace sched::fuzz
