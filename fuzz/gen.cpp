#include "fuzz/gen.hpp"

#include <fmt/format.h>

namespace sched::fuzz {
namespace {

struct ArrayInfo { std::string name; Type elem; size_t rank; };
struct TensorInfo { std::string name; Type type; size_t rank; };

// Whether an expression mentions a variable or reads memory. A constant expression takes its
// type from context (like a literal), so the generator only emits constant subexpressions
// where their context type is the intended one.
bool has_var_or_read(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Var: case ExprKind::ArrayRead: case ExprKind::TensorRead: return true;
    case ExprKind::Call:  // mirrors the type checker: a select's condition does not count
      if (e.fn == Builtin::Select) return has_var_or_read(*e.args[1]) || has_var_or_read(*e.args[2]);
      break;
    case ExprKind::Let: return has_var_or_read(*e.args[1]);
    default: break;
  }
  for (const auto& a : e.args) if (has_var_or_read(*a)) return true;
  return false;
}

class Builder {
 public:
  Builder(const GenOptions& o, GenInfo& info) : o_(o), info_(info) {}

  Program program() {
    Program p;
    int np = *rc::gen::inRange(1, 3);
    for (int i = 0; i < np; ++i) {
      std::string n = i == 0 ? "N" : "M";
      p.params.push_back({n, {}, {}, std::nullopt});
      params_.push_back(n);
    }
    // assume every parameter is small and positive
    ExprPtr a;
    for (const auto& n : params_) {
      auto c = make_binary(BinOp::Ge, make_var(n), make_int(1));
      a = a ? make_binary(BinOp::And, std::move(a), std::move(c)) : std::move(c);
    }
    p.assumes.push_back(std::move(a));
    // input tensors of several types, and arrays
    std::vector<Type> types = {Type::I32, Type::U8, Type::I64};
    if (o_.floats) { types.push_back(Type::F32); types.push_back(Type::F64); }
    int nt = *rc::gen::inRange(1, 4);
    for (int t = 0; t < nt; ++t) {
      TensorDecl td;
      td.name = fmt::format("T{}", t);
      td.type = *rc::gen::elementOf(types);
      size_t rank = *rc::gen::inRange<size_t>(0, 3);
      for (size_t k = 0; k < rank; ++k) td.idx.push_back(fmt::format("i{}", k));
      tensors_.push_back({td.name, td.type, rank});
      p.tensors.push_back(std::move(td));
    }
    // a defined tensor: pointwise function of an input tensor (exercises the prophetic checker)
    {
      const TensorInfo& src = tensors_[0];
      TensorDecl td;
      td.name = "D";
      td.type = src.type;
      for (size_t k = 0; k < src.rank; ++k) td.idx.push_back(fmt::format("i{}", k));
      std::vector<ExprPtr> args;
      for (size_t k = 0; k < src.rank; ++k) args.push_back(make_var(td.idx[k]));
      td.cases.push_back({make_binary(BinOp::Add, make_access(ExprKind::TensorRead, src.name, std::move(args)), lit(src.type)), nullptr});
      tensors_.push_back({td.name, td.type, src.rank});
      p.tensors.push_back(std::move(td));
    }
    int na = *rc::gen::inRange(1, 4);
    for (int ai = 0; ai < na; ++ai) {
      ArrayDecl ad;
      ad.name = fmt::format("a{}", ai);
      const TensorInfo& t = tensors_[static_cast<size_t>(*rc::gen::inRange<int>(0, static_cast<int>(tensors_.size())))];
      ad.elem = t.type;
      int role = *rc::gen::inRange(0, 3);
      ad.role = role == 0 ? ArrayRole::Input : role == 1 ? ArrayRole::Output : ArrayRole::Scratch;
      for (size_t k = 0; k < t.rank; ++k) ad.dims.push_back(size_expr());
      if (ad.role != ArrayRole::Scratch) {
        std::vector<ExprPtr> args;
        for (size_t k = 0; k < t.rank; ++k) {
          ad.idx.push_back(fmt::format("i{}", k));
          args.push_back(make_var(ad.idx.back()));
        }
        ad.init = make_access(ExprKind::TensorRead, t.name, std::move(args));
      }
      arrays_.push_back({ad.name, ad.elem, t.rank});
      p.arrays.push_back(std::move(ad));
    }
    p.body = block(0);
    if (o_.racy) {
      std::vector<CmdPtr> cs;
      cs.push_back(std::move(p.body));
      for (auto& c : race_pattern()) cs.push_back(std::move(c));
      p.body = make_seq(std::move(cs));
      ++info_.pars;
      ++info_.assignments;
    }
    return p;
  }

