// Adding a front end (driver/frontend.hpp) for real: a test-only front end for `.rows` files
// (lines `NAME = INTEGER`) is registered here and imported the way `sched import` and
// `pysched.import_file` do (front_end_for, import_file): its program loads and runs, its errors
// point into the user's file, and a front end whose text does not load is reported as ours.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <regex>
#include <sstream>

#include "driver/frontend.hpp"
#include "driver/run.hpp"

namespace sched {
namespace {

using driver::Imported;

// `.rows`: each non-blank line `NAME = INTEGER`; the program writes the values, in order, into
// the output `rows`, whose specification is the same list.
Imported import_rows(const driver::ImportRequest& r) {
  Imported i;
  static const std::regex line_re(R"(\s*([A-Za-z_]\w*)\s*=\s*(-?\d{1,9})\s*)");
  std::vector<std::string> values;
  std::istringstream in(r.source->text);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    std::smatch m;
    if (!std::regex_match(line, m, line_re)) {
      size_t col = line.find_first_not_of(" \t") + 1;
      i.status = Imported::Status::BadInput;
      i.messages = fmt::format("{}:{}:{}: error: expected NAME = INTEGER\n  {}\n  {}^\n", r.source->name, n, col, line, std::string(col - 1, ' '));
      return i;
    }
    values.push_back(m[2]);
  }
  if (values.empty()) {
    i.status = Imported::Status::BadInput;
    i.messages = r.source->name + ":1:1: error: expected at least one line NAME = INTEGER\n";
    return i;
  }
  std::string spec = values.back();
  for (size_t k = values.size() - 1; k-- > 0;) spec = fmt::format("select(i == {}, {}, {})", k, values[k], spec);
  i.text = fmt::format("tensor Rows(i) : i32 = {};\noutput rows[i] : i32[{}] = Rows(i);\n", spec, values.size());
  for (size_t k = 0; k < values.size(); ++k) i.text += fmt::format("rows[{}] := {};\n", k, values[k]);
  return i;
}

void register_rows() {
  static const bool once = [] {
    driver::FrontEnd f;
    f.name = "rows";
    f.summary = "NAME = INTEGER lines (a test-only front end)";
    f.extensions = {".rows"};
    f.import = import_rows;
    driver::register_front_end(std::move(f));
    driver::FrontEnd broken;  // its text never loads: our error, not the user's
    broken.name = "broken";
    broken.import = [](const driver::ImportRequest&) {
      Imported i;
      i.text = "output x[] : i32[] = ;\n";
      return i;
    };
    driver::register_front_end(std::move(broken));
    return true;
  }();
  (void)once;
}

std::shared_ptr<SourceFile> file(const std::string& name, const std::string& text) { return std::make_shared<SourceFile>(name, text); }

TEST(FrontEnd, ARegisteredFrontEndImportsByExtension) {
  register_rows();
  const driver::FrontEnd* f = driver::front_end_for("dir/x.rows");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->name, "rows");
  EXPECT_EQ(driver::front_end_for("x.unknown"), nullptr);
  EXPECT_EQ(driver::front_end_for("x.algo")->name, "sched");  // the first registered for .algo
  EXPECT_NE(driver::front_end_list().find("rows (.rows)"), std::string::npos) << driver::front_end_list();
  driver::ImportRequest r;
  r.source = file("x.rows", "a = 3\n\nb = -4\nc = 7\n");
  Imported i = driver::import_file(*f, r);
  ASSERT_EQ(i.status, Imported::Status::Ok) << i.messages;
  ASSERT_TRUE(i.program.has_value());
  std::string err;
  auto inst = driver::make_instance(*i.program, std::vector<std::string>{}, {}, 1, {}, err);
  ASSERT_TRUE(inst) << err;
  driver::EngineRun run = driver::run(driver::Engine::Reference, *inst, {});
  EXPECT_TRUE(run.outcome.ok()) << run.outcome.message;
  EXPECT_TRUE(run.compared);
}

TEST(FrontEnd, ErrorsPointIntoTheUsersFile) {
  register_rows();
  driver::ImportRequest r;
  r.source = file("y.rows", "a = 3\n  b := 4\n");
  Imported i = driver::import_file(*driver::find_front_end("rows"), r);
  EXPECT_EQ(i.status, Imported::Status::BadInput);
  EXPECT_EQ(i.messages, "y.rows:2:3: error: expected NAME = INTEGER\n    b := 4\n    ^\n");
  EXPECT_FALSE(i.program.has_value());
}

TEST(FrontEnd, AFrontEndsUnloadableTextIsOurError) {
  register_rows();
  driver::ImportRequest r;
  r.source = file("z.any", "whatever");
  Imported i = driver::import_file(*driver::find_front_end("broken"), r);
  EXPECT_EQ(i.status, Imported::Status::BadInput);
  EXPECT_NE(i.messages.find("internal error: the lowered program does not load (broken front end)"), std::string::npos) << i.messages;
  EXPECT_THROW(driver::register_front_end(driver::FrontEnd{}), std::invalid_argument);
  driver::FrontEnd again;
  again.name = "sched";
  again.import = import_rows;
  EXPECT_THROW(driver::register_front_end(std::move(again)), std::invalid_argument);
}

TEST(FrontEnd, TheSchedulerFrontEndLowersAnAlgorithm) {
  driver::ImportRequest r;
  r.source = file("m.algo", "param N;\ninput A(i) : f32[N];\nfunc B(i) : f32 = A(i) * 2;\noutput B : [N];\n");
  Imported i = driver::import_file(*driver::find_front_end("sched"), r);
  ASSERT_EQ(i.status, Imported::Status::Ok) << i.messages;
  EXPECT_NE(i.text.find("lowered by `sched lower`"), std::string::npos);
  r.source = file("m.algo", "param N;\nfunc B(i) : f32 = Q(i);\n");
  Imported bad = driver::import_file(*driver::find_front_end("sched"), r);
  EXPECT_EQ(bad.status, Imported::Status::BadInput);
  EXPECT_NE(bad.messages.find("m.algo:2:"), std::string::npos) << bad.messages;
}

}  // namespace
}  // namespace sched
