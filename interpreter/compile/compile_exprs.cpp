// Constants and expressions: an expression's value into a register.
#include "interpreter/compile/compiler_impl.hpp"

#include <algorithm>
#include <optional>

#include "runtime/integer.hpp"
#include "runtime/str.hpp"

namespace humus::compile::codegen {

// Boxed constants (big integers, strings, folded tuples) are pinned: shared
// by every event without reference counting, freed with the runtime.
Value Compiler::constant(const ast::Constant& c) {
  Value v = unpinned_constant(c);
  globals_.pin(v);
  return v;
}

Value Compiler::unpinned_constant(const ast::Constant& c) {
  switch (c.kind) {
    case ast::Constant::Kind::Integer:
      return rt::parse_integer(c.text, c.radix, c.negative);
    case ast::Constant::Kind::String: {  // packed: a byte or four a character (runtime/str.hpp)
      // The grammar admits only valid UTF-8 in a literal, so only one of
      // more than kMaxStrLength code points (4 GB) fails here.
      std::optional<Value> s = rt::str_from_utf8(c.text);
      if (!s) error({}, "this string is too long to compile (more than 4294967295 characters)");
      return std::move(*s);
    }
    case ast::Constant::Kind::Symbol:
      return Value::symbol(rt::intern_symbol(c.text));
    case ast::Constant::Kind::True:
      return Value::truth();
    case ast::Constant::Kind::False:
      return Value::falsity();
    case ast::Constant::Kind::Nil:
      return Value::nil();
    case ast::Constant::Kind::Undefined:
      return Value::undefined();
    case ast::Constant::Kind::List: {  // (e1, (e2, ... en)): the last element is the tail
      const ast::PackedConstants& l = *c.list;
      Value acc = unpinned_constant(l.at(l.size() - 1));
      for (size_t i = l.size() - 1; i-- > 0;) acc = rt::make_pair(unpinned_constant(l.at(i)), std::move(acc));
      return acc;
    }
  }
  return Value::undefined();
}

// A tuple whose elements are all literals is one constant, made once.
bool Compiler::fold(const ast::Expr& e, Value& out) {
  if (e.kind == ast::ExprKind::Const) {
    out = unpinned_constant(e.constant);
    return true;
  }
  if (e.kind != ast::ExprKind::Tuple) return false;
  for (const auto& x : e.elements)
    if (x->kind != ast::ExprKind::Const &&
        !(x->kind == ast::ExprKind::Tuple && std::all_of(x->elements.begin(), x->elements.end(), [](const auto& y) {
            return y->kind == ast::ExprKind::Const;
          })))
      return false;
  Value acc;
  for (size_t i = e.elements.size(); i-- > 0;) {
    Value v;
    if (!fold(*e.elements[i], v)) return false;
    acc = acc.empty() ? std::move(v) : rt::make_pair(std::move(v), std::move(acc));
  }
  out = std::move(acc);
  return true;
}

Operand Compiler::operand(Fn& fn, const ast::Expr& e) {
  if (e.kind == ast::ExprKind::Var) {
    Resolved r = resolve(fn, e.name);
    if (r.kind == Resolved::Kind::Reg) return {r.index, false};
  }
  uint32_t t = alloc(fn, 1, e.loc);
  expr(fn, e, t);
  return {t, true};
}

void Compiler::tuple(Fn& fn, const ast::Expr& e, uint32_t dst) {
  const size_t n = e.elements.size();
  Value folded;
  if (fold(e, folded)) {
    globals_.pin(folded);
    emit(fn, Op::LOADK, e.loc, dst, constant_index(fn, folded));
    return;
  }
  TempGuard temps(fn);
  if (n == 2) {
    Operand h = operand(fn, *e.elements[0]);
    Operand t = operand(fn, *e.elements[1]);
    const uint32_t at = emit(fn, Op::PAIR, e.loc, dst, h.reg, t.reg, uint8_t((h.temp ? 1 : 0) | (t.temp ? 2 : 0)));
    if (fn.movable) {
      if (!h.temp) fn.movable->emplace_back(at, 1, h.reg);
      if (!t.temp) fn.movable->emplace_back(at, 2, t.reg);
    }
    return;
  }
  if (n > 4096) error(e.loc, "this tuple is too long to compile (more than 4096 elements that are not all constants)");
  const uint32_t base = alloc(fn, uint32_t(n), e.loc);
  for (size_t i = 0; i < n; ++i) expr(fn, *e.elements[i], base + uint32_t(i));
  emit(fn, Op::TUPLE, e.loc, dst, base, uint32_t(n));
}

void Compiler::expr_value(Fn& fn, const ast::Expr& e, uint32_t dst) {
  switch (e.kind) {
    case ast::ExprKind::Const:
      emit(fn, Op::LOADK, e.loc, dst, constant_index(fn, constant(e.constant)));
      return;
    case ast::ExprKind::Var:
      load(fn, e.name, dst, e.loc);
      return;
    case ast::ExprKind::Self:
      check_not_top(fn, e.loc, "SELF");
      emit(fn, Op::SELF, e.loc, dst);
      return;
    case ast::ExprKind::Now:
      emit(fn, Op::NOW, e.loc, dst);
      return;
    case ast::ExprKind::Lambda:
      closure(fn, e, dst);
      return;
    case ast::ExprKind::Block:
      block_value(fn, e, dst);
      return;
    case ast::ExprKind::Call:
      call(fn, e, CallAs::Value, dst, 0);
      return;
    case ast::ExprKind::Tuple:
      tuple(fn, e, dst);
      return;
    case ast::ExprKind::New: {
      TempGuard temps(fn);
      warn_behavior_factory(fn, *e.body);
      Operand b = operand(fn, *e.body);
      emit(fn, Op::NEW, e.loc, dst, b.reg);
      return;
    }
    case ast::ExprKind::LetIn:
    case ast::ExprKind::If:
    case ast::ExprKind::Case:
      break;  // into() takes these apart
  }
  error(e.loc, "internal error: unknown expression");
}

}  // namespace humus::compile::codegen
