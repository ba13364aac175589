// Runtime options that capture what a test's runtime prints.
#pragma once

#include <mutex>
#include <string>
#include <string_view>

#include "runtime/runtime.hpp"

namespace humus::test {

// Runtime options whose output and diagnostics go to `out` and `err`,
// each append under `m` (workers write from several threads).
inline rt::RuntimeOptions capturing_options(unsigned threads, std::mutex& m, std::string& out, std::string& err) {
  rt::RuntimeOptions o;
  o.threads = threads;
  o.seed = 1;
  o.out = [&m, &out](std::string_view s) {
    std::lock_guard lock(m);
    out += s;
  };
  o.err = [&m, &err](std::string_view s) {
    std::lock_guard lock(m);
    err += s;
  };
  return o;
}

}  // namespace humus::test
