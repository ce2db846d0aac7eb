# What the build spends its time on, and two ways it spends less (docs/testing.md has the figures).
#
# The CI builds the product four times on 2 cores, and a build is mostly spent parsing the same
# third-party headers (CLI11, fmt, nlohmann-json, GoogleTest, RapidCheck, z3, isl, Halide) in every
# file and optimising code whose speed nobody measures.
#
#   sched_precompile(TARGET [HEADERS...])  precompiles the common headers (below) and HEADERS once
#       for TARGET (CMake's target_precompile_headers); off with -DSCHED_PCH=OFF.
#   sched_glue(TARGET)  TARGET's own code runs once per command or per test case (argument
#       parsing, printing, a test's body): optimised builds compile it at -O1, not -O3. The
#       libraries it calls keep their optimisation; an engine's, the verifier's and the native
#       code's speed are not affected.
option(SCHED_PCH "Precompile the third-party headers of the largest targets" ON)
set(SCHED_PCH_COMMON <string> <vector> <map> <set> <optional> <functional> <algorithm> <memory>
                     <fmt/format.h> <nlohmann/json.hpp>)

function(sched_precompile target)
  if(SCHED_PCH)
    target_precompile_headers(${target} PRIVATE ${SCHED_PCH_COMMON} ${ARGN})
  endif()
endfunction()

function(sched_glue target)
  target_compile_options(${target} PRIVATE $<$<CONFIG:Release,RelWithDebInfo,MinSizeRel>:-O1>)
endfunction()
