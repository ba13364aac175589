// The VM's call protocol (calls.hpp): entering the loop from C++ and
// unwinding its frames on a failure, argument adaptation, foreign calls,
// and the entry points of vm.hpp.
#include "interpreter/engine/calls.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "interpreter/engine/closures.hpp"
#include "interpreter/engine/registers.hpp"
#include "interpreter/engine/vm.hpp"
#include "runtime/memory_meter.hpp"
#include "runtime/packed.hpp"
#include "runtime/runtime.hpp"
#include "runtime/stack_guard.hpp"

namespace humus::engine {

std::string describe(const Value& v, const rt::Context& cx) { return cx.rt.shown(v); }

Value tuple_of(Value* vals, uint32_t n) {
  Value acc = std::move(vals[n - 1]);
  for (uint32_t i = n - 1; i-- > 0;) acc = rt::make_pair(std::move(vals[i]), std::move(acc));
  return acc;
}

namespace vm {

namespace {

// Applying a value that is not a function yields ? (LANGUAGE.md section 3,
// as in humus_js and uFork); -W and --trace report where.
[[gnu::noinline]] Value not_a_function(const Value& fn, rt::Context& cx, const rt::SourceLoc& loc) {
  if (cx.rt.warnings_on())
    cx.rt.report_warning(loc, "cannot apply " + describe(fn, cx) + ": it is not a function (the result is ?)");
  return Value::undefined();
}

}  // namespace

void ignored_value(const Value& v, rt::Context& cx, const rt::SourceLoc& loc) {
  if (!v.is_undefined() && cx.rt.warnings_on())
    cx.rt.report_warning(loc, "this statement's value is not a block, so it does nothing: " + describe(v, cx));
}

void rethrow_at(rt::EventError& e, const rt::SourceLoc& loc) {
  if (!e.loc.file) e.loc = loc;
  throw;
}

void too_deep(const rt::SourceLoc& loc) { rt::recursion_too_deep(loc); }

void safe_point(rt::Context& cx, const rt::SourceLoc& loc) { cx.rt.safe_point(cx, kSafePointTicks, loc); }

bool adapt(Value* args, uint32_t n, uint32_t arity) {
  if (n >= 2) {
    Value t = tuple_of(args, n);
    args[0] = std::move(t);
  }
  if (arity == 1) return true;
  Value v = std::move(args[0]);
  for (uint32_t i = 0; i + 1 < arity; ++i) {
    if (v.is_cons() && !v.is_pair()) v = rt::expand(v);  // a packed value is taken apart as its pairs
    if (!v.is_pair()) return false;
    args[i] = rt::head(v);
    Value rest = rt::tail(v);
    v = std::move(rest);
  }
  args[arity - 1] = std::move(v);
  return true;
}

Value call_foreign(const Value& fn, Value* args, uint32_t n, rt::Context& cx, const rt::SourceLoc& loc) {
  if (fn.is(rt::ObjKind::Native)) {
    const auto* nat = fn.as<rt::Native>();
    try {
      if (n == 2 && nat->fn2) return nat->fn2(args[0], args[1]);
      return nat->fn(n >= 2 ? tuple_of(args, n) : std::move(args[0]));
    } catch (rt::EventError& e) {
      rethrow_at(e, loc);
    }
  }
  if (fn.is(rt::ObjKind::Closure)) {
    Value keep = fn;
    Value arg = n >= 2 ? tuple_of(args, n) : std::move(args[0]);
    const auto* c = keep.as<rt::Closure>();
    return c->code->apply(*c, arg, cx);
  }
  return not_a_function(fn, cx, loc);
}

namespace {

// Releases the registers of every frame from `entry` up, and pops them (a
// failure: the C++ exception goes on to the caller of the entry). Frames
// that ran value code with borrowed registers hold those uncounted
// (compile/borrow_plan.hpp): they are emptied first, and the anchor that
// counts them released; so is a tuple HOLE left open. `ran`: false when the
// entry frame failed before its first instruction (its BORROW).
void unwind(VmState& vm, size_t entry, bool ran = true) {
  size_t end = vm.calls[entry].base;
  for (size_t i = entry; i < vm.calls.size(); ++i) {
    const CallInfo& c = vm.calls[i];
    end = std::max<size_t>(end, c.base + c.proto->nregs);
    if (c.hole) release_word(c.root);  // a tuple HOLE made, still open
    if (c.kind == Kind::Value && c.proto->borrowed && (ran || i > entry)) {
      for (uint32_t m = c.proto->borrowed; m; m &= m - 1) vm.stack[c.base + uint32_t(__builtin_ctz(m))].leak_bits();
      release_anchor(vm.calls[i]);
    }
  }
  const CallInfo& e = vm.calls[entry];
  if (e.f_borrowed) vm.stack[e.base - 1].leak_bits();
  for (size_t i = e.base - 1; i < end && i < vm.cap; ++i) vm.stack[i] = Value();
  vm.calls.resize(entry);
}

// A runtime error raised in standard-library code (a failed check of the
// `testing` module) is the caller's mistake: it is reported at the innermost
// call from the program's own code, and says where the library raised it.
void blame_caller(VmState& vm, size_t entry, const rt::SourceLoc& entered_from, rt::EventError& e) {
  const size_t n = vm.calls.size();
  if (n <= entry || !e.loc.file) return;
  if (!e.in_library) {
    const Proto* raiser = vm.calls.back().proto;
    if (!raiser->library || raiser->file != e.loc.file) return;
    e.in_library = true;
  }
  std::vector<const std::string*> library{e.loc.file};
  for (size_t i = entry; i < n; ++i)
    if (vm.calls[i].proto->library) library.push_back(vm.calls[i].proto->file);
  auto blame = [&](const rt::SourceLoc& at) {
    if (!at.file || std::find(library.begin(), library.end(), at.file) != library.end()) return false;
    e.message += " (raised at " + e.loc.file_name() + ":" + std::to_string(e.loc.line) + ":" +
                 std::to_string(e.loc.column) + ")";
    e.loc = at;
    e.in_library = false;
    return true;
  };
  for (size_t i = n; i-- > entry;) {
    const CallInfo& c = vm.calls[i];
    if (i + 1 < n && blame(c.proto->loc(c.pc - 1))) return;  // a caller: at its call
    if (c.has_site && blame(c.site)) return;                 // a statement call: where it came from
  }
  blame(entered_from);  // the C++ caller's location (a statement's block run by the interpreter)
}

}  // namespace

Outcome enter(rt::Context& cx, const Proto& proto, uint32_t entry, Kind kind, const rt::Object* fn, Value* args,
              uint32_t n, Value& result, const rt::SourceLoc& loc) {
  rt::check_stack(loc);
  VmState& vm = vm_of(cx);
  if (vm.calls.size() >= kMaxDepth) too_deep(loc);
  const uint32_t base = vm.top() + 1;
  const size_t entry_index = vm.calls.size();
  try {
    vm.ensure(size_t(base) + std::max({proto.nregs, n, proto.arity}));
  } catch (const rt::memory::MemoryCapReached&) {
    throw;
  } catch (const std::bad_alloc&) {
    too_deep(loc);
  }
  Value* R = vm.stack + base;
  R[-1] = Value::from_immortal_bits(reinterpret_cast<uint64_t>(fn));  // uncounted (f_borrowed)
  for (uint32_t i = 0; i < n; ++i) R[i] = std::move(args[i]);
  vm.calls.push({&proto,
                 proto.code.data() + entry,
                 base,
                 kind,
                 true,
                 fn != nullptr,
                 false,
                 {},
                 Value::empty_bits(),
                 Value::empty_bits()});
  try {
    if (n && n != proto.arity && !adapt(R, n, proto.arity)) {
      unwind(vm, entry_index, false);
      return kind == Kind::Value ? (result = Value::undefined(), Outcome::Value) : Outcome::Unhandled;
    }
    return run(vm, cx, result);
  } catch (rt::EventError& e) {
    blame_caller(vm, entry_index, loc, e);
    unwind(vm, entry_index);
    throw;
  } catch (...) {
    unwind(vm, entry_index);
    throw;
  }
}

}  // namespace vm

// ---------------------------------------------------------- entry points

using vm::code_of;
using vm::enter;
using vm::Kind;
using vm::Outcome;

Value call_value(const Value& fn, Value* args, uint32_t n, rt::Context& cx, const rt::SourceLoc& loc) {
  if (!vm::is_humus(fn)) return vm::call_foreign(fn, args, n, cx, loc);
  const LambdaCode& code = code_of(fn);
  if (code.factory_for(n)) return code.make_from_arguments(*fn.as<rt::Closure>(), args);
  Value result;
  enter(cx, code.proto, code.proto.entry_value, Kind::Value, fn.object(), args, n, result, code.loc);
  return result;
}

Value apply_function(const Value& fn, const Value& arg, rt::Context& cx, const rt::SourceLoc& loc) {
  Value a = arg;
  return call_value(fn, &a, 1, cx, loc);
}

Value LambdaCode::apply(const rt::Closure& self, const Value& arg, rt::Context& cx) const {
  Value a = arg;
  if (factory_for(1)) return make_from_arguments(self, &a);
  Value result;
  enter(cx, proto, proto.entry_value, Kind::Value, &self, &a, 1, result, loc);
  return result;
}

bool LambdaCode::run_behavior(const rt::Closure& self, const Value& msg, rt::Context& cx) const {
  // The actor holds its behavior for the whole event: the frame borrows it.
  Value m = msg;
  Value result;
  return enter(cx, proto, proto.entry_behavior, Kind::Stmt, &self, &m, 1, result, loc) != Outcome::Unhandled;
}

void run_statement_value(Value v, const rt::SourceLoc& loc, rt::Context& cx) {
  if (v.is_block()) {
    const Proto& p = static_cast<const BlockCodeImpl*>(v.as<rt::BlockValue>()->code)->proto;
    Value result;
    enter(cx, p, p.entry_stmt, Kind::Stmt, v.object(), nullptr, 0, result, loc);
    return;
  }
  vm::ignored_value(v, cx, loc);
}

Value run_top(const Proto& proto, uint32_t entry, rt::Context& cx) {
  Value result;
  enter(cx, proto, entry, entry == proto.entry_value ? Kind::Value : Kind::Stmt, nullptr, nullptr, 0, result,
        rt::SourceLoc{proto.file, 0, 0});
  return result;
}

}  // namespace humus::engine