 private:
  const GenOptions& o_;
  GenInfo& info_;
  std::vector<std::string> params_;
  std::vector<std::string> vars_;   // loop and let variables in scope (index type)
  std::vector<ArrayInfo> arrays_;   // arrays in scope (globals then allocations)
  std::vector<TensorInfo> tensors_;
  int fresh_ = 0;

  // The cell a0[0, ..] (a0 exists: every program declares at least one array).
  ExprPtr cell0(ExprKind k = ExprKind::ArrayRead) {
    const ArrayInfo& a = arrays_[0];
    std::vector<ExprPtr> sub;
    for (size_t k2 = 0; k2 < a.rank; ++k2) sub.push_back(make_int(0));
    return make_access(k, a.name, std::move(sub));
  }
  CmdPtr write0(ExprPtr v) {
    auto target = cell0();
    return make_assign(target->name, std::move(target->args), nullptr, std::move(v));
  }
  static std::vector<CmdPtr> one(CmdPtr c) {
    std::vector<CmdPtr> v;
    v.push_back(std::move(c));
    return v;
  }

  // A race appended on purpose (GenInfo::race_kind says which).
  std::vector<CmdPtr> race_pattern() {
    const ArrayInfo& a = arrays_[0];
    int kind = *rc::gen::inRange(0, 5);
    int64_t n = *rc::gen::inRange<int64_t>(2, 4);
    auto par = [&](const char* x, int64_t count, CmdPtr body) { return make_loop(CmdKind::Par, x, nullptr, make_int(count), std::move(body)); };
    switch (kind) {
      case 0:  // par kR < n { a0[0..] := kR }: the last writer decides the final value
        info_.race_kind = "write-write";
        info_.injected_race = true;
        return one(par("kR", n, write0(make_var("kR"))));
      case 1: {  // a0[0..] := 1; par kR < 2 { if kR == 0 { a0[0..] := 2 } else { allocate tR { tR[] := a0[0..] } } }
        info_.race_kind = "read-write";
        std::vector<CmdPtr> cs;
        cs.push_back(write0(lit(a.elem)));
        std::vector<ExprPtr> none;
        auto copy = make_assign("tR", std::move(none), nullptr, cell0());
        auto alloc = make_alloc("tR", a.elem, {}, std::move(copy));
        auto branch = make_if(make_binary(BinOp::Eq, make_var("kR"), make_int(0)), write0(lit(a.elem)), std::move(alloc));
        cs.push_back(par("kR", 2, std::move(branch)));
        return cs;
      }
      case 2:  // par kR < n { a0[0..] := c }: a benign race (same value)
        info_.race_kind = "benign";
        return one(par("kR", n, write0(lit(a.elem))));
      case 3: {  // par kR < n { a0[0..] := kR; a0[0..] := c }: covered (the thesis accepts it, strict rejects it)
        info_.race_kind = "covered";
        std::vector<CmdPtr> body;
        body.push_back(write0(make_var("kR")));
        body.push_back(write0(lit(a.elem)));
        return one(par("kR", n, make_seq(std::move(body))));
      }
      default:  // par kR < 2 { par mR < n { a0[0..] := mR } }: a race of the inner loop
        info_.race_kind = "nested";
        return one(par("kR", 2, par("mR", n, write0(make_var("mR")))));
    }
  }

  std::string fresh(const char* base) { return fmt::format("{}{}", base, fresh_++); }

