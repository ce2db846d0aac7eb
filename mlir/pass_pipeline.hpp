// mlir-opt's `--pass-pipeline` split into its passes, one step per pass (`sched mlir`'s steps,
// mlir/pipeline.hpp). Each step is itself a `--pass-pipeline=` argument for MLIR 19's mlir-opt that
// runs that one pass nested under the same op anchors, in the pipeline's order:
//
//   --pass-pipeline=builtin.module(func.func(affine-loop-tile{tile-size=4}, canonicalize),
//                     affine-loop-fusion{mode=greedy fusion-maximal}, func.func(affine-scalrep))
//   -> --pass-pipeline=builtin.module(func.func(affine-loop-tile{tile-size=4}))
//      --pass-pipeline=builtin.module(func.func(canonicalize))
//      --pass-pipeline=builtin.module(affine-loop-fusion{mode=greedy fusion-maximal})
//      --pass-pipeline=builtin.module(func.func(affine-scalrep))
//
// The text is MLIR's grammar: `pipeline ::= op-anchor '(' element-list ')'`, `element ::= pass-name
// options? | op-anchor '(' element-list ')'`, the lists comma-separated, whitespace allowed between
// tokens. A pass's options `{...}` are copied as written up to the brace that closes them: braces
// nest, and commas, parentheses, spaces and quoted strings inside are the options' own. Quotes do
// not hide a brace (`{s="}"}` closes at the first `}`), as mlir-opt 19 reads them. An anchor with
// an empty list, `func.func()`, gives no step. Quotes (' or ") around the whole text, left in when
// the arguments come through a file, are dropped. A malformed text gives no step and an `error`
// that says what was expected and where: the 0-based character offset in the text as given (a text
// over 200 characters is quoted around it). At most kMaxPipelineSteps passes, and 64 MiB of steps'
// text, else an error:
//
//   --pass-pipeline: expected ',' or ')' at character 28 of 'builtin.module(canonicalize cse)'
//
// Nothing here includes MLIR or LLVM: plain C++, so the tests build it without them.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace sched::mlir {

// At most this many steps come of one pipeline (and of all the user's arguments: pipeline.cpp).
inline constexpr std::size_t kMaxPipelineSteps = 10'000;

// The steps of the pipeline `text` (what follows `--pass-pipeline=`), or {} with `error`.
std::vector<std::string> split_pass_pipeline(const std::string& text, std::string& error);

// Whether `argument` is the pipeline flag: `--pass-pipeline=TEXT`, `-pass-pipeline=TEXT`, or
// `--pass-pipeline` / `-pass-pipeline` alone (its text is then the next argument).
bool is_pass_pipeline_flag(const std::string& argument);

// The steps of the flag at arguments[i], `i` moved past what it read: a pipeline flag's passes
// (the two-argument form reads the next argument too), any other argument one step as given.
//
//   {"--pass-pipeline", "builtin.module(cse,canonicalize)"}, i = 0
//     -> {"--pass-pipeline=builtin.module(cse)", "--pass-pipeline=builtin.module(canonicalize)"}, i = 2
//   {"--affine-loop-unroll"}, i = 0  ->  {"--affine-loop-unroll"}, i = 1
std::vector<std::string> argument_steps(const std::vector<std::string>& arguments, std::size_t& i, std::string& error);

}  // namespace sched::mlir
