// The C front end (docs/c.md): `sched import k.c`, and every command given a `.c` file, read C
// with OpenMP through clang. Clang parses the file in a child (`clang -Xclang -ast-dump=json
// -fsyntax-only -fopenmp`, Debian's /usr/bin/clang, with time and memory limits); its syntax
// tree is translated here (translate.hpp). A file clang rejects is bad input with clang's own
// file:line:col messages; a construct the translation does not take is bad input naming it.
#pragma once
#include <string>

#include "driver/frontend.hpp"

namespace sched::cfront {

// The clang the front end runs ("" with `why` when there is none it may run).
std::string clang_path(std::string& why);

driver::Imported import(const std::string& file, const std::string& function, double timeout_s);

// Registers the front end `c` (.c files).
void register_front_end();

}  // namespace sched::cfront