  ExprPtr size_expr() {
    // a size in parameters: N, N + 2, 3, ...
    switch (*rc::gen::inRange(0, 3)) {
      case 0: return make_int(*rc::gen::inRange<int64_t>(1, 5));
      case 1: return make_var(*rc::gen::elementOf(params_));
      default: return make_binary(BinOp::Add, make_var(*rc::gen::elementOf(params_)), make_int(*rc::gen::inRange<int64_t>(0, 3)));
    }
  }

  ExprPtr lit(Type t) {
    if (is_float(t)) {
      double v = static_cast<double>(*rc::gen::inRange(-40, 41)) / 8.0;
      return make_float(v);
    }
    if (is_unsigned_int(t)) return make_int(*rc::gen::inRange<int64_t>(0, 100));
    return make_int(*rc::gen::inRange<int64_t>(-100, 100));
  }

  ExprPtr index(int depth) {
    int choice = *rc::gen::inRange(0, depth <= 0 ? 3 : 11);
    switch (choice) {
      case 0: return make_int(*rc::gen::inRange<int64_t>(-3, 8));
      case 1: return make_var(*rc::gen::elementOf(params_));
      case 2: return vars_.empty() ? make_int(0) : make_var(*rc::gen::elementOf(vars_));
      case 3: return make_binary(BinOp::Add, index(depth - 1), index(depth - 1));
      case 4: return make_binary(BinOp::Sub, index(depth - 1), index(depth - 1));
      case 5: {
        auto c = make_int(*rc::gen::inRange<int64_t>(-3, 4));
        return *rc::gen::arbitrary<bool>() ? make_binary(BinOp::Mul, std::move(c), index(depth - 1))
                                            : make_binary(BinOp::Mul, index(depth - 1), std::move(c));
      }
      case 6: return make_binary(*rc::gen::element(BinOp::Div, BinOp::Mod), index(depth - 1), make_int(*rc::gen::inRange<int64_t>(1, 5)));
      case 7: {
        std::vector<ExprPtr> a;
        a.push_back(index(depth - 1));
        a.push_back(index(depth - 1));
        return make_call(*rc::gen::element(std::string("min"), std::string("max")), std::move(a));
      }
      case 8: {
        std::vector<ExprPtr> a;
        a.push_back(cond(depth - 1));
        a.push_back(index(depth - 1));
        a.push_back(index(depth - 1));
        return make_call("select", std::move(a));
      }
      case 9: {
        if (!o_.nonaffine) return index(depth - 1);
        info_.intended_affine = false;
        // parameter times parameter, or division by a parameter
        if (*rc::gen::arbitrary<bool>())
          return make_binary(BinOp::Mul, make_var(*rc::gen::elementOf(params_)), make_var(*rc::gen::elementOf(params_)));
        return make_binary(BinOp::Div, index(depth - 1), make_var(*rc::gen::elementOf(params_)));
      }
      default: {
        std::string x = fresh("x");
        auto v = index(depth - 1);
        vars_.push_back(x);
        auto b = index(depth - 1);
        vars_.pop_back();
        return make_let_expr(x, std::move(v), std::move(b));
      }
    }
  }

  ExprPtr cond(int depth) {
    int choice = *rc::gen::inRange(0, depth <= 0 ? 2 : 6);
    switch (choice) {
      case 0: return make_bool(*rc::gen::arbitrary<bool>());
      case 5: {
        // a bounds guard lo <= e && e < hi, as padded stencils and convolutions test their
        // neighbours (true on the interior, false near the edges)
        auto e = vars_.empty() || *rc::gen::arbitrary<bool>()
                     ? index(depth - 1)
                     : make_binary(BinOp::Add, make_var(*rc::gen::elementOf(vars_)), make_int(*rc::gen::inRange<int64_t>(-1, 2)));
        auto lo = make_binary(BinOp::Le, make_int(*rc::gen::inRange<int64_t>(-1, 2)), e->clone());
        return make_binary(BinOp::And, std::move(lo), make_binary(BinOp::Lt, std::move(e), size_expr()));
      }
      case 1: return make_binary(*rc::gen::element(BinOp::Eq, BinOp::Ne, BinOp::Lt, BinOp::Le, BinOp::Gt, BinOp::Ge),
                                 index(depth - 1), index(depth - 1));
      case 2: return make_unary(UnOp::Not, cond(depth - 1));
      default: return make_binary(*rc::gen::element(BinOp::And, BinOp::Or), cond(depth - 1), cond(depth - 1));
    }
  }

