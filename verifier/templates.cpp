#include "verifier/templates.hpp"

#include <fmt/format.h>

namespace sched::verify {

TPtr Templates::hole(int i, Type t) {
  auto n = std::make_shared<TNode>();
  n->k = TNode::K::Hole;
  n->type = t;
  n->hole = i;
  return n;
}

TPtr Templates::constant(Value v) {
  auto n = std::make_shared<TNode>();
  n->k = TNode::K::Const;
  n->type = v.type;
  n->konst = v;
  return n;
}

TPtr Templates::tensor(int id, int first_hole, int arity, Type t) {
  auto n = std::make_shared<TNode>();
  n->k = TNode::K::Tensor;
  n->type = t;
  n->tensor = id;
  n->hole = first_hole;
  n->arity = arity;
  return n;
}

TPtr Templates::tensor_of(int id, std::vector<TPtr> args, Type t) {
  auto n = std::make_shared<TNode>();
  n->k = TNode::K::Tensor;
  n->type = t;
  n->tensor = id;
  n->arity = static_cast<int>(args.size());
  n->kids = std::move(args);
  return n;
}

TPtr Templates::node(TNode::K k, Type t, uint8_t op, std::vector<TPtr> kids) {
  auto n = std::make_shared<TNode>();
  n->k = k;
  n->type = t;
  n->op = op;
  n->kids = std::move(kids);
  return n;
}

TPtr Templates::shifted(const TPtr& t, int by) {
  if (by == 0) return t;
  auto n = std::make_shared<TNode>(*t);
  if (t->k == TNode::K::Hole || t->k == TNode::K::Tensor || t->k == TNode::K::Opaque) n->hole += by;
  for (auto& c : n->kids) c = shifted(c, by);
  return n;
}

std::string Templates::key_of(const TPtr& t) const {
  std::string ty(type_name(t->type));
  switch (t->k) {
    case TNode::K::Hole: return fmt::format("#{}:{}", t->hole, ty);
    case TNode::K::Const: return fmt::format("c:{}:{:x}", ty, t->konst.bits());
    case TNode::K::Tensor: {
      if (t->kids.empty()) return fmt::format("T{}@{}/{}", t->tensor, t->hole, t->arity);
      std::string s = fmt::format("T{}(", t->tensor);
      for (const auto& c : t->kids) s += key_of(c) + ' ';
      return s + ")";
    }
    case TNode::K::Opaque: return fmt::format("?{}:{}@{}/{}", t->tensor, ty, t->hole, t->arity);
    default: {
      std::string s = fmt::format("({}:{}:{}", static_cast<int>(t->k), static_cast<int>(t->op), ty);
      for (const auto& c : t->kids) {
        s += ' ';
        s += key_of(c);
      }
      return s + ")";
    }
  }
}

int Templates::intern(TPtr root, int holes) {
  std::string key = fmt::format("{}|{}", holes, key_of(root));
  if (auto it = by_key_.find(key); it != by_key_.end()) return it->second;
  int id = static_cast<int>(all_.size());
  std::string name = fmt::format("_E{}", id);
  all_.push_back({std::move(root), holes, name, key});
  by_key_[key] = id;
  by_name_[name] = id;
  return id;
}

int Templates::find(const std::string& tuple_name) const {
  auto it = by_name_.find(tuple_name);
  return it == by_name_.end() ? -1 : it->second;
}

std::string Templates::show(int id) const { return show(at(id).root); }

std::string Templates::show(const TPtr& t, const std::vector<std::string>* ht) const {
  auto hole_text = [&](int i) {
    if (ht && static_cast<size_t>(i) < ht->size()) return (*ht)[static_cast<size_t>(i)];
    return fmt::format("□{}", i);
  };
  auto paren = [&](const TPtr& c) {
    std::string s = show(c, ht);
    bool simple = c->k == TNode::K::Hole || c->k == TNode::K::Const || c->k == TNode::K::Tensor || c->k == TNode::K::Opaque ||
                  c->k == TNode::K::Call || c->k == TNode::K::Cast;
    return simple ? s : "(" + s + ")";
  };
  switch (t->k) {
    case TNode::K::Hole: return hole_text(t->hole);
    case TNode::K::Const: return to_string(t->konst);
    case TNode::K::Tensor: {
      std::string s = prog_.tensors[static_cast<size_t>(t->tensor)].name + "(";
      for (int i = 0; i < t->arity; ++i) s += (i ? ", " : "") + (t->kids.empty() ? hole_text(t->hole + i) : show(t->kids[static_cast<size_t>(i)], ht));
      return s + ")";
    }
    case TNode::K::Opaque: {
      std::string s = fmt::format("unannotated#{}(", t->tensor);
      for (int i = 0; i < t->arity; ++i) s += (i ? ", " : "") + hole_text(t->hole + i);
      return s + ")";
    }
    case TNode::K::Un: return std::string(op_text(static_cast<UnOp>(t->op))) + paren(t->kids[0]);
    case TNode::K::Bin:
      return paren(t->kids[0]) + " " + std::string(op_text(static_cast<BinOp>(t->op))) + " " + paren(t->kids[1]);
    case TNode::K::Eq: return show(t->kids[0], ht) + " = " + show(t->kids[1], ht);
    case TNode::K::Cast: return std::string(type_name(t->type)) + "(" + show(t->kids[0], ht) + ")";
    case TNode::K::Call: {
      std::string s = std::string(builtin_name(static_cast<Builtin>(t->op))) + "(";
      for (size_t i = 0; i < t->kids.size(); ++i) s += (i ? ", " : "") + show(t->kids[i], ht);
      return s + ")";
    }
  }
  return "?";
}

}  // namespace sched::verify
