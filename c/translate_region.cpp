// The C front end's translator: OpenMP parallel regions (translator.hpp).
//
// A region's threads are a `par` over the thread count: `num_threads(k)`'s k, else the parameter
// `threads` (4 unless -p threads=...). Threads wait for each other at a barrier: an explicit
// `omp barrier`, and the end of an `omp for` or an `omp single` without `nowait`; each stretch
// between two barriers is a phase, its own `par`:
//
//   #pragma omp parallel             par t = 0 to threads - 1 {       (phase 1)
//   { int x = f(omp_get_thread_num());   x[t] := f(t);
//   #pragma omp for                      for i_n = t * c to min(t * c + c, 100) - 1 {  (thread t's chunk)
//     for (i = 0; i < 100; i++) ...        let i = i_n; ...
//                                        }
//                                      }
//     a[x] = 1;                        par t = 0 to threads - 1 { a[x[t]] := 1; }   (phase 2)
//   }
//
// (c = (100 + threads - 1) / threads: the static schedule's chunks, made explicit.) A variable
// declared in a region with more than one phase is one cell per thread, allocated around the
// phases. A loop that holds a barrier runs outside the phases (every thread runs it, and its
// bounds may not depend on the thread). `omp master` is `if t == 0 { ... }`. `omp single` is run
// by a lane of its own, `par t = 0 to threads { if t < threads { ... } else { single } }`: any
// thread may be the one that runs it, so its accesses meet every other thread's.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <regex>

#include "c/translator.hpp"

