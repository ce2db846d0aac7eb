// The HTML of the reports (report/pages.hpp): one self-contained page (styles and script inline,
// no network access), text escaped, the program's source with chosen lines highlighted.
//
//   page(title, body)        the whole document; its script records a rendering error in
//                            <body data-render="error: ..."> (else "ok"), which the browser
//                            test reads (tests/report)
//   escape(text)             &, <, >, " and ' as entities, control characters as &#xN;
//                            (valid HTML and XML 1.0: the JUnit writer uses it too)
//   source(text, marks)      the program's lines, numbered; a marked line carries its note
//   table(rows)              a two-column table of names and values
//
// Example:
//   std::string html = page("race in blur.sched", "<h1>...</h1>" + source(text, {{15, "write (i = 0)"}}));
#pragma once
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace sched::report {

std::string escape(const std::string& text);
std::string page(const std::string& title, const std::string& body);
// `anchor`: the lines' ids are anchor + number ("L12"); another letter for a second source on a page.
std::string source(const std::string& text, const std::map<int, std::string>& marks, const std::string& anchor = "L");
std::string table(const std::vector<std::pair<std::string, std::string>>& rows);

}  // namespace sched::report
