// Making closures and block values (closures.hpp), and the closure a
// behavior factory makes straight from its arguments (LambdaCode, proto.hpp).
#include "interpreter/engine/closures.hpp"

#include <vector>

#include "interpreter/engine/frames.hpp"
#include "interpreter/engine/vm.hpp"

namespace humus::engine {

namespace vm {

Value make_sibling(const LambdaCode* code, Value* R) {
  const auto* self = R[-1].as<rt::Closure>();
  rt::Closure* c = rt::Closure::make(code, self->count);
  Value v = Value::adopt(c);
  for (uint32_t i = 0; i < self->count; ++i) c->captures()[i] = self->captures()[i];
  return v;
}

Value capture(const CaptureSource& s, Value* R) {
  switch (s.kind) {
    case CaptureSource::Kind::Reg:
      return R[s.index];
    case CaptureSource::Kind::Capture:
      return captures_of(R)[s.index];
    case CaptureSource::Kind::SelfFn:
      return R[-1];
    case CaptureSource::Kind::Sibling:
      break;
  }
  return make_sibling(s.sibling, R);
}

void make_group(const GroupPlan& plan, Value* R) {
  const auto n = uint32_t(plan.sources.size());
  std::vector<Value> made;
  made.reserve(plan.members.size());
  for (const auto& [code, reg] : plan.members) {
    rt::Closure* c = rt::Closure::make(code, n);
    made.push_back(Value::adopt(c));
    for (uint32_t i = 0; i < n; ++i) {
      const CaptureSource& s = plan.sources[i];
      switch (s.kind) {
        case CaptureSource::Kind::Reg:
          c->captures()[i] = R[s.index];
          break;
        case CaptureSource::Kind::Capture:
          c->captures()[i] = captures_of(R)[s.index];
          break;
        case CaptureSource::Kind::SelfFn:
          c->captures()[i] = R[-1];
          break;
        case CaptureSource::Kind::Sibling:
          break;  // members reach each other as siblings, never as captures
      }
    }
  }
  for (size_t m = 0; m < made.size(); ++m) R[plan.members[m].second] = std::move(made[m]);
}

}  // namespace vm

Value function_value(const LambdaCode& code) { return Value::adopt(rt::Closure::make(&code, 0)); }

}  // namespace humus::engine