namespace sched::cfront {

namespace {

std::vector<const json*> statements_of(const json& s) { return kind(s) == "CompoundStmt" ? children(s) : std::vector<const json*>{&s}; }

std::string indented(const std::string& text, int depth) {
  std::string out, pad(static_cast<size_t>(2 * depth), ' ');
  size_t b = 0;
  while (b < text.size()) {
    size_t e = text.find('\n', b);
    if (e == std::string::npos) e = text.size();
    out += pad + text.substr(b, e - b) + "\n";
    b = e + 1;
  }
  return out;
}

}  // namespace

bool Translator::has_barrier(const json& s, int depth) {
  std::string k = kind(s);
  if (k == "OMPBarrierDirective") return true;
  if (k == "OMPForDirective" || k == "OMPForSimdDirective" || k == "OMPSingleDirective" || k == "OMPSectionsDirective")
    if (!pragma_of(s).find("nowait")) return true;
  if (k.rfind("OMPParallel", 0) == 0) return false;  // a nested region's barriers are its own
  if (k == "CallExpr" && depth < 16)
    for (const json* f : functions(tu_, file_.name))
      if (decl_name(*f) == decl_name(strip(child(s, 0))) && has_barrier(*body_of(*f), depth + 1)) return true;
  for (const json* c : children(s))
    if (has_barrier(*c, depth)) return true;
  return false;
}

void Translator::parallel_region(const json& d, const Pragma& p) {
  if (region_ || par_depth_ > 0) refuse(d, "a parallel region inside a parallel loop or region (nested parallelism: not yet taken)");
  Origin at = origin(d);
  Region r;
  std::vector<PrivateCopy> privates;
  std::set<std::string> reductions;
  std::set<std::string> private_ids;
  std::vector<Var> copyin;
  for (const Clause& c : p.clauses) {
    if (c.name == "num_threads") {
      r.count = value_of_clause(d, c);
    } else if (c.name == "private" || c.name == "firstprivate") {
      private_clause(d, c, privates, private_ids);
    } else if (c.name == "reduction") {
      for (const auto& n : c.vars) {
        const Var& v = vars_.at(clause_var(d, n));
        if (v.kind != Var::Kind::Cell) refuse(d, fmt::format("a reduction over '{}', which is not a scalar the region writes", n));
        if (c.op != "+" && c.op != "*") refuse(d, fmt::format("a reduction with '{}' over a region (not yet taken: + and * are)", c.op));
        reductions.insert(v.name);
      }
    } else if (c.name == "copyin") {  // each thread's copy starts with the master's
      for (const auto& n : c.vars) {
        const Var& v = vars_.at(clause_var(d, n));
        if (v.cell != kThreadCell) refuse(d, fmt::format("copyin({}) of a variable that is not threadprivate", n));
        copyin.push_back(v);
      }
    } else if (c.name != "shared" && c.name != "default" && c.name != "proc_bind") {
      refuse(d, fmt::format("the clause '{}' of a parallel region (not yet taken)", c.name));
    }
  }
  if (r.count.empty()) r.count = set_threads_.empty() ? threads_param(at) : set_threads_;
  const json& body = associated(d);
  r.thread = fresh("t");
  r.at = at;
  r.phased = has_barrier(body, 0);
  std::function<bool(const json&)> has_single = [&](const json& n) {
    if (kind(n) == "OMPSingleDirective") return true;
    for (const json* c : children(n))
      if (has_single(*c)) return true;
    return false;
  };
  r.cells = has_single(body) ? fmt::format("{} + 1", r.count) : r.count;  // the single's lane has a cell too
  excluded_by_.clear();  // a new parallel construct
  r.depth = ++par_depth_;
  region_ = r;
  auto saved_reductions = reductions_;
  auto saved_private = private_;
  reductions_.insert(reductions.begin(), reductions.end());
  private_.insert(private_ids.begin(), private_ids.end());
  int opened = 0;
  std::vector<std::pair<std::string, Var>> renamed;
  if (r.phased) opened += hoist(statements_of(body), at);
  for (const PrivateCopy& q : privates) {  // a copy per thread
    Var& shared = vars_.at(q.id);
    renamed.emplace_back(q.id, shared);
    Var mine = shared;
    mine.name = fresh(shared.name + "_private");
    mine.par_depth = par_depth_;
    if (r.phased) {
      mine.cell = r.thread;
      body_.open(fmt::format("allocate {} : {}[{}] {{", mine.name, mine.type, r.cells), at);
      ++opened;
      if (q.first) region_->firstprivate.emplace_back(cell_ref(mine), cell_ref(shared));
    } else {
      mine.cell.clear();
      region_->thread_allocations.emplace_back(mine.name, mine.type);
      if (q.first) region_->firstprivate.emplace_back(cell_ref(mine), cell_ref(shared));
    }
    shared = mine;
  }
  if (!copyin.empty()) {  // copyin: a phase of its own, before the region's statements
    body_.open(fmt::format("par {} = 0 to {} - 1 {{", r.thread, r.count), at);
    body_.open(fmt::format("if {} > 0 {{", r.thread), at);
    for (const Var& v : copyin) body_.line(fmt::format("{} := {}[0];", cell_ref(v), v.name), at);
    body_.close();
    body_.close();
  }
  if (r.phased && !region_->firstprivate.empty()) {  // the copies, before the region's first phase
    open_phase({}, 0, at);
    close_phase();
  }
  phases(statements_of(body), at);
  close_phase();
  for (auto it = renamed.rbegin(); it != renamed.rend(); ++it) vars_.at(it->first) = it->second;
  for (; opened > 0; --opened) body_.close();
  reductions_ = saved_reductions;
  private_ = saved_private;
  region_.reset();
  --par_depth_;
}

std::string Translator::value_of_clause(const json& d, const Clause& c) {
  if (std::all_of(c.arg.begin(), c.arg.end(), [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); }) && !c.arg.empty()) return c.arg;
  if (auto p = param_named(c.arg)) return *p;
  refuse(d, fmt::format("{}({}): a thread count that is not a constant or an integer set once to a constant", c.name, c.arg));
}

