#include "c/pragma.hpp"

#include <cctype>
#include <set>

namespace sched::cfront {

namespace {

std::string trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

std::vector<std::string> split_list(std::string_view s) {
  std::vector<std::string> out;
  std::string cur;
  int depth = 0;
  for (char c : s) {
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(trim(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!trim(cur).empty()) out.push_back(trim(cur));
  return out;
}

bool directive_word(const std::string& w) {
  static const std::set<std::string> words = {"parallel", "for",     "simd",   "atomic",    "critical", "barrier",   "single",
                                              "master",   "masked",  "sections", "section", "task",     "taskwait",  "taskgroup",
                                              "target",   "teams",   "distribute", "ordered", "flush",  "threadprivate", "taskloop",
                                              "declare",  "end",     "loop",   "scope",     "taskyield", "cancel", "requires"};
  return words.count(w) > 0;
}

}  // namespace

const Clause* Pragma::find(std::string_view name) const {
  for (const auto& c : clauses)
    if (c.name == name) return &c;
  return nullptr;
}

Pragma parse_pragma(std::string_view text) {
  Pragma p;
  std::string line;
  for (size_t i = 0; i < text.size(); ++i) {  // joined lines
    if (text[i] == '\\' && i + 1 < text.size() && (text[i + 1] == '\n' || text[i + 1] == '\r')) {
      while (i + 1 < text.size() && (text[i + 1] == '\n' || text[i + 1] == '\r')) ++i;
      line += ' ';
      continue;
    }
    if (text.compare(i, 2, "//") == 0) break;  // a comment ends the directive
    if (text.compare(i, 2, "/*") == 0) {
      size_t e = text.find("*/", i + 2);
      if (e == std::string_view::npos) break;
      i = e + 1;
      line += ' ';
      continue;
    }
    line += text[i];
  }
  size_t k = 0;
  auto skip_blanks = [&] {
    while (k < line.size() && std::isspace(static_cast<unsigned char>(line[k]))) ++k;
  };
  auto word = [&] {
    skip_blanks();
    size_t b = k;
    while (k < line.size() && (std::isalnum(static_cast<unsigned char>(line[k])) || line[k] == '_')) ++k;
    return line.substr(b, k - b);
  };
  skip_blanks();
  if (line.compare(k, 1, "#") != 0) return p.error = "not a #pragma line", p;
  ++k;
  if (word() != "pragma" || word() != "omp") return p.error = "not an OpenMP directive (#pragma omp ...)", p;
  bool in_directive = true;
  while (true) {
    skip_blanks();
    if (k >= line.size()) break;
    if (line[k] == ',') {  // clauses may be separated by commas
      ++k;
      continue;
    }
    std::string w = word();
    if (w.empty()) return p.error = "an unexpected '" + std::string(1, line[k]) + "'", p;
    skip_blanks();
    std::string arg;
    bool has_arg = k < line.size() && line[k] == '(';
    if (has_arg) {
      int depth = 0;
      size_t b = ++k;
      for (depth = 1; k < line.size() && depth > 0; ++k) {
        if (line[k] == '(') ++depth;
        if (line[k] == ')') --depth;
      }
      if (depth != 0) return p.error = "a '(' without its ')'", p;
      arg = line.substr(b, k - 1 - b);
    }
    if (in_directive && w == "critical") {
      p.directive += (p.directive.empty() ? "" : " ") + w;
      if (has_arg) p.clauses.push_back({"name", "", {trim(arg)}, trim(arg)});
      continue;
    }
    // `ordered` after another word is the loop's clause (`parallel for ordered`)
    if (in_directive && directive_word(w) && !has_arg && !(w == "ordered" && !p.directive.empty())) {
      p.directive += (p.directive.empty() ? "" : " ") + w;
      continue;
    }
    in_directive = false;
    Clause c;
    c.name = w;
    c.arg = trim(arg);
    std::string list = c.arg;
    if (w == "reduction" || w == "in_reduction" || w == "task_reduction") {
      size_t colon = list.rfind(':');
      if (colon == std::string::npos) return p.error = "a reduction without its operator (reduction(+:x))", p;
      c.op = trim(list.substr(0, colon));
      list = list.substr(colon + 1);
    }
    c.vars = split_list(list);
    p.clauses.push_back(std::move(c));
  }
  if (p.directive.empty()) p.error = "no OpenMP directive";
  return p;
}

}  // namespace sched::cfront
