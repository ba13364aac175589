// The interactive REPL: `humus` with no script, on a terminal (docs/repl.md).
#pragma once

#include "runtime/runtime.hpp"

namespace humus::repl {

// Runs an interactive session until :quit or Ctrl-D; returns the exit status.
// `options` gives threads, budget, seed, trace and warn_unhandled; the REPL
// sets the output sinks. Call it on a thread with a deep stack (stack_guard.hpp).
// With `prelude`, stdlib/prelude.hum is imported into every fresh interpreter;
// with `sandbox`, IMPORT statements read standard-library modules only.
int run_repl(const rt::RuntimeOptions& options, bool prelude = true, bool sandbox = false);

}  // namespace humus::repl
