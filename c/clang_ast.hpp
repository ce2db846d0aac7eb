// Clang's syntax tree of a C file, as `clang -Xclang -ast-dump=json` prints it: the nodes the C
// front end reads, and where each one is in the user's file.
//
// Clang prints a node's position as a byte offset (`range.begin.offset`; for a declaration
// `loc.offset`), and inside a macro expansion as `expansionLoc`; lines and files are left out
// when they repeat, so positions are computed here from the offset and the file's own text.
// Declarations of included headers carry `includedFrom` where their file starts: the top-level
// declarations of the user's file are the ones read while the last named file is the user's.
//
//   const json& main = *find_function(tu, "main", "k.c");
//   for (const json& s : children(body_of(main))) ... kind(s) == "ForStmt" ...
//   Loc at = position(s, file);   // line and column in k.c
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "interpreter/source.hpp"

namespace sched::cfront {

using json = nlohmann::json;

std::string kind(const json& n);           // "ForStmt", "" for a node without a kind (an OpenMP clause)
const json& child(const json& n, size_t k);  // the k-th child (a null node when there is none)
std::vector<const json*> children(const json& n);  // every child, null ones included as null nodes
std::string type_of(const json& n);        // its type as written ("int[1000]", "double")
std::string decl_id(const json& n);        // a declaration's id, or the id a reference refers to
std::string decl_name(const json& n);      // a declaration's name, or the name a reference refers to
// The byte offset where a node starts in the file (its expansion, inside a macro), or npos.
size_t offset_of(const json& n);
Loc position(const json& n, const SourceFile& f);  // {0, 0} when clang gave none

// The top-level declarations of the user's file, in order.
std::vector<const json*> declarations(const json& tu, const std::string& file);
// The definitions of functions (with a body) in the user's file, in order.
std::vector<const json*> functions(const json& tu, const std::string& file);

}  // namespace sched::cfront
