// equiv_page (report/pages.hpp): `sched equiv`'s verdict on two programs.
#include <fmt/format.h>

#include <map>

#include "report/html.hpp"
#include "report/json_fields.hpp"
#include "report/pages.hpp"

namespace sched::report {

namespace {

using nlohmann::json;

std::string verdict_class(const std::string& verdict) {
  if (verdict == "equivalent") return "clean";
  if (verdict == "different" || verdict == "defective") return "finding";
  return "unknown";
}

std::string program_section(const char* title, const std::string& file, const std::string& src, const std::map<int, std::string>& marks,
                            const std::string& anchor) {
  if (src.empty()) return fmt::format("<h2>{}: {}</h2><p class=\"sub\">(source not at hand)</p>", title, escape(file));
  return fmt::format("<h2>{}: {}</h2>{}", title, escape(file), source(src, marks, anchor));
}

}  // namespace

bool is_equiv_result(const json& j) { return j.is_object() && j.contains("verdict") && j.contains("first") && j.contains("second"); }

std::string equiv_page(const json& j, const std::string& first_src, const std::string& second_src, const std::string& lifted) {
  std::string first = text(j, "first"), second = text(j, "second"), verdict = text(j, "verdict");
  std::string body = fmt::format("<h1>{}: {} and {}</h1><p class=\"sub\">sched equiv: the same outputs for every parameter value and input "
                                 "&middot; floats {} &middot; {:.2f} s</p>",
                                 escape(verdict), escape(first), escape(second), escape(text(j, "floats")), number(j, "seconds"));
  body += fmt::format("<div class=\"{}\">{}: {}</div>", verdict_class(verdict), escape(verdict), escape(text(j, "reason")));
  std::map<int, std::string> marks_first, marks_second;
  if (verdict == "defective") {
    std::string where = fmt::format("{}:{}", whole(j, "line"), whole(j, "col"));
    (text(j, "program") == first ? marks_first : marks_second)[static_cast<int>(whole(j, "line"))] = "the finding";
    body += table({{"program", text(j, "program")}, {"at", where}});
  }
  const json& d = field(j, "difference");
  if (d.is_object()) {
    std::vector<std::pair<std::string, std::string>> rows = {{"cell", text(d, "cell")}, {"first program", text(d, "first")}, {"second program", text(d, "second")}};
    for (const auto& [n, v] : object(d, "params").items()) rows.emplace_back(n, v.dump());
    if (list(d, "data").empty()) rows.emplace_back("inputs", fmt::format("seed {}", whole(d, "seed")));
    for (const auto& x : list(d, "data")) rows.emplace_back("input", as_text(x));
    body += fmt::format("<h2>Difference</h2>{}", table(rows));
    if (!text(d, "replay").empty()) body += fmt::format("<h3>Replay</h3><pre class=\"src\"><span class=\"l\">{}</span></pre>", escape(text(d, "replay")));
  }
  std::vector<std::pair<std::string, std::string>> how = {{"parameter points run", std::to_string(whole(j, "points"))},
                                                          {"runs of both compared", std::to_string(whole(j, "runs"))}};
  if (whole(j, "assignments") > 0)  // the proof lifted the first program
    how.emplace_back("second program's assignments annotated", fmt::format("{} of {}", whole(j, "annotated"), whole(j, "assignments")));
  body += fmt::format("<h2>How</h2>{}", table(how));
  body += program_section("First program", first, first_src, marks_first, "A");
  body += program_section("Second program", second, second_src, marks_second, "B");
  if (!lifted.empty())
    body += fmt::format("<h2>The second program against the first's equations</h2><p class=\"sub\">what the verifier proved (or refuted): "
                        "the first program lifted to tensor equations by exact dataflow, the second annotated with them</p>{}",
                        source(lifted, {}, "Q"));
  return page(fmt::format("{}: {} and {}", verdict, first, second), body);
}

}  // namespace sched::report