  std::vector<ExprPtr> subscripts(size_t rank) {
    std::vector<ExprPtr> r;
    for (size_t k = 0; k < rank; ++k) r.push_back(index(o_.max_expr_depth - 1));
    return r;
  }

  // A value of type t; prophetic reads tensors, semantic reads arrays.
  ExprPtr value(Type t, int depth, bool prophetic) {
    int choice = *rc::gen::inRange(0, depth <= 0 ? 3 : 9);
    switch (choice) {
      case 0: return lit(t);
      case 1:
      case 2: {
        if (prophetic) {
          std::vector<const TensorInfo*> ok;
          for (const auto& x : tensors_) if (x.type == t) ok.push_back(&x);
          if (ok.empty()) return lit(t);
          const TensorInfo* x = ok[pick(ok.size())];
          return make_access(ExprKind::TensorRead, x->name, subscripts(x->rank));
        }
        std::vector<const ArrayInfo*> ok;
        for (const auto& x : arrays_) if (x.elem == t) ok.push_back(&x);
        if (ok.empty()) return lit(t);
        const ArrayInfo* x = ok[pick(ok.size())];
        return make_access(ExprKind::ArrayRead, x->name, subscripts(x->rank));
      }
      case 3: {
        BinOp op = *rc::gen::element(BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Div, BinOp::Mod);
        auto l = value(t, depth - 1, prophetic);
        auto r = value(t, depth - 1, prophetic);
        // A constant divisor may be typed as an index (when the whole quotient is), and the
        // checker rejects a constant zero there: a constant divisor is a nonzero literal.
        // Division by zero stays reachable through divisors that read memory.
        if ((op == BinOp::Div || op == BinOp::Mod) && !has_var_or_read(*r)) r = make_int(*rc::gen::inRange<int64_t>(1, 6));
        return make_binary(op, std::move(l), std::move(r));
      }
      case 4: return is_unsigned_int(t) ? value(t, depth - 1, prophetic) : make_unary(UnOp::Neg, value(t, depth - 1, prophetic));
      case 5: {
        std::vector<ExprPtr> a;
        a.push_back(value(t, depth - 1, prophetic));
        a.push_back(value(t, depth - 1, prophetic));
        return make_call(*rc::gen::element(std::string("min"), std::string("max")), std::move(a));
      }
      case 6: {
        std::vector<ExprPtr> a;
        a.push_back(cond(depth - 1));
        a.push_back(value(t, depth - 1, prophetic));
        a.push_back(value(t, depth - 1, prophetic));
        return make_call("select", std::move(a));
      }
      case 7: {
        // an explicit cast of an index expression or of another type's value
        std::vector<ExprPtr> a;
        if (*rc::gen::arbitrary<bool>()) {
          a.push_back(index(depth - 1));
        } else {
          Type from = *rc::gen::element(Type::I32, Type::F64, Type::U8);
          auto v = value(from, depth - 1, prophetic);
          // a constant argument would be typed as an exact integer (no context): use a literal
          a.push_back(has_var_or_read(*v) ? std::move(v) : lit(from));
        }
        return make_call(std::string(type_name(t)), std::move(a));
      }
      default:
        if (is_float(t)) {
          std::vector<ExprPtr> a;
          a.push_back(value(t, depth - 1, prophetic));
          return make_call(*rc::gen::element(std::string("sqrt"), std::string("abs"), std::string("floor"), std::string("exp")), std::move(a));
        }
        {
          // an index expression converted implicitly (a bare literal would take the type directly)
          auto i = index(depth - 1);
          if (!has_var_or_read(*i)) return lit(t);  // a constant would take the type t itself
          return i;
        }
    }
  }

  // An index in [0, n). Choices are drawn as indices, never as pointers into arrays_ or
  // tensors_: RapidCheck replays recorded values when it re-runs a generator (shrinking), and a
  // recorded pointer would point into the vectors of an earlier run.
  size_t pick(size_t n) { return *rc::gen::inRange<size_t>(0, n); }