int Translator::hoist(const std::vector<const json*>& list, const Origin& at) {
  int opened = 0;
  for (const json* s : list) {
    if (kind(*s) == "CompoundStmt" && has_barrier(*s, 0)) opened += hoist(children(*s), at);
    if (kind(*s) != "DeclStmt") continue;
    for (const json* d : children(*s)) {
      if (kind(*d) != "VarDecl") refuse(*d, fmt::format("a declaration of a {}", kind(*d)));
      std::string id = decl_id(*d);
      c_names_[id] = decl_name(*d);
      if (d->value("storageClass", "") == "static") continue;  // one for all threads: declared where it is
      std::string t = type(*d);
      if (t.find('[') != std::string::npos || t.find('*') != std::string::npos)
        refuse(*d, "an array or a pointer declared in a parallel region with barriers (not yet taken)");
      if (!writes_.count(id) && header_writes_.count(id) && d->value("init", "") == "") {
        declare_loop_counter(*d);  // bound by each loop that counts with it
        continue;
      }
      Var v;
      v.kind = Var::Kind::Cell;
      v.type = scalar_type(t);
      if (v.type.empty()) refuse(*d, fmt::format("a variable of type '{}'", t));
      v.name = fresh(decl_name(*d));
      v.cell = region_->thread;
      v.par_depth = par_depth_;
      body_.open(fmt::format("allocate {} : {}[{}] {{", v.name, v.type, region_->cells), origin(*d));
      ++opened;
      vars_[id] = v;
      region_->hoisted.insert(id);
    }
  }
  return opened;
}

void Translator::phases(const std::vector<const json*>& list, const Origin& at) {
  for (size_t k = 0; k < list.size(); ++k) {
    const json& s = *list[k];
    std::string sk = kind(s);
    if (sk == "DeclStmt" && region_->phased) {  // hoisted: its initial value, in the phase
      for (const json* d : children(s)) {
        if (!region_->hoisted.count(decl_id(*d))) {
          if (d->value("storageClass", "") == "static") declare(*d, true);
          continue;
        }
        if (d->value("init", "") == "") continue;
        open_phase(list, k, at);
        const Var& v = vars_.at(decl_id(*d));
        body_.line(fmt::format("{} := {};", cell_ref(v), value(child(*d, 0), v.type)), origin(*d));
      }
      continue;
    }
    if (!has_barrier(s, 0) || sk == "OMPForDirective" || sk == "OMPForSimdDirective" || sk == "OMPSingleDirective") {
      open_phase(list, k, at);
      phase_statement_ = &s;
      statement(s);
      phase_statement_ = nullptr;
      if (has_barrier(s, 0)) close_phase();  // an omp for or single without nowait: its barrier
      continue;
    }
    if (sk == "OMPBarrierDirective") {
      close_phase();
      continue;
    }
    if (sk == "CompoundStmt") {
      phases(children(s), at);
      continue;
    }
    if (sk == "ForStmt") {  // every thread runs the loop: outside the phases, each iteration its own
      close_phase();
      Canonical c = canonical(s);
      std::string id = decl_id(*c.counter);
      if (kind(*c.counter) != "VarDecl" && vars_.count(id) && vars_.at(id).par_depth < region_->depth && !private_.count(id))
        refuse(s, "a loop with a barrier inside whose counter the threads share (declared outside the region)");
      if (!over_names(*c.bound, true) || !over_names(*c.lo, true)) refuse(s, "a loop with a barrier inside whose bounds are not the same in every thread");
      const json* saved = phased_body_;
      phased_body_ = &child(s, 4);
      --par_depth_;  // the loop is every thread's: its counter is not shared
      for_loop(s, "for", {});
      ++par_depth_;
      phased_body_ = saved;
      continue;
    }
    refuse(s, "a barrier inside an if, a while or a call in a parallel region (not yet taken)");
  }
}

void Translator::phase_body(const json& body) {
  phases(statements_of(body), region_->at);
  close_phase();
}

