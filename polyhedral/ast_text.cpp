// isl's AST expressions as SCHED text (ast_text.hpp).
#include "polyhedral/ast_text.hpp"

#include <fmt/format.h>
#include <isl/id.h>
#include <isl/val.h>

#include <vector>

namespace sched::poly {

std::optional<std::string> ast_text(isl_ast_expr* e) {
  switch (isl_ast_expr_get_type(e)) {
    case isl_ast_expr_id: {
      isl_id* id = isl_ast_expr_get_id(e);
      const char* n = isl_id_get_name(id);
      std::string s = n ? n : "(unnamed)";
      isl_id_free(id);
      return s;
    }
    case isl_ast_expr_int: {
      isl_val* v = isl_ast_expr_get_val(e);
      long long x = isl_val_get_num_si(v);
      isl_val_free(v);
      return x < 0 ? fmt::format("({})", x) : fmt::format("{}", x);
    }
    case isl_ast_expr_op: {
      int n = static_cast<int>(isl_ast_expr_op_get_n_arg(e));
      std::vector<std::string> a;
      for (int i = 0; i < n; ++i) {
        isl_ast_expr* x = isl_ast_expr_op_get_arg(e, i);
        std::optional<std::string> t = ast_text(x);
        isl_ast_expr_free(x);
        if (!t) return std::nullopt;
        a.push_back(*t);
      }
      auto infix = [&](const char* op) {
        std::string s = a[0];
        for (size_t i = 1; i < a.size(); ++i) s = fmt::format("({} {} {})", s, op, a[i]);
        return s;
      };
      auto nary = [&](const char* f) {
        std::string s = a[0];
        for (size_t i = 1; i < a.size(); ++i) s = fmt::format("{}({}, {})", f, s, a[i]);
        return s;
      };
      switch (isl_ast_expr_op_get_type(e)) {
        case isl_ast_expr_op_and:
        case isl_ast_expr_op_and_then: return infix("&&");
        case isl_ast_expr_op_or:
        case isl_ast_expr_op_or_else: return infix("||");
        case isl_ast_expr_op_max: return nary("max");
        case isl_ast_expr_op_min: return nary("min");
        case isl_ast_expr_op_minus: return fmt::format("(-{})", a[0]);
        case isl_ast_expr_op_add: return infix("+");
        case isl_ast_expr_op_sub: return infix("-");
        case isl_ast_expr_op_mul: return infix("*");
        case isl_ast_expr_op_div:
        case isl_ast_expr_op_fdiv_q:
        case isl_ast_expr_op_pdiv_q: return infix("/");  // SCHED's / is floor division by a positive constant
        case isl_ast_expr_op_pdiv_r:
        case isl_ast_expr_op_zdiv_r: return infix("%");
        case isl_ast_expr_op_cond:
        case isl_ast_expr_op_select: return fmt::format("select({}, {}, {})", a[0], a[1], a[2]);
        case isl_ast_expr_op_eq: return infix("==");
        case isl_ast_expr_op_le: return infix("<=");
        case isl_ast_expr_op_lt: return infix("<");
        case isl_ast_expr_op_ge: return infix(">=");
        case isl_ast_expr_op_gt: return infix(">");
        default: break;
      }
      break;
    }
    default: break;
  }
  return std::nullopt;
}

}  // namespace sched::poly
