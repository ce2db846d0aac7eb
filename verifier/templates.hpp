// Expression contexts with holes (thesis 5.2, "symbolic values"): a symbolic value is an isl
// set whose tuples are named by a template E with n holes, the n set dimensions filling them.
// decompose(t) = E⟨ι1..ιn⟩ turns every affine index (a tensor subscript, an index used as a
// value) into a hole. Templates are interned, so isl compares symbolic values by name.
//
// The verification conditions use the same table: an equation template `E1 = E2` has the holes
// of E1 followed by those of E2.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "interpreter/ast.hpp"
#include "interpreter/value.hpp"

namespace sched::verify {

struct TNode;
using TPtr = std::shared_ptr<const TNode>;

struct TNode {
  enum class K : uint8_t { Hole, Const, Tensor, Un, Bin, Call, Cast, Eq, Opaque };
  K k = K::Const;
  Type type = Type::Invalid;  // the node's type (Int for an index hole, Bool for Eq)
  uint8_t op = 0;             // UnOp / BinOp / Builtin
  int hole = 0;               // Hole: its index; Tensor: index of its first argument hole
  int tensor = -1;            // Tensor: id in Program::tensors (arguments: consecutive holes, or
                              // the kids' values when there are kids: an input read at clamped
                              // subscripts, In(min(max(□0, 0), □1 - 1)), see symbolic.hpp);
                              // Opaque: a serial number (an unannotated write's unknown value)
  int arity = 0;              // Tensor, Opaque: number of arguments
  Value konst;                // Const
  std::vector<TPtr> kids;
};

struct Template {
  TPtr root;
  int holes = 0;
  std::string name;  // isl tuple name: "_E<id>"
  std::string key;   // canonical text (interning key)
};

class Templates {
 public:
  explicit Templates(const Program& p) : prog_(p) {}

  // Interns (root, holes) and returns its id.
  int intern(TPtr root, int holes);
  const Template& at(int id) const { return all_[static_cast<size_t>(id)]; }
  // The id of an isl tuple name, or -1.
  int find(const std::string& tuple_name) const;

  // Builders. Holes of children are renumbered by the caller (shifted).
  static TPtr hole(int i, Type t);
  static TPtr constant(Value v);
  static TPtr tensor(int id, int first_hole, int arity, Type t);
  static TPtr tensor_of(int id, std::vector<TPtr> args, Type t);  // arguments: Int templates
  static TPtr node(TNode::K k, Type t, uint8_t op, std::vector<TPtr> kids);
  static TPtr shifted(const TPtr& t, int by);  // every hole index + by

  // Display with holes written □0, □1, ... or, given texts, substituted.
  std::string show(int id) const;
  std::string show(const TPtr& t, const std::vector<std::string>* hole_text = nullptr) const;

 private:
  std::string key_of(const TPtr& t) const;
  const Program& prog_;
  std::vector<Template> all_;
  std::map<std::string, int> by_key_;
  std::map<std::string, int> by_name_;
};

}  // namespace sched::verify