void Translator::open_phase(const std::vector<const json*>& list, size_t from, const Origin& at) {
  Region& r = *region_;
  if (r.open) return;
  // whether an omp single runs in this phase: then the phase has a lane for it
  std::function<bool(const json&)> single = [&](const json& n) {
    if (kind(n) == "OMPSingleDirective") return true;
    for (const json* c : children(n))
      if (single(*c)) return true;
    return false;
  };
  r.single_lane = false;
  for (size_t k = from; k < list.size(); ++k) {
    if (single(*list[k])) r.single_lane = true;
    if (has_barrier(*list[k], 0)) break;
  }
  body_.open(fmt::format("par {} = 0 to {} {{", r.thread, r.single_lane ? r.count : fmt::format("{} - 1", r.count)), at);
  if (r.single_lane) body_.open(fmt::format("if {} < {} {{", r.thread, r.count), at);
  for (const auto& [name, type] : r.thread_allocations) body_.open(fmt::format("allocate {} : {}[] {{", name, type), at);
  for (const auto& [mine, shared] : r.firstprivate) body_.line(fmt::format("{} := {};", mine, shared), at);
  r.firstprivate.clear();  // once: at the region's start
  r.open = true;
  r.singles.clear();
  scopes_.push_back(0);
}

void Translator::close_phase() {
  Region& r = *region_;
  if (!r.open) return;
  for (int k = scopes_.back(); k > 0; --k) body_.close();
  scopes_.pop_back();
  for (size_t k = 0; k < r.thread_allocations.size(); ++k) body_.close();
  if (r.single_lane) {
    body_.reopen("} else {");  // the lane that runs the phase's single constructs
    body_.raw(indented(r.singles, body_.depth()));
    body_.close();
  }
  body_.close();
  r.open = false;
}

void Translator::single(const json& d, const Pragma& p) {
  for (const Clause& c : p.clauses)
    if (c.name != "nowait") refuse(d, fmt::format("the clause '{}' of omp single (not yet taken)", c.name));
  if (!region_ || !region_->open || phase_statement_ != &d) refuse(d, "an omp single inside a loop, an if or a call of a parallel region, or outside one (not yet taken)");
  BodyText lane;  // the single's lane: written apart, placed by close_phase
  std::swap(prog_.body, lane);
  in_single_ = true;
  statement(associated(d));
  in_single_ = false;
  std::swap(prog_.body, lane);
  region_->singles += lane.text();
}

std::string Translator::threads_param(const Origin& at) {
  if (threads_.empty()) {
    threads_ = fresh("threads");
    prog_.param(threads_, 4);
    prog_.precondition(fmt::format("assume {} >= 1;  {}", threads_, origin_comment(at)));
  }
  return threads_;
}

void Translator::threadprivate(const json& d, Var& v) {
  // one copy per thread, at least as many as any region of the file has threads (num_threads(k))
  if (d.value("storageClass", "") == "static" && par_depth_ > 0) refuse(d, "a threadprivate variable declared inside a parallel construct");
  int64_t most = 1;
  static const std::regex num_threads(R"((?:num_threads|omp_set_num_threads)\s*\(\s*(\d{1,6})\s*\))");
  for (std::sregex_iterator it(file_.text.begin(), file_.text.end(), num_threads), end; it != end; ++it) most = std::max<int64_t>(most, std::stoll((*it)[1]));
  std::string cells = fmt::format("max({}, {}) + 1", threads_param(origin(d)), most);
  v.kind = Var::Kind::Cell;
  v.cell = kThreadCell;
  prog_.declaration(fmt::format("input {}[d0] : {}[{}];", v.name, v.type, cells), origin(d));
  vars_[decl_id(d)] = v;
  if (d.value("init", "") != "") {  // every copy starts with the initial value
    std::string c = fresh("copy");
    body_.open(fmt::format("for {} = 0 to {} - 1 {{", c, cells), origin(d));
    body_.line(fmt::format("{}[{}] := {};", v.name, c, value(child(d, 0), v.type)), origin(d));
    body_.close();
  }
}

std::string Translator::cell_ref(const Var& v) const {
  if (v.cell != kThreadCell) return fmt::format("{}[{}]", v.name, v.cell);
  return fmt::format("{}[{}]", v.name, region_ ? region_->thread : "0");  // the thread's copy; outside a region the master's
}

void Translator::thread_cell_in_single(const json& ref, const Var& v) const {
  if (in_single_ && region_ && (v.par_depth >= region_->depth || v.cell == kThreadCell))
    refuse(ref, fmt::format("'{}', a thread's own variable, inside an omp single (which thread runs it is not known)", decl_name(ref)));
}

