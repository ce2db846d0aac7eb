// The words of SCHED a front end must not give one of its names (a func, a parameter, a
// variable of an `.algo` file becomes a SCHED identifier in the lowered program):
//
//   reserved_word("par")  == "a keyword"          reserved_word("sqrt") == "a builtin function"
//   reserved_word("i32")  == "a type"             reserved_word("sum")  == "a reduction"
//   reserved_word("blur") == nullptr
//
// A func named `min` would print as the builtin and the lowered program would not load: the
// front end refuses it at its name instead (exit 2, with the position in the user's file).
#pragma once
#include <string_view>

namespace sched {

const char* reserved_word(std::string_view s);

}  // namespace sched
