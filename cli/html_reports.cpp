#include "cli/html_reports.hpp"

#include "interpreter/model.hpp"
#include "interpreter/params.hpp"
#include "interpreter/value.hpp"
#include "interpreter/visit.hpp"
#include "report/pages.hpp"

namespace sched::cli {

namespace {

// The loop command at `at` (the race's position), or nullptr.
const Cmd* loop_at(const Cmd* c, const Loc& at) {
  return c ? find_cmd(*c, [&](const Cmd& x) { return x.is_loop() && x.loc.line == at.line && x.loc.col == at.col; }) : nullptr;
}

}  // namespace

std::string run_html(const std::string& file, const Program& p, const driver::Instance& inst, const driver::EngineRun& run,
                     const nlohmann::json& j, int threads) {
  report::RunReport rr{file, p.file ? p.file->text : "", j, {}, -1, {}};
  const Outcome& o = run.outcome;
  if (o.kind == OutcomeKind::Mismatch) {
    for (size_t i = 0; i < p.arrays.size() && i < run.final.arrays.size(); ++i) {
      if (p.arrays[i].role != ArrayRole::Output || !p.arrays[i].init) continue;
      const ArrayState& a = run.final.arrays[i];
      report::ArrayMap m{a.name, a.shape, {}, {}, {}};
      std::vector<Value> want;
      try {
        want = evaluate_array(p, i, inst.params, inst.model, a.shape, threads);
      } catch (const ModelError&) {
        continue;  // the specification cannot be evaluated: no map for this output
      }
      for (size_t c = 0; c < a.cells.size() && c < want.size(); ++c) {
        m.state.push_back(!a.cells[c].defined ? 2 : identical(a.cells[c], want[c]) ? 0 : 1);
        m.actual.push_back(to_string(a.cells[c]));
        m.expected.push_back(to_string(want[c]));
      }
      rr.outputs.push_back(std::move(m));
    }
  } else if (o.kind == OutcomeKind::Race && j.contains("race")) {
    if (const Cmd* loop = loop_at(p.body.get(), o.loc)) {
      // the strip shows the loop variable's values 0 .. last (`i < n`: n - 1; `i = lo to hi`: hi)
      Value hi = eval_static(*loop->value, inst.params);
      if (hi.defined) rr.loop_extent = std::max<int64_t>(loop->lo ? hi.as_i64() + 1 : hi.as_i64(), 0);
    }
    std::string cell = j["race"].value("cell", "");
    int id = p.find_array(cell.substr(0, cell.find('[')));
    if (id >= 0 && static_cast<size_t>(id) < run.final.arrays.size()) rr.race_array_shape = run.final.arrays[static_cast<size_t>(id)].shape;
  }
  return report::run_page(rr);
}

std::string explore_html(const std::string& file, const Program& p, const Memory& init, ExploreOptions o, const ExploreResult& r,
                         const nlohmann::json& j) {
  report::ExploreReport e{file, p.file ? p.file->text : "", j, {}};
  if (!o.replay) {  // a replay already has its trace in j
    o.progress = nullptr;
    for (size_t f = 0; f < r.finals.size() && f < 2; ++f) {
      ExploreOptions one = o;
      one.replay = r.finals[f].schedule;
      ExploreResult t = explore(p, init, one);
      e.traces.push_back(to_json(t, Diagnostics(p.file)).value("trace", nlohmann::json::array()));
    }
  } else if (j.contains("trace")) {
    e.traces.push_back(j["trace"]);
  }
  return report::explore_page(e);
}

}  // namespace sched::cli