void Translator::master(const json& d) {
  if (!region_ || in_single_) refuse(d, "an omp master outside a parallel region or inside its single (not yet taken)");
  body_.open(fmt::format("if {} == 0 {{", region_->thread), origin(d));
  statement(associated(d));
  body_.close();
}

void Translator::worksharing_loop(const json& d, const Pragma& p) {
  if (!region_ || in_single_) refuse(d, "an 'omp for' outside a parallel region or inside its single (not yet taken)");
  LoopClauses lc = loop_clauses(d, p);
  if (lc.collapse > 1) refuse(d, "collapse on an 'omp for' inside a parallel region (not yet taken)");
  if (const Clause* s = p.find("schedule")) {  // static: the default's chunks; static, k and the others: chunks of k dealt in turn
    if (s->vars.size() > 1) {
      std::optional<int64_t> k;
      try {
        k = std::stoll(s->vars[1]);
      } catch (const std::exception&) {
      }
      if (!k || *k < 1) refuse(d, fmt::format("schedule({}): a chunk size that is not a positive constant", s->arg));
      chunk_ = *k;
    } else if (s->vars.empty() || s->vars[0] != "static") {
      chunk_ = 1;
    }
  }
  const json& loop = associated(d);
  if (kind(loop) != "ForStmt") refuse(d, "an 'omp for' without its for loop");
  auto saved = reductions_;
  auto saved_private = private_;
  reductions_.insert(lc.reductions.begin(), lc.reductions.end());
  private_.insert(lc.private_ids.begin(), lc.private_ids.end());
  Canonical c = canonical(loop);
  private_.insert(decl_id(*c.counter));  // a worksharing loop's counter is private
  if (lc.safelen > 0) refuse(d, "safelen on an 'omp for simd' in a parallel region (not yet taken)");
  distribute_ = true;
  Origin at = origin(d);
  for_loop(loop, p.directive == "for simd" ? "par" : "for", lc.privates, 1, &at);
  reductions_ = saved;
  private_ = saved_private;
}

int Translator::thread_chunk(const std::string& n, const std::string& count, const char* keyword, const Origin& at) {
  const Region& r = *region_;
  int opened = 0;
  if (chunk_ == 0) {  // the static schedule: thread t runs iterations t * c to t * c + c - 1
    std::string c = fresh(n + "_chunk");
    body_.line(fmt::format("let {} = ({} + {} - 1) / {};", c, count, r.count, r.count), at);
    body_.open(fmt::format("{} {} = {} * {} to min({} * {} + {}, {}) - 1 {{", keyword, n, r.thread, c, r.thread, c, c, count), at);
    opened = 1;
  } else {
    body_.open(fmt::format("{} {} = 0 to {} - 1 {{", keyword, n, count), at);
    body_.open(fmt::format("if ({} / {}) % {} == {} {{", n, chunk_, r.count, r.thread), at);
    opened = 2;
  }
  chunk_ = 0;
  return opened;
}

bool Translator::several_teams(const Pragma& p) {
  // without num_teams the implementation chooses how many (DataRaceBench and the OpenMP spec
  // allow more than one); num_teams(1) is one team, whose threads a lock or critical excludes
  const Clause* c = p.find("num_teams");
  if (!c) return true;
  std::string n;
  for (char ch : c->arg)
    if (!std::isspace(static_cast<unsigned char>(ch))) n += ch;
  return n != "1";
}

void Translator::teams(const json& d, const Pragma& p) {
  // a league of teams whose body is one distribute loop: that loop's iterations run at once
  const json* body = &associated(d);
  if (kind(*body) == "CompoundStmt" && children(*body).size() == 1) body = &child(*body, 0);
  if (kind(*body).rfind("OMPDistribute", 0) != 0) refuse(d, "an 'omp teams' whose body is not one distribute loop (not yet taken)");
  auto saved = reductions_;
  for (const Clause& c : p.clauses) {
    if (c.name == "reduction") {
      if (c.op != "+" && c.op != "*") refuse(d, fmt::format("a reduction with '{}' over teams (not yet taken: + and * are)", c.op));
      for (const auto& n : c.vars) reductions_.insert(vars_.at(clause_var(d, n)).name);
    } else if (c.name != "num_teams" && c.name != "thread_limit" && c.name != "shared" && c.name != "default" && c.name != "map") {
      refuse(d, fmt::format("the clause '{}' of omp teams (not yet taken)", c.name));
    }
  }
  bool was = in_teams_;
  in_teams_ = several_teams(p);
  statement(*body);
  in_teams_ = was;
  reductions_ = saved;
}

