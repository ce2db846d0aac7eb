// run_page (report/pages.hpp): the outcome of one engine run.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "report/html.hpp"
#include "report/json_fields.hpp"
#include "report/pages.hpp"
#include "report/svg.hpp"

namespace sched::report {

namespace {

using nlohmann::json;

const char* kFirst = "#4a7bd0";   // the first racing iteration
const char* kSecond = "#f0883e";  // the second
const char* kIdle = "#e8e8e8";


// "x[3, 4]" -> name x, indices {3, 4}
bool parse_cell(const std::string& cell, std::string& name, std::vector<int64_t>& idx) {
  auto open = cell.find('[');
  if (open == std::string::npos || cell.back() != ']') return false;
  name = cell.substr(0, open);
  std::string inside = cell.substr(open + 1, cell.size() - open - 2);
  idx.clear();
  size_t at = 0;
  while (at < inside.size()) {
    size_t comma = inside.find(',', at);
    std::string part = inside.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    try {
      idx.push_back(std::stoll(part));
    } catch (...) {
      return false;
    }
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  return true;
}

std::string iteration_text(const json& it) {
  std::string s;
  for (const auto& [k, v] : it.items()) s += fmt::format("{}{} = {}", s.empty() ? "" : ", ", k, v.dump());
  return s;
}

std::string legend(const std::vector<std::pair<std::string, std::string>>& items) {
  std::string s = "<p class=\"legend\">";
  for (const auto& [color, what] : items) s += fmt::format("<span style=\"background:{}\"></span>{}", color, escape(what));
  return s + "</p>";
}

// A 2-D view of an array: rows x cols over its last two dimensions, at `fixed` for the others.
struct View {
  int rows = 1, cols = 1;
  std::vector<size_t> flat;  // the cell shown at each position
  std::string row_label, col_label, note;
};

View view_of(const std::vector<int64_t>& shape, const std::vector<int64_t>& fixed, const std::string& name) {
  View v;
  size_t rank = shape.size();
  int64_t total = 1;
  for (auto d : shape) total *= std::max<int64_t>(d, 0);
  const int64_t cap = 200;
  int64_t r = rank >= 2 ? shape[rank - 2] : 1, c = rank >= 1 ? shape[rank - 1] : 1;
  v.rows = static_cast<int>(std::min(r, cap));
  v.cols = static_cast<int>(std::min(c, cap));
  v.row_label = rank >= 2 ? fmt::format("{} dimension {}", name, rank - 2) : name;
  v.col_label = rank >= 1 ? fmt::format("{} dimension {}", name, rank - 1) : name;
  size_t base = 0;
  std::string at;
  for (size_t d = 0; d + 2 < rank; ++d) {
    int64_t x = d < fixed.size() ? fixed[d] : 0;
    base = base * static_cast<size_t>(shape[d]) + static_cast<size_t>(x);
    at += fmt::format("{}{}", at.empty() ? "" : ", ", x);
  }
  if (rank > 2) v.note = fmt::format("the slice {}[{}, *, *] of shape {}", name, at, json(shape).dump());
  if (r > cap || c > cap) v.note += fmt::format("{}the first {} x {} cells", v.note.empty() ? "" : "; ", v.rows, v.cols);
  size_t plane = static_cast<size_t>(std::max<int64_t>(r, 1) * std::max<int64_t>(c, 1));
  for (int i = 0; i < v.rows; ++i)
    for (int j = 0; j < v.cols; ++j) v.flat.push_back(base * plane + static_cast<size_t>(i) * static_cast<size_t>(std::max<int64_t>(c, 1)) + static_cast<size_t>(j));
  if (total == 0) v.flat.clear();
  return v;
}

std::string race_section(const RunReport& r) {
  const json& race = field(r.outcome, "race");
  const json& acc = list(race, "accesses");
  std::string var = text(race, "loop_var");
  std::vector<int64_t> its;
  for (const auto& x : list(race, "iterations")) its.push_back(as_whole(x));
  std::string body = "<h2>The two iterations</h2>";
  if (its.size() == 2) {
    int64_t n = r.loop_extent > 0 ? r.loop_extent : std::max(its[0], its[1]) + 1;
    n = std::min<int64_t>(n, 400);
    std::vector<GridCell> cells;
    for (int64_t k = 0; k < n; ++k) {
      std::string what;
      for (const auto& a : acc)
        if (a.contains("iteration") && field(field(a, "iteration"), var.c_str()) == json(k))
          what += fmt::format("; {} {} at {}:{} ({})", text(a, "access"), text(a, "cell"), whole(a, "line"), whole(a, "col"),
                              iteration_text(field(a, "iteration")));
      cells.push_back({k == its[0] ? kFirst : k == its[1] ? kSecond : kIdle, fmt::format("{} = {}{}", var, k, what)});
    }
    body += fmt::format("<p>The iteration space of <code>par {}</code>{}: the two iterations that touch the same cell.</p>", escape(var),
                        r.loop_extent > 0 ? fmt::format(" ({} iterations)", r.loop_extent) : "");
    body += grid(cells, 1, static_cast<int>(n), "", var) +
            legend({{kFirst, fmt::format("{} = {}", var, its[0])}, {kSecond, fmt::format("{} = {}", var, its[1])}, {kIdle, "other iterations"}});
  }
  std::string name;
  std::vector<int64_t> idx;
  if (parse_cell(text(race, "cell"), name, idx) && r.race_array_shape.size() == idx.size()) {
    View v = view_of(r.race_array_shape, idx, name);
    size_t target = 0;
    for (size_t d = 0; d < idx.size(); ++d) target = target * static_cast<size_t>(r.race_array_shape[d]) + static_cast<size_t>(idx[d]);
    std::vector<GridCell> cells;
    for (size_t f : v.flat) {
      if (f == target) {
        std::string t = text(race, "cell");
        for (const auto& a : acc) t += fmt::format("; {} by {} ({})", text(a, "access"), iteration_text(field(a, "iteration")), text(a, "value"));
        cells.push_back({"#d9534f", t});
      } else {
        cells.push_back({kIdle, fmt::format("{} cell {}", name, f)});
      }
    }
    body += fmt::format("<h2>The cell</h2><p><code>{}</code> in <code>{}</code> (shape {}){}</p>", escape(text(race, "cell")), escape(name),
                        json(r.race_array_shape).dump(), v.note.empty() ? std::string() : fmt::format(": {}", escape(v.note)));
    body += grid(cells, v.rows, v.cols, v.row_label, v.col_label) + legend({{"#d9534f", "the raced cell (both iterations)"}, {kIdle, "other cells"}});
  }
  body += "<h2>The accesses</h2><table class=\"list\"><tr><th>access</th><th>statement</th><th>iteration</th><th>cell</th><th>value</th></tr>";
  for (const auto& a : acc)
    body += fmt::format("<tr><td>{}</td><td><a href=\"#L{}\" data-line=\"{}\">{}:{}</a></td><td class=\"mono\">{}</td><td class=\"mono\">{}</td><td class=\"mono\">{}</td></tr>",
                        escape(fmt::format("{}{}{}", text(a, "access"), text(a, "op").empty() ? "" : " ", text(a, "op"))), whole(a, "line"), whole(a, "line"),
                        whole(a, "line"), whole(a, "col"), escape(iteration_text(field(a, "iteration"))), escape(text(a, "cell")), escape(text(a, "value")));
  return body + "</table>";
}

std::string mismatch_section(const RunReport& r) {
  std::string body;
  if (r.outputs.empty()) {  // from a saved JSON: the cells it names
    body += "<h2>Differing cells</h2><table class=\"list\"><tr><th>cell</th><th>value</th><th>expected</th></tr>";
    for (const auto& c : list(r.outcome, "first"))
      body += fmt::format("<tr><td class=\"mono\">{}</td><td class=\"mono\">{}</td><td class=\"mono\">{}</td></tr>", escape(text(c, "cell")),
                          escape(text(c, "actual")), escape(text(c, "expected")));
    return body + "</table>";
  }
  for (const auto& a : r.outputs) {
    std::vector<int64_t> first_bad(a.shape.size(), 0);
    for (size_t f = 0; f < a.state.size(); ++f)
      if (a.state[f] != 0) {  // the slice that holds the first differing cell
        size_t rest = f;
        for (size_t d = a.shape.size(); d-- > 0;) {
          first_bad[d] = static_cast<int64_t>(rest % static_cast<size_t>(std::max<int64_t>(a.shape[d], 1)));
          rest /= static_cast<size_t>(std::max<int64_t>(a.shape[d], 1));
        }
        break;
      }
    View v = view_of(a.shape, first_bad, a.name);
    size_t differ = 0, missing = 0;
    for (auto s : a.state) differ += s == 1, missing += s == 2;
    std::vector<GridCell> cells;
    for (size_t f : v.flat) {
      if (f >= a.state.size()) continue;
      const char* color = a.state[f] == 0 ? "#cfe8cf" : a.state[f] == 1 ? "#d9534f" : "#555";
      std::vector<int64_t> at(a.shape.size());
      for (size_t d = a.shape.size(), rest = f; d-- > 0;) {
        size_t n = static_cast<size_t>(std::max<int64_t>(a.shape[d], 1));
        at[d] = static_cast<int64_t>(rest % n);
        rest /= n;
      }
      cells.push_back({color, fmt::format("{}[{}] = {}, expected {}", a.name, fmt::join(at, ", "), a.actual[f], a.expected[f])});
    }
    body += fmt::format("<h2>Output <code>{}</code></h2><p>shape {}: {} cell(s) differ, {} never written{}</p>", escape(a.name), json(a.shape).dump(),
                        differ, missing, v.note.empty() ? std::string() : fmt::format("; {}", escape(v.note)));
    body += grid(cells, v.rows, v.cols, v.row_label, v.col_label) +
            legend({{"#cfe8cf", "equal to the specification"}, {"#d9534f", "different"}, {"#555", "never written (⊥)"}});
  }
  return body;
}

}  // namespace

std::string run_page(const RunReport& r) {
  const json& o = r.outcome;
  std::string kind = text(o, "outcome");
  std::string body = fmt::format("<h1>{}: {}</h1><p class=\"sub\">{} &middot; {} engine &middot; parameters {}</p>", escape(kind), escape(r.file),
                                 escape(text(o, "where")), escape(text(o, "engine")), escape(object(o, "params").dump()));
  std::string message = text(o, "message");
  for (const auto& d : list(o, "details")) message += fmt::format("\n  {}", as_text(d));
  body += fmt::format("<div class=\"{}\">{}</div>", kind == "ok" ? "clean" : kind == "inconclusive" ? "unknown" : "finding", escape(message.empty() ? kind : message));
  std::map<int, std::string> marks;
  if (o.contains("position")) marks[whole(field(o, "position"), "line")] = kind;
  if (kind == "race") {
    for (const auto& a : list(field(o, "race"), "accesses"))
      marks[whole(a, "line")] = fmt::format("{} in {}", text(a, "access"), iteration_text(field(a, "iteration")));
    body += race_section(r);
  } else if (kind == "mismatch") {
    body += mismatch_section(r);
  }
  if (!r.source.empty()) body += fmt::format("<h2>Source</h2>{}", source(r.source, marks));
  return page(fmt::format("{}: {}", kind, r.file), body);
}

}  // namespace sched::report
