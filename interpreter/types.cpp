#include "interpreter/types.hpp"

namespace sched {

std::string_view type_name(Type t) {
  switch (t) {
    case Type::Invalid: return "<invalid>";
    case Type::Int: return "int";
    case Type::Bool: return "bool";
    case Type::I8: return "i8";
    case Type::I16: return "i16";
    case Type::I32: return "i32";
    case Type::I64: return "i64";
    case Type::U8: return "u8";
    case Type::U16: return "u16";
    case Type::U32: return "u32";
    case Type::U64: return "u64";
    case Type::F32: return "f32";
    case Type::F64: return "f64";
  }
  return "<invalid>";
}

namespace {
constexpr Builtin kFunctions[] = {Builtin::Min, Builtin::Max, Builtin::Abs, Builtin::Sqrt, Builtin::Exp, Builtin::Log,
                                  Builtin::Pow, Builtin::Floor, Builtin::Ceil, Builtin::Round, Builtin::Select};
constexpr Type kValueTypes[] = {Type::Bool, Type::I8, Type::I16, Type::I32, Type::I64, Type::U8, Type::U16, Type::U32, Type::U64, Type::F32, Type::F64};
}  // namespace

std::optional<Type> value_type_from_name(std::string_view s) {
  for (Type t : kValueTypes)
    if (type_name(t) == s) return t;
  return std::nullopt;
}

int type_bits(Type t) {
  switch (t) {
    case Type::Bool: return 1;
    case Type::I8: case Type::U8: return 8;
    case Type::I16: case Type::U16: return 16;
    case Type::I32: case Type::U32: case Type::F32: return 32;
    case Type::I64: case Type::U64: case Type::F64: case Type::Int: return 64;
    case Type::Invalid: return 0;
  }
  return 0;
}

Type unsigned_of(Type t) {
  switch (t) {
    case Type::I8: return Type::U8;
    case Type::I16: return Type::U16;
    case Type::I32: return Type::U32;
    case Type::I64: return Type::U64;
    default: return t;
  }
}

std::string_view op_text(UnOp op) { return op == UnOp::Neg ? "-" : "!"; }

std::string_view op_text(BinOp op) {
  switch (op) {
    case BinOp::Add: return "+";
    case BinOp::Sub: return "-";
    case BinOp::Mul: return "*";
    case BinOp::Div: return "/";
    case BinOp::Mod: return "%";
    case BinOp::Eq: return "==";
    case BinOp::Ne: return "!=";
    case BinOp::Lt: return "<";
    case BinOp::Le: return "<=";
    case BinOp::Gt: return ">";
    case BinOp::Ge: return ">=";
    case BinOp::And: return "&&";
    case BinOp::Or: return "||";
  }
  return "?";
}

std::string_view reduction_name(RedOp op) {
  switch (op) {
    case RedOp::Add: return "sum";
    case RedOp::Mul: return "prod";
    case RedOp::Min: return "min";
    case RedOp::Max: return "max";
    case RedOp::And: return "all";
    case RedOp::Or: return "any";
    case RedOp::None: break;
  }
  return "?";
}

std::string_view accumulate_text(RedOp op) {
  switch (op) {
    case RedOp::Add: return "+";
    case RedOp::Mul: return "*";
    case RedOp::Min: return "min";
    case RedOp::Max: return "max";
    case RedOp::And: return "&&";
    case RedOp::Or: return "||";
    case RedOp::None: break;
  }
  return "?";
}

std::optional<RedOp> reduction_from_name(std::string_view s) {
  for (RedOp op : {RedOp::Add, RedOp::Mul, RedOp::Min, RedOp::Max, RedOp::And, RedOp::Or})
    if (reduction_name(op) == s) return op;
  return std::nullopt;
}

bool reduction_applies(RedOp op, Type t) {
  if (op == RedOp::And || op == RedOp::Or) return t == Type::Bool;
  return op != RedOp::None && t != Type::Bool && is_value_type(t);
}

std::optional<Builtin> builtin_from_name(std::string_view s) {
  for (Builtin b : kFunctions)
    if (builtin_name(b) == s) return b;
  if (value_type_from_name(s)) return Builtin::Cast;
  return std::nullopt;
}

std::vector<std::string> builtin_names(bool casts) {
  std::vector<std::string> out;
  for (Builtin b : kFunctions) out.emplace_back(builtin_name(b));
  if (casts)
    for (Type t : kValueTypes) out.emplace_back(type_name(t));
  return out;
}

std::string_view builtin_name(Builtin b) {
  switch (b) {
    case Builtin::Min: return "min";
    case Builtin::Max: return "max";
    case Builtin::Abs: return "abs";
    case Builtin::Sqrt: return "sqrt";
    case Builtin::Exp: return "exp";
    case Builtin::Log: return "log";
    case Builtin::Pow: return "pow";
    case Builtin::Floor: return "floor";
    case Builtin::Ceil: return "ceil";
    case Builtin::Round: return "round";
    case Builtin::Select: return "select";
    case Builtin::Cast: return "<cast>";
  }
  return "?";
}

int builtin_arity(Builtin b) {
  switch (b) {
    case Builtin::Min: case Builtin::Max: case Builtin::Pow: return 2;
    case Builtin::Select: return 3;
    default: return 1;
  }
}

}  // namespace sched
