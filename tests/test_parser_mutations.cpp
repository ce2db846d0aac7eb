// Thousands of mutated example files fed to the parser and type checker: never a crash, every
// rejection carries a diagnostic, and whatever parses still prints and re-parses to the same tree.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>

#include "tests/test_util.hpp"

using namespace sched;

namespace {

std::vector<std::string> corpus() {
  std::vector<std::string> r;
  for (const auto& e : std::filesystem::directory_iterator(SCHED_EXAMPLES_DIR)) {
    if (e.path().extension() != ".sched") continue;
    std::ifstream in(e.path());
    std::stringstream ss;
    ss << in.rdbuf();
    r.push_back(ss.str());
  }
  return r;
}

const char* kTokens[] = {"(", ")", "[", "]", "{", "}", ",", ";", ":", ":=", "=", "+", "-", "*", "/", "%", "==", "<",
                         "<=", "&&", "||", "!", "|", "\n", " ", "let ", " in ", "for ", "par ", "if ", "else ", "allocate ",
                         "skip", "param ", "tensor ", "input ", "array ", "output ", "assume ", " to ", "x", "N", "0", "-1",
                         "1.5", "9223372036854775808", "1e999", "f32", "i8", "select(", "min(", "/*", "*/", "//", "\xff",
                         "a[", "A(", "true", "\t", "__"};

std::string mutate(std::string s, std::mt19937_64& rng) {
  auto pick = [&](size_t n) { return n == 0 ? size_t{0} : static_cast<size_t>(rng() % n); };
  int n = 1 + static_cast<int>(rng() % 4);
  for (int k = 0; k < n; ++k) {
    size_t at = pick(s.size() + 1);
    switch (rng() % 7) {
      case 0: s.erase(at, 1 + pick(8)); break;                                     // delete a few bytes
      case 1: s.insert(at, kTokens[pick(std::size(kTokens))]); break;               // insert a token
      case 2: s.insert(at, 1, static_cast<char>(rng() & 0xff)); break;              // a random byte
      case 3: { size_t b = pick(s.size() + 1); size_t len = pick(40); if (b < s.size()) s.insert(at, s.substr(b, len)); break; }
      case 4: s.resize(at); break;                                                  // truncate
      case 5: if (at < s.size()) s[at] = kTokens[pick(std::size(kTokens))][0]; break;
      default: { size_t b = pick(s.size() + 1); if (at < s.size() && b < s.size()) std::swap(s[at], s[b]); break; }
    }
  }
  return s;
}

}  // namespace

TEST(ParserMutations, NeverCrashAndAlwaysExplain) {
  auto files = corpus();
  ASSERT_FALSE(files.empty());
  std::mt19937_64 rng(20261121);
  const int kCases = 4000;
  int parsed = 0, typed = 0, rejected = 0;
  for (int i = 0; i < kCases; ++i) {
    std::string text = mutate(files[static_cast<size_t>(rng() % files.size())], rng);
    Loaded l = load_text(text, "mut.sched");
    if (l.stage == LoadStage::Ok) ++typed;
    if (l.program) {
      ++parsed;
      std::string printed = print_program(*l.program);
      Loaded again = load_text(printed, "reprinted.sched", false);
      ASSERT_TRUE(again.program) << "a parsed mutant does not re-parse after printing:\n" << printed << again.diagnostics;
      ASSERT_TRUE(equal(*l.program, *again.program)) << printed;
    }
    if (l.stage != LoadStage::Ok) {
      ++rejected;
      ASSERT_NE(l.diagnostics.find("mut.sched:"), std::string::npos) << "a rejection without a positioned diagnostic";
    }
  }
  std::cout << "[mutations] " << kCases << " mutants: " << parsed << " parsed, " << typed << " type-checked, " << rejected
            << " rejected with diagnostics\n";
  EXPECT_GT(rejected, kCases / 4);
  EXPECT_GT(parsed, 0);
}