void Translator::private_clause(const json& d, const Clause& c, std::vector<PrivateCopy>& privates, std::set<std::string>& loop_ids) {
  for (const auto& n : c.vars) {
    std::string vid = clause_var(d, n);
    const Var& v = vars_.at(vid);
    if (v.kind == Var::Kind::Array) refuse(d, fmt::format("a private array ('{}': not yet taken)", n));
    if (v.kind == Var::Kind::Cell) privates.push_back({vid, c.name == "firstprivate", false});
    if (v.kind == Var::Kind::Loop) loop_ids.insert(vid);
  }
}

void Translator::sections(const json& d, const Pragma& p) {
  // each section runs on a thread of its own, at the same time as the others
  if (region_) refuse(d, "'omp parallel sections' inside a parallel region (nested parallelism: not yet taken)");
  const json& body = associated(d);
  std::vector<std::vector<const json*>> parts(1);
  for (const json* s : statements_of(body)) {
    if (kind(*s) == "OMPSectionDirective") {
      if (!parts.back().empty()) parts.emplace_back();
      parts.back().push_back(&associated(*s));
    } else {
      parts.back().push_back(s);
    }
  }
  auto saved = reductions_;
  auto saved_private = private_;
  std::vector<PrivateCopy> privates;  // one copy per section, as a loop's per iteration
  for (const Clause& c : p.clauses) {
    if (c.name == "reduction") {
      if (c.op != "+" && c.op != "*") refuse(d, fmt::format("a reduction with '{}' over sections (not yet taken: + and * are)", c.op));
      for (const auto& n : c.vars) reductions_.insert(vars_.at(clause_var(d, n)).name);
    } else if (c.name == "private" || c.name == "firstprivate") {
      private_clause(d, c, privates, private_);
    } else if (c.name != "shared" && c.name != "default" && c.name != "num_threads" && c.name != "proc_bind") {
      refuse(d, fmt::format("the clause '{}' of omp parallel sections (not yet taken)", c.name));
    }
  }
  Origin at = origin(d);
  std::string s = fresh("section");
  body_.open(fmt::format("par {} = 0 to {} {{", s, parts.size() - 1), at);
  excluded_by_.clear();  // a new parallel construct
  ++par_depth_;
  std::vector<std::pair<std::string, Var>> renamed;
  for (const PrivateCopy& q : privates) {
    Var& shared_var = vars_.at(q.id);
    std::string mine = fresh(shared_var.name + "_private");
    body_.open(fmt::format("allocate {} : {}[] {{", mine, shared_var.type), at);
    if (q.first) body_.line(fmt::format("{}[] := {};", mine, cell_ref(shared_var)), at);
    renamed.emplace_back(q.id, shared_var);
    shared_var.name = mine;
    shared_var.cell.clear();
    shared_var.par_depth = par_depth_;
  }
  for (size_t k = 0; k < parts.size(); ++k) {
    if (k == 0) body_.open(fmt::format("if {} == 0 {{", s), at);
    else body_.reopen(fmt::format("}} else if {} == {} {{", s, k));
    scopes_.push_back(0);
    for (const json* st : parts[k]) statement(*st);
    for (int n = scopes_.back(); n > 0; --n) body_.close();
    scopes_.pop_back();
  }
  body_.close();
  for (auto it = renamed.rbegin(); it != renamed.rend(); ++it) vars_.at(it->first) = it->second;
  for (size_t k = 0; k < renamed.size(); ++k) body_.close();
  --par_depth_;
  body_.close();
  reductions_ = saved;
  private_ = saved_private;
}

}  // namespace sched::cfront