  CmdPtr block(int depth) {
    int n = *rc::gen::inRange(1, depth == 0 ? 4 : 3);
    std::vector<CmdPtr> cs;
    for (int i = 0; i < n; ++i) cs.push_back(command(depth));
    if (cs.size() == 1) return std::move(cs[0]);
    return make_seq(std::move(cs));
  }

  CmdPtr command(int depth) {
    int choice = *rc::gen::inRange(0, depth >= o_.max_depth ? 2 : 9);
    switch (choice) {
      case 0:
      case 1: {
        if (arrays_.empty()) return make_skip();
        const ArrayInfo a = *rc::gen::elementOf(arrays_);
        ++info_.assignments;
        ExprPtr annot;
        if (o_.annotations && *rc::gen::arbitrary<bool>()) annot = value(a.elem, o_.max_expr_depth - 1, true);
        return make_assign(a.name, subscripts(a.rank), std::move(annot), value(a.elem, o_.max_expr_depth, false));
      }
      case 2:
      case 3: {
        bool par = *rc::gen::arbitrary<bool>();
        (par ? info_.pars : info_.loops)++;
        std::string x = fresh("k");
        ExprPtr lo;
        if (*rc::gen::inRange(0, 4) == 0) lo = index(1);
        auto bound = index(1);
        vars_.push_back(x);
        auto body = block(depth + 1);
        vars_.pop_back();
        return make_loop(par ? CmdKind::Par : CmdKind::For, x, std::move(lo), std::move(bound), std::move(body));
      }
      case 4: {
        ++info_.ifs;
        auto c = cond(2);
        auto t = block(depth + 1);
        CmdPtr e;
        if (*rc::gen::arbitrary<bool>()) e = block(depth + 1);
        return make_if(std::move(c), std::move(t), std::move(e));
      }
      case 5: {
        ++info_.lets;
        std::string x = fresh("v");
        auto v = index(2);
        vars_.push_back(x);
        auto body = block(depth + 1);
        vars_.pop_back();
        return make_let(x, std::move(v), std::move(body));
      }
      case 6: {
        ++info_.allocs;
        std::string a = fresh("t");
        Type t = *rc::gen::element(Type::F32, Type::I32, Type::U8);
        if (!o_.floats && t == Type::F32) t = Type::I32;
        size_t rank = *rc::gen::inRange<size_t>(0, 3);
        std::vector<ExprPtr> dims;
        for (size_t k = 0; k < rank; ++k) dims.push_back(make_int(*rc::gen::inRange<int64_t>(1, 5)));
        arrays_.push_back({a, t, rank});
        auto body = block(depth + 1);
        arrays_.pop_back();
        return make_alloc(a, t, std::move(dims), std::move(body));
      }
      case 7: return make_skip();
      default: {
        if (!o_.nonaffine || arrays_.empty()) return make_skip();
        // a gather: an integer array read used as a subscript
        std::vector<const ArrayInfo*> ints;
        for (const auto& x : arrays_) if (is_machine_int(x.elem)) ints.push_back(&x);
        if (ints.empty()) return make_skip();
        const ArrayInfo* src = ints[pick(ints.size())];
        const ArrayInfo dst = *rc::gen::elementOf(arrays_);
        if (dst.rank == 0) return make_skip();
        info_.intended_affine = false;
        std::vector<ExprPtr> sub;
        for (size_t k = 0; k < dst.rank; ++k)
          sub.push_back(k == 0 ? make_access(ExprKind::ArrayRead, src->name, subscripts(src->rank)) : index(1));
        ++info_.assignments;
        return make_assign(dst.name, std::move(sub), nullptr, value(dst.elem, 1, false));
      }
    }
  }
};

}  // namespace

rc::Gen<Generated> gen_program(GenOptions opts) {
  return rc::gen::exec([opts]() {
    Generated g;
    Builder b(opts, g.info);
    g.program = b.program();
    return g;
  });
}

}  // namespace sched::fuzz
