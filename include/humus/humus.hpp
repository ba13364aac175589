// The Humus embedding API: the one header a host includes.
//
//   humus/value.hpp    humus::Value, conversions both ways, printing
//   humus/runtime.hpp  humus::Runtime: load code, native functions and
//                      actors, send/ask, running and shutting down
//
// Nothing else of the implementation is reachable from here. The guide is
// docs/embedding.md.
#pragma once

#include "humus/runtime.hpp"
#include "humus/value.hpp"

namespace humus {
// The library's version, as "MAJOR.MINOR.PATCH".
HUMUS_API const char* version();
}  // namespace humus
