#include "c/clang_ast.hpp"

#include <algorithm>

namespace sched::cfront {

namespace {
const json kNull = nullptr;
}

std::string kind(const json& n) { return n.is_object() && n.contains("kind") && n["kind"].is_string() ? n["kind"].get<std::string>() : ""; }

const json& child(const json& n, size_t k) {
  if (!n.is_object() || !n.contains("inner") || !n["inner"].is_array() || k >= n["inner"].size()) return kNull;
  return n["inner"][k];
}

std::vector<const json*> children(const json& n) {
  std::vector<const json*> out;
  if (n.is_object() && n.contains("inner") && n["inner"].is_array())
    for (const auto& c : n["inner"]) out.push_back(&c);
  return out;
}

std::string type_of(const json& n) {
  if (!n.is_object() || !n.contains("type") || !n["type"].is_object()) return "";
  const json& t = n["type"];
  return t.contains("qualType") && t["qualType"].is_string() ? t["qualType"].get<std::string>() : "";
}

std::string decl_id(const json& n) {
  const json& d = n.is_object() && n.contains("referencedDecl") ? n["referencedDecl"] : n;
  return d.is_object() && d.contains("id") && d["id"].is_string() ? d["id"].get<std::string>() : "";
}

std::string decl_name(const json& n) {
  const json& d = n.is_object() && n.contains("referencedDecl") ? n["referencedDecl"] : n;
  return d.is_object() && d.contains("name") && d["name"].is_string() ? d["name"].get<std::string>() : "";
}

namespace {

// The offset of a position object: its own, or its expansion's inside a macro.
size_t offset_in(const json& p) {
  if (!p.is_object()) return std::string::npos;
  if (p.contains("expansionLoc")) return offset_in(p["expansionLoc"]);
  if (p.contains("offset") && p["offset"].is_number_unsigned()) return p["offset"].get<size_t>();
  return std::string::npos;
}

}  // namespace

size_t offset_of(const json& n) {
  if (!n.is_object()) return std::string::npos;
  if (n.contains("range") && n["range"].is_object()) {
    size_t o = offset_in(n["range"].value("begin", json::object()));
    if (o != std::string::npos) return o;
  }
  return n.contains("loc") ? offset_in(n["loc"]) : std::string::npos;
}

Loc position(const json& n, const SourceFile& f) {
  size_t o = offset_of(n);
  if (o == std::string::npos || o > f.text.size()) return {};
  auto it = std::upper_bound(f.line_starts.begin(), f.line_starts.end(), o);
  size_t line = static_cast<size_t>(it - f.line_starts.begin());
  return {static_cast<uint32_t>(line), static_cast<uint32_t>(o - f.line_starts[line - 1] + 1)};
}

std::vector<const json*> declarations(const json& tu, const std::string& file) {
  std::vector<const json*> out;
  std::string current;  // the file clang last named
  for (const json* d : children(tu)) {
    if (!d->is_object()) continue;
    const json& loc = d->value("loc", json::object());
    const json& where = loc.contains("expansionLoc") ? loc["expansionLoc"] : loc.contains("spellingLoc") ? loc["spellingLoc"] : loc;
    if (where.is_object() && where.contains("file") && where["file"].is_string()) current = where["file"].get<std::string>();
    if (current == file && !d->value("isImplicit", false)) out.push_back(d);
  }
  return out;
}

std::vector<const json*> functions(const json& tu, const std::string& file) {
  std::vector<const json*> out;
  for (const json* d : declarations(tu, file))
    if (kind(*d) == "FunctionDecl")
      for (const json* c : children(*d))
        if (kind(*c) == "CompoundStmt") out.push_back(d);
  return out;
}

}  // namespace sched::cfront
