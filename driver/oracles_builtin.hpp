// The built-in oracles (oracle.hpp), each defined in the file named beside it and registered, in
// this order, by oracle_registry.cpp.
#pragma once
#include "driver/oracle.hpp"

namespace sched::driver {

Oracle model_oracle();      // oracle_engines.cpp: the reference engine, annotations and outputs
Oracle reference_oracle();  // oracle_engines.cpp: the reference engine alone
Oracle strict_oracle();     // oracle_engines.cpp: the reference engine with strict (ω) races
Oracle fast_oracle();       // oracle_engines.cpp: the parallel engine
Oracle explore_oracle();    // oracle_explore.cpp: the small-step semantics on a small instance
Oracle verify_oracle();     // oracle_verify.cpp: the static verifier, for all parameters
Oracle equiv_oracle();      // oracle_equiv.cpp: a schedule's program against the unscheduled one (campaigns)
Oracle native_oracle();     // oracle_engines.cpp: the generated C++/OpenMP kernel (last: it compiles)
Oracle hazards_oracle();    // oracle_hazards.cpp: sched hazards' intervals against a watched run (not a default)

}  // namespace sched::driver
