#include "mlir/pass_pipeline.hpp"

#include <algorithm>
#include <cctype>
#include <string_view>
#include <utility>

namespace sched::mlir {

namespace {

// The steps' text of one pipeline at most (a hostile text of deep anchors and many passes would
// otherwise ask for gigabytes: each step repeats its anchors).
constexpr std::size_t kMaxStepsText = std::size_t{64} << 20;

bool space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

// A character of a pass or anchor name: anything but white space, the grammar's punctuation
// and quotes (mlir-opt says which names it does not know).
bool name_char(char c) { return !space(c) && std::string_view("(){},'\"").find(c) == std::string_view::npos; }

bool quote(char c) { return c == '\'' || c == '"'; }

// The text for a message: whole up to 200 characters, else the 160 around `pos`, with "...".
std::string excerpt(const std::string& text, std::size_t pos) {
  if (text.size() <= 200) return text;
  std::size_t from = pos > 80 ? std::min(pos - 80, text.size() - 160) : 0;
  return (from > 0 ? "..." : "") + text.substr(from, 160) + (from + 160 < text.size() ? "..." : "");
}

// One pipeline's text being split: the characters [pos_, end_) of `text_` (quotes around the
// whole text left out), the anchors open at pos_ (`--pass-pipeline=a(b(` in `prefix_`, where each
// one starts in `open_`), the steps so far, and the first error.
class Splitter {
 public:
  explicit Splitter(const std::string& text) : text_(text), end_(text.size()) {}

  std::vector<std::string> split(std::string& error) {
    unquote();
    if (!pipeline()) {
      error = error_;
      return {};
    }
    return std::move(steps_);
  }

 private:
  enum class Element { Failed, Pass, Anchor };

  const std::string& text_;
  std::size_t pos_ = 0, end_;
  std::string prefix_ = "--pass-pipeline=";
  std::vector<std::size_t> open_;
  std::vector<std::string> steps_;
  std::size_t steps_text_ = 0;
  std::string error_;

  bool at(char c) const { return pos_ < end_ && text_[pos_] == c; }
  void skip_space() {
    while (pos_ < end_ && space(text_[pos_])) ++pos_;
  }

  // "--pass-pipeline: WHAT at character POS of 'TEXT'NOTE"
  bool fail(const std::string& what, const std::string& note = "") {
    error_ = "--pass-pipeline: " + what + " at character " + std::to_string(pos_) + " of '" + excerpt(text_, pos_) + "'" + note;
    return false;
  }

  // Drops quotes around the whole text (white space outside them aside): offsets stay the text's.
  void unquote() {
    std::size_t first = text_.find_first_not_of(" \t\n\r\f\v"), last = text_.find_last_not_of(" \t\n\r\f\v");
    if (first == std::string::npos || last == first || !quote(text_[first]) || text_[last] != text_[first]) return;
    pos_ = first + 1;
    end_ = last;
  }

  // `op-anchor '(' element-list ')'` and nothing after it.
  bool pipeline() {
    skip_space();
    std::string anchor = name();
    if (anchor.empty()) return fail("expected an op anchor (builtin.module(...))");
    skip_space();
    if (!at('(')) return fail("expected '(' after the op anchor '" + anchor + "'");
    open(anchor);
    if (!lists()) return false;
    skip_space();
    return pos_ == end_ || fail("expected the end of the pipeline after its closing ')'");
  }

  // The element lists from just after the top anchor's '(' to its ')': an anchor's '(' opens its
  // list, a ')' closes the innermost one; each pass is a step.
  bool lists() {
    bool list_start = true;  // `()` is an empty list
    for (;;) {
      skip_space();
      if (!(list_start && at(')'))) {
        Element e = element();
        if (e == Element::Failed) return false;
        list_start = e == Element::Anchor;
        if (list_start) continue;
      }
      skip_space();
      while (at(')')) {
        ++pos_;
        prefix_.resize(open_.back());
        open_.pop_back();
        if (open_.empty()) return true;
        skip_space();
      }
      if (pos_ == end_) return fail("expected ')'", " (" + std::to_string(open_.size()) + " '(' still open)");
      if (!at(',')) return fail("expected ',' or ')'");
      ++pos_;
      list_start = false;
    }
  }

  // `pass-name options?` (a step) or `op-anchor '('` (its list opened).
  Element element() {
    std::size_t start = pos_;
    std::string pass = name();
    if (pass.empty()) {
      fail("expected a pass name");
      return Element::Failed;
    }
    skip_space();
    if (at('(')) {
      open(pass);
      return Element::Anchor;
    }
    if (at('{') && !options(pass)) return Element::Failed;
    return add_step(pass, start) ? Element::Pass : Element::Failed;
  }

  // The anchor `anchor` and the '(' at pos_ that opens its list.
  void open(const std::string& anchor) {
    ++pos_;
    open_.push_back(prefix_.size());
    prefix_ += anchor + "(";
  }

  // The name at pos_ ("" when none is there).
  std::string name() {
    std::size_t start = pos_;
    while (pos_ < end_ && name_char(text_[pos_])) ++pos_;
    return text_.substr(start, pos_ - start);
  }

  // `{...}` appended to `pass` as written, to the brace that closes it. Braces nest; quotes do not
  // hide one: mlir-opt 19 counts the braces alone, and so the step holds the options it reads.
  bool options(std::string& pass) {
    std::size_t first = pos_, depth = 0;
    do {
      if (text_[pos_] == '{') ++depth;
      if (text_[pos_] == '}') --depth;
      ++pos_;
    } while (depth > 0 && pos_ < end_);
    if (depth > 0) return fail("expected '}'", " (the options opened at character " + std::to_string(first) + ")");
    pass += text_.substr(first, pos_ - first);
    return true;
  }

  // `anchor(anchor(pass))` for the anchors open now; past a limit, the error points at the pass.
  bool add_step(const std::string& pass, std::size_t start) {
    std::string step = prefix_ + pass + std::string(open_.size(), ')');
    steps_text_ += step.size();
    if (steps_.size() == kMaxPipelineSteps || steps_text_ > kMaxStepsText) {
      pos_ = start;
      return fail(steps_.size() == kMaxPipelineSteps ? "more than " + std::to_string(kMaxPipelineSteps) + " passes"
                                                     : "more than 64 MiB of steps' text");
    }
    steps_.push_back(std::move(step));
    return true;
  }
};

}  // namespace

std::vector<std::string> split_pass_pipeline(const std::string& text, std::string& error) { return Splitter(text).split(error); }

bool is_pass_pipeline_flag(const std::string& argument) {
  std::size_t dashes = argument.rfind("--", 0) == 0 ? 2 : argument.rfind("-", 0) == 0 ? 1 : 0;
  if (dashes == 0 || argument.compare(dashes, 13, "pass-pipeline") != 0) return false;
  return argument.size() == dashes + 13 || argument[dashes + 13] == '=';
}

std::vector<std::string> argument_steps(const std::vector<std::string>& arguments, std::size_t& i, std::string& error) {
  const std::string& a = arguments[i++];
  if (!is_pass_pipeline_flag(a)) return {a};
  std::size_t eq = a.find('=');
  if (eq != std::string::npos) return split_pass_pipeline(a.substr(eq + 1), error);
  if (i == arguments.size()) {
    error = "'" + a + "': expected the pipeline after it (" + a + " 'builtin.module(...)' or " + a + "=builtin.module(...))";
    return {};
  }
  return split_pass_pipeline(arguments[i++], error);
}

}  // namespace sched::mlir
