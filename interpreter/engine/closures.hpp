// Making closures and block values in the VM (CLOSURE, BLOCK, GROUP,
// SIBLING): each capture comes from the frame that makes it. The bodies
// are in closures.cpp, but for those the loop inlines: CLOSURE's, BLOCK's
// and a behavior factory's (a call that makes its behavior, SEND f(x) TO a).
#pragma once

#include <cstdint>

#include "interpreter/engine/proto.hpp"

namespace humus::engine::vm {

// A member of the running function's recursive group: it has the same
// captures as the running one, so it is made from them.
Value make_sibling(const LambdaCode* code, Value* R);

// A captured value, from the frame that makes a closure or block.
Value capture(const CaptureSource& s, Value* R);

inline Value make_closure(const ClosurePlan& plan, Value* R) {
  rt::Closure* c = rt::Closure::make(plan.code, uint32_t(plan.sources.size()));
  Value v = Value::adopt(c);
  for (size_t i = 0; i < plan.sources.size(); ++i) c->captures()[i] = capture(plan.sources[i], R);
  return v;
}

inline Value make_block(const BlockValuePlan& plan, Value* R) {
  rt::BlockValue* b = rt::BlockValue::make(plan.code, uint32_t(plan.sources.size()));
  Value v = Value::adopt(b);
  for (size_t i = 0; i < plan.sources.size(); ++i) b->captures()[i] = capture(plan.sources[i], R);
  return v;
}

// GROUP: the closures of a recursive group, all made before any register
// is written (a member may capture another's register).
void make_group(const GroupPlan& plan, Value* R);

}  // namespace humus::engine::vm

namespace humus::engine {

// ------------------------------------------------------------- factories

inline void LambdaCode::capture_arguments(const rt::Closure& self, Value* args, Value* out) const {
  for (const FactorySource& src : factory_sources) {
    switch (src.kind) {
      case FactorySource::Kind::Arg:
        *out++ = std::move(args[src.index]);  // each argument is captured once at most
        break;
      case FactorySource::Kind::Capture:
        *out++ = self.captures()[src.index];
        break;
      case FactorySource::Kind::SelfFn:
        *out++ = Value::share(const_cast<rt::Closure*>(&self));
        break;
    }
  }
  for (uint32_t i = 0; i < proto.arity; ++i) args[i] = Value();
}

inline Value LambdaCode::make_from_arguments(const rt::Closure& self, Value* args) const {
  rt::Closure* c = rt::Closure::make(factory, uint32_t(factory_sources.size()));
  Value result = Value::adopt(c);
  capture_arguments(self, args, c->captures());
  return result;
}

}  // namespace humus::engine
