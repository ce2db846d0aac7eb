// Runs a SCHED program through the installed library: consumer FILE N=V ... -> prints the outcome.
#include <iostream>
#include <string>
#include <vector>

#include "driver/exit_codes.hpp"
#include "driver/run.hpp"
#include "interpreter/load.hpp"

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  sched::Loaded l = sched::load_file(argv[1]);
  if (l.stage != sched::LoadStage::Ok) {
    std::cerr << l.diagnostics;
    return 2;
  }
  std::vector<std::string> params(argv + 2, argv + argc);
  std::string err;
  auto inst = sched::driver::make_instance(*l.program, params, {}, 1, {}, err);
  if (!inst) {
    std::cerr << "error: " << err << "\n";
    return 2;
  }
  sched::driver::EngineRun r = sched::driver::run(sched::driver::Engine::Fast, *inst, {});
  std::cout << r.outcome.render(sched::Diagnostics(l.program->file));
  return sched::driver::exit_code(r.outcome.kind);
}
