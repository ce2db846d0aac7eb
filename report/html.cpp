#include "report/html.hpp"

#include <fmt/format.h>

#include <sstream>

#include "sched/version.hpp"

namespace sched::report {

std::string escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (unsigned char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default:
        // control characters (not allowed in XML 1.0) are shown as references, not dropped
        if (c < 0x20 && c != '\n' && c != '\t' && c != '\r') out += fmt::format("&#x{:X};", c);
        else out += static_cast<char>(c);
    }
  }
  return out;
}

namespace {

const char* kStyle = R"(
body { font-family: system-ui, sans-serif; margin: 24px 32px; color: #222; max-width: 1200px; }
h1 { font-size: 22px; margin-bottom: 4px; } h2 { font-size: 17px; margin-top: 28px; }
.sub { color: #666; margin-top: 0; }
.finding { border-left: 4px solid #d9534f; background: #fdf3f2; padding: 8px 12px; white-space: pre-wrap; font-family: monospace; }
.clean { border-left: 4px solid #5cb85c; background: #f2faf2; padding: 8px 12px; }
.unknown { border-left: 4px solid #f0ad4e; background: #fdf8ef; padding: 8px 12px; }
pre.src { background: #f7f7f7; padding: 8px 0; overflow-x: auto; font-size: 13px; line-height: 1.45; }
pre.src span.l { display: block; padding: 0 12px; }
pre.src span.l.mark { background: #ffe3a3; }
pre.src span.n { color: #999; display: inline-block; width: 3.5em; user-select: none; }
pre.src span.note { color: #b1361e; font-style: italic; }
table.kv { border-collapse: collapse; } table.kv td { padding: 3px 12px 3px 0; vertical-align: top; }
table.kv td:first-child { color: #666; }
table.list { border-collapse: collapse; font-size: 13px; } table.list td, table.list th { border-bottom: 1px solid #ddd; padding: 4px 10px; text-align: left; }
code, .mono { font-family: monospace; }
.legend span { display: inline-block; width: 12px; height: 12px; margin: 0 4px 0 14px; vertical-align: middle; }
svg.chart text { font-size: 12px; } svg.chart .axis { fill: #666; } svg.chart .axisline, svg.chart .lane { stroke: #bbb; }
footer { margin-top: 40px; color: #999; font-size: 12px; }
)";

// The only script: it records whether the page rendered without a script error (the browser test
// reads data-render) and highlights a source line when its note is clicked.
const char* kScript = R"(
window.addEventListener('error', function (e) { document.body.setAttribute('data-render', 'error: ' + e.message); });
document.addEventListener('DOMContentLoaded', function () {
  document.querySelectorAll('[data-line]').forEach(function (el) {
    el.addEventListener('click', function () {
      var line = document.getElementById('L' + el.getAttribute('data-line'));
      if (line) line.scrollIntoView({block: 'center'});
    });
  });
  if (!document.body.hasAttribute('data-render')) document.body.setAttribute('data-render', 'ok');
});
)";

}  // namespace

std::string page(const std::string& title, const std::string& body) {
  return fmt::format(R"(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{}</title>
<style>{}</style><script>{}</script></head>
<body>
{}
<footer>sched {} &middot; a self-contained page: no network access needed</footer>
</body></html>
)",
                     escape(title), kStyle, kScript, body, SCHED_VERSION);
}

std::string source(const std::string& text, const std::map<int, std::string>& marks, const std::string& anchor) {
  std::string out = "<pre class=\"src\">";
  std::istringstream in(text);
  std::string l;
  for (int n = 1; std::getline(in, l); ++n) {
    auto m = marks.find(n);
    out += fmt::format(R"(<span class="l{}" id="{}{}"><span class="n">{}</span>{}{}</span>)", m != marks.end() ? " mark" : "", escape(anchor), n, n, escape(l),
                       m != marks.end() ? fmt::format(R"(   <span class="note">&#8592; {}</span>)", escape(m->second)) : "");
  }
  return out + "</pre>";
}

std::string table(const std::vector<std::pair<std::string, std::string>>& rows) {
  std::string out = "<table class=\"kv\">";
  for (const auto& [k, v] : rows) out += fmt::format("<tr><td>{}</td><td class=\"mono\">{}</td></tr>", escape(k), escape(v));
  return out + "</table>";
}

}  // namespace sched::report
