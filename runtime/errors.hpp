// A failed message-event. Compiled code throws it (THROW, runtime errors,
// LET mismatch, a second BECOME); the dispatcher or the top level catches it,
// discards the event's buffered effects and reports it. Exceptions cost
// nothing on the path where events succeed, which is the path that matters.
#pragma once

#include <string>

#include "runtime/source_loc.hpp"
#include "runtime/value.hpp"

namespace humus::rt {

struct EventError {
  SourceLoc loc;
  std::string message;
  Value thrown;  // the THROWn value; empty for other runtime errors
  // Raised in standard-library code and not yet blamed on a caller in the
  // program (the VM reports it at the program's call into the library).
  bool in_library = false;
};

[[noreturn]] void runtime_error(const SourceLoc& loc, std::string message);

// Whether a THROWn value is a failed check of the `testing` module: (#FAIL, label, ...).
bool is_failed_check(const Value& thrown);

}  // namespace humus::rt
