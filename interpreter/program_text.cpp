#include "interpreter/program_text.hpp"

#include <cctype>

namespace sched {

std::string Origin::text() const {
  std::string t = file;
  (t += ':') += std::to_string(line);
  if (col) (t += ':') += std::to_string(col);
  return t;
}

std::string origin_comment(const Origin& o) {
  std::string c;
  if (o.known()) (c = "//@ ") += o.text();
  return c;
}

std::optional<Origin> origin_of_line(std::string_view line) {
  size_t c = line.find("//");
  if (c == std::string_view::npos || line.compare(c, 4, "//@ ") != 0) return std::nullopt;
  std::string_view rest = line.substr(c + 4);
  while (!rest.empty() && (rest.back() == ' ' || rest.back() == '\t' || rest.back() == '\r')) rest.remove_suffix(1);
  uint32_t numbers[2] = {0, 0};  // from the right: the column (or the line), then the line
  int n = 0;
  while (n < 2) {  // ":DIGITS" at the end, at most twice
    size_t k = rest.size();
    while (k > 0 && std::isdigit(static_cast<unsigned char>(rest[k - 1]))) --k;
    if (k == rest.size() || k == 0 || rest[k - 1] != ':') break;
    std::string_view digits = rest.substr(k);
    if (digits.size() > 9 || digits[0] == '0') return std::nullopt;  // 1 to 999,999,999
    uint32_t v = 0;
    for (char d : digits) v = v * 10 + static_cast<uint32_t>(d - '0');
    numbers[n++] = v;
    rest = rest.substr(0, k - 1);
  }
  if (n == 0 || rest.empty()) return std::nullopt;
  Origin o;
  o.file = std::string(rest);
  if (n == 2) o.line = numbers[1], o.col = numbers[0];
  else o.line = numbers[0];
  return o;
}

void BodyText::line(std::string_view statement, const Origin& origin) {
  text_.append(static_cast<size_t>(2 * depth_), ' ');
  text_ += statement;
  if (origin.known()) (text_ += "  ") += origin_comment(origin);
  text_ += '\n';
}

void BodyText::open(std::string_view header, const Origin& origin) {
  line(header, origin);
  ++depth_;
}

void BodyText::close(std::string_view tail) {
  if (depth_ > 0) --depth_;
  line(tail);
}

void ProgramText::comment(std::string_view text) { ((comments_ += "// ") += text) += '\n'; }
void ProgramText::param(std::string_view name, std::optional<int64_t> value) { params_.emplace_back(std::string(name), value); }
void ProgramText::precondition(std::string_view line) { (preconditions_ += line) += '\n'; }
void ProgramText::specification(std::string_view text) { specification_ += text; }
void ProgramText::declaration(std::string_view line, const Origin& origin) {
  declarations_ += line;
  if (origin.known()) (declarations_ += "  ") += origin_comment(origin);
  declarations_ += '\n';
}

std::string ProgramText::text() const {
  std::string out = comments_;
  if (!params_.empty()) {
    out += "param ";
    for (size_t k = 0; k < params_.size(); ++k) {
      (out += k ? ", " : "") += params_[k].first;
      if (params_[k].second) (out += " = ") += std::to_string(*params_[k].second);
    }
    out += ";\n";
  }
  out += preconditions_;
  if (!specification_.empty()) ((out += '\n') += specification_) += '\n';
  ((out += declarations_) += '\n') += body.text();
  return out;
}

}  // namespace sched
