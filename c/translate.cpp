#include "c/translate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "c/translator.hpp"
#include "interpreter/program_text.hpp"
#include "interpreter/reserved.hpp"

namespace sched::cfront {

namespace {

// "file:line:col: error: the C import does not take WHAT" with the line and a caret.
std::string refusal_text(const std::shared_ptr<const SourceFile>& f, const json& at, const json& fn, const std::string& what) {
  Loc l = position(at, *f);
  if (!l.line) l = position(fn, *f);  // a node clang gives no position (an empty part): its function's
  Diagnostics d(f);
  d.error(l, "the C import does not take " + what);
  return d.render();
}

}  // namespace

Translation translate(const json& tu, const std::shared_ptr<const SourceFile>& file, const std::string& function) {
  Translation t;
  std::vector<const json*> fs = functions(tu, file->name);
  const json* fn = nullptr;
  std::string names;
  for (const json* f : fs) {
    names += (names.empty() ? "" : ", ") + decl_name(*f);
    if (decl_name(*f) == (function.empty() ? "main" : function)) fn = f;
  }
  if (!fn && function.empty() && fs.size() == 1) fn = fs[0];
  if (!fn) {
    t.error = function.empty() ? fmt::format("{}: error: no function main (functions: {}): name one with --func\n", file->name, names.empty() ? "none" : names)
                               : fmt::format("{}: error: no function {} in the file (functions: {})\n", file->name, function, names.empty() ? "none" : names);
    return t;
  }
  try {
    Translator tr(tu, *fn, *file);
    t.text = tr.run();
    t.ok = true;
  } catch (const Refusal& r) {
    t.error = refusal_text(file, *r.at, *fn, r.what);
  }
  return t;
}

}  // namespace sched::cfront
