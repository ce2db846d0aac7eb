// The mutators of visit.hpp.
#include "interpreter/visit.hpp"

namespace sched {

void substitute(ExprPtr& e, const std::string& name, const Expr& value) {
  if (!e) return;
  if (e->kind == ExprKind::Var && e->name == name) {
    e = value.clone();
    return;
  }
  each_child(*e, [&](ExprPtr& x, Part, bool bound) {
    if (!bound || !binds(*e, name)) substitute(x, name, value);
  });
}

void substitute(CmdPtr& c, const std::string& name, const Expr& value) {
  if (!c) return;
  each_child(*c, [&](ExprPtr& x, Part, bool) { substitute(x, name, value); },
             [&](CmdPtr& x, Part, bool bound) {
               if (!bound || !binds(*c, name)) substitute(x, name, value);
             });
}

}  // namespace sched
