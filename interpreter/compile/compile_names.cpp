// What a name stands for where it is used: a register, a capture, the
// function itself, a sibling or a global; and loading its value.
#include "interpreter/compile/compiler_impl.hpp"

namespace humus::compile::codegen {

Resolved Compiler::resolve(Fn& fn, const std::string& name) {
  for (auto it = fn.scopes.rbegin(); it != fn.scopes.rend(); ++it) {
    if (auto f = (*it)->regs.find(name); f != (*it)->regs.end()) {
      for (auto* r : fn.reads) r->push_back(f->second);
      return {Resolved::Kind::Reg, f->second};
    }
  }
  if (auto it = fn.specials.find(name); it != fn.specials.end()) {
    if (it->second.kind == CaptureSource::Kind::SelfFn) return {Resolved::Kind::SelfFn};
    return {Resolved::Kind::Sibling, 0, it->second.code};
  }
  if (!fn.caps) return {Resolved::Kind::Global};
  if (auto it = fn.caps->index.find(name); it != fn.caps->index.end()) return {Resolved::Kind::Capture, it->second};
  if (resolve(*fn.parent, name).kind == Resolved::Kind::Global) return {Resolved::Kind::Global};
  auto i = uint32_t(fn.caps->names.size());
  fn.caps->names.push_back(name);
  fn.caps->index.emplace(name, i);
  return {Resolved::Kind::Capture, i};
}

bool Compiler::bound_locally(const Fn& fn, const std::string& name) {
  for (const Fn* f = &fn; f; f = f->caps ? f->parent : nullptr) {
    // Top-level code's names are the script's own, like globals (and are
    // globals but for --whole-script-as-one-block): not counted.
    if (f->top_level) continue;
    for (const Scope* s : f->scopes)
      if (s->regs.count(name)) return true;
    if (f->specials.count(name)) return true;
    if (f->caps && f->caps->index.count(name)) return true;
  }
  return false;
}

// Where a captured name comes from in `fn`, the frame that makes the closure.
CaptureSource Compiler::source_for(Fn& fn, const std::string& name) {
  Resolved r = resolve(fn, name);
  switch (r.kind) {
    case Resolved::Kind::Reg:
      return {CaptureSource::Kind::Reg, r.index};
    case Resolved::Kind::Capture:
      return {CaptureSource::Kind::Capture, r.index};
    case Resolved::Kind::SelfFn:
      return {CaptureSource::Kind::SelfFn};
    case Resolved::Kind::Sibling:
      return {CaptureSource::Kind::Sibling, 0, r.code};
    case Resolved::Kind::Global:
      break;
  }
  throw CompileError{{}, "internal error: a captured name is a global: " + name};
}

void Compiler::load(Fn& fn, const std::string& name, uint32_t dst, ast::Loc l) {
  Resolved r = resolve(fn, name);
  switch (r.kind) {
    case Resolved::Kind::Reg:
      if (r.index != dst) emit(fn, Op::MOVE, l, dst, r.index);
      return;
    case Resolved::Kind::Capture:
      emit(fn, Op::GETCAP, l, dst, r.index);
      return;
    case Resolved::Kind::SelfFn:
      emit(fn, Op::SELFFN, l, dst);
      return;
    case Resolved::Kind::Sibling: {
      auto [it, fresh] = fn.sibling_index.emplace(r.code, uint32_t(fn.proto->more().siblings.size()));
      if (fresh) fn.proto->more().siblings.push_back(r.code);
      emit(fn, Op::SIBLING, l, dst, it->second);
      return;
    }
    case Resolved::Kind::Global:
      emit(fn, Op::GETGLOBAL, l, dst, global_read(fn, name, l));
      return;
  }
}

}  // namespace humus::compile::codegen
