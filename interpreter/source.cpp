#include "interpreter/source.hpp"

#include "interpreter/files.hpp"
#include "interpreter/limits.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <fstream>
#include <sstream>

namespace sched {

SourceFile::SourceFile(std::string n, std::string t) : name(std::move(n)), text(std::move(t)) {
  line_starts.push_back(0);
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n') line_starts.push_back(i + 1);
  if (text.find("//@ ") == std::string::npos) return;
  for (uint32_t l = 1; l <= line_starts.size(); ++l)
    if (std::optional<Origin> o = origin_of_line(line(l))) origins.emplace_back(l, std::move(*o));
}

const Origin* SourceFile::origin(uint32_t l) const {
  auto it = std::lower_bound(origins.begin(), origins.end(), l, [](const auto& e, uint32_t x) { return e.first < x; });
  return it != origins.end() && it->first == l ? &it->second : nullptr;
}

std::string_view SourceFile::line(uint32_t l) const {
  if (l == 0 || l > line_starts.size()) return {};
  size_t b = line_starts[l - 1];
  size_t e = l < line_starts.size() ? line_starts[l] - 1 : text.size();
  if (e > b && text[e - 1] == '\r') --e;
  return std::string_view(text).substr(b, e - b);
}

std::shared_ptr<SourceFile> SourceFile::load(const std::string& path, std::string* error) {
  std::string text, why;
  if (!read_input_file(path, kMaxSourceBytes, text, why)) {
    if (error) *error = why;
    return nullptr;
  }
  return std::make_shared<SourceFile>(path, std::move(text));
}

void Diagnostics::add(Severity s, Loc loc, std::string msg) {
  if (s == Severity::Error) {
    ++errors_;
    if (errors_ > kMaxErrors) return;  // keep counting, stop storing
  }
  diags_.push_back({s, loc, std::move(msg)});
}

std::string Diagnostics::where(Loc loc) const {
  std::string name = file_ ? file_->name : "<input>";
  if (loc.line == 0) return name;
  if (const Origin* o = file_ && file_->generated ? file_->origin(loc.line) : nullptr) return o->text();
  return fmt::format("{}:{}:{}", name, loc.line, loc.col);
}

std::string from_origin(const SourceFile* f, Loc loc) {
  const Origin* o = f && loc.line && !f->generated ? f->origin(loc.line) : nullptr;
  return o ? fmt::format("  from {}\n", o->text()) : std::string();
}

std::string line_col(const SourceFile* f, Loc loc) {
  std::string here = fmt::format("{}:{}", loc.line, loc.col);
  const Origin* o = f ? f->origin(loc.line) : nullptr;
  if (!o) return here;
  return f->generated ? o->text() : fmt::format("{} ({})", here, o->text());
}

namespace {
// Text shown on a terminal: control bytes (ASCII and the C1 range encoded in UTF-8, which
// terminals read as escape sequences) become '?', one per byte, so a caret stays aligned.
std::string printable(std::string_view s) {
  std::string r(s);
  for (size_t i = 0; i < r.size(); ++i) {
    auto c = static_cast<unsigned char>(r[i]);
    if ((c < 0x20 && c != '\t') || c == 0x7f) r[i] = '?';
    else if (c == 0xc2 && i + 1 < r.size() && static_cast<unsigned char>(r[i + 1]) >= 0x80 && static_cast<unsigned char>(r[i + 1]) < 0xa0) r[i] = r[i + 1] = '?';
  }
  return r;
}

// The source line `l` (a window around the column when long) and a caret under column `col`.
std::string caret_lines(std::string_view l, uint32_t col) {
  std::string out, prefix;
  // a long line is shown as a window around the column
  constexpr size_t kWidth = 100;
  if (l.size() > kWidth) {
    size_t start = col > kWidth / 2 ? col - kWidth / 2 : 0;
    if (start > 0) { prefix = "..."; col = static_cast<uint32_t>(col - start + prefix.size()); }
    std::string_view window = l.substr(std::min(start, l.size()), kWidth);
    l = window;
  }
  std::string shown = prefix + printable(l);
  out += "  " + shown;
  if (l.size() == kWidth) out += "...";
  out += "\n  ";
  for (uint32_t c = 1; c < col && c <= shown.size() + 1; ++c) out += (shown.size() >= c && shown[c - 1] == '\t') ? '\t' : ' ';
  out += "^\n";
  return out;
}

// The caret lines of a position: in a generated text, its origin's line when the user's file reads.
std::string caret_at(const SourceFile& f, Loc loc) {
  const Origin* o = f.origin(loc.line);
  if (o && f.generated)
    if (auto user = SourceFile::load(o->file); user && o->line <= user->line_starts.size())
      return caret_lines(user->line(o->line), o->col ? o->col : 1);
  return caret_lines(f.line(loc.line), loc.col) + from_origin(&f, loc);
}

}  // namespace

std::string Diagnostics::render() const {
  std::string out;
  std::vector<Diagnostic> sorted = diags_;
  std::stable_sort(sorted.begin(), sorted.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return a.loc.line != b.loc.line ? a.loc.line < b.loc.line : a.loc.col < b.loc.col;
  });
  for (const auto& d : sorted) {
    const char* sev = d.severity == Severity::Error ? "error" : d.severity == Severity::Warning ? "warning" : "note";
    out += fmt::format("{}: {}: {}\n", printable(where(d.loc)), sev, printable(d.message));
    if (file_ && d.loc.line > 0) out += caret_at(*file_, d.loc);
  }
  if (errors_ > kMaxErrors) out += fmt::format("... and {} more errors\n", errors_ - kMaxErrors);
  return out;
}

std::string did_you_mean(const std::string& w, const std::vector<std::string>& words) {
  auto distance = [](const std::string& a, const std::string& b) {
    std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
      cur[0] = i;
      for (size_t j = 1; j <= b.size(); ++j) cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      std::swap(prev, cur);
    }
    return prev[b.size()];
  };
  std::string best;
  size_t best_d = 3;
  for (const auto& x : words) {
    size_t d = distance(w, x);
    if (d < best_d && 2 * d < std::max(w.size(), x.size())) {
      best = x;
      best_d = d;
    }
  }
  return best;
}

}  // namespace sched
