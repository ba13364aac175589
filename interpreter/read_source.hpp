// Reading a script or a module into a Source, within the run's limits.
//
// Scripts are read before the runtime (and its limit monitor) exists, and
// standard input may never end (humus - < /dev/zero): the reader itself
// holds --max-memory (no more bytes than that) and --timeout (a pipe is
// waited on with poll, until the deadline), from the first byte (issue 34).
// Named files must be regular files: a FIFO would block open() and read()
// for as long as no writer comes (an IMPORT hung --check and the language
// server), a device may never end. Only the command's own script may be a
// pipe (standard input, humus <(generate)).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "grammar/ast.hpp"
#include "runtime/limits.hpp"

namespace humus::interp {

struct ReadLimits {
  uint64_t max_bytes = 0;  // 0: no cap; else at most this many bytes (--max-memory)
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();  // --timeout
  bool allow_pipe = false;  // the command's script: a pipe is like standard input
};

// What reading found: the text, or why not (`error`, and `limit` when a limit ended it).
struct ReadResult {
  ast::SourcePtr source;
  std::string error;
  rt::LimitKind limit = rt::LimitKind::None;
};

// Reads the file at `path` (a regular file, or with allow_pipe a pipe).
ReadResult read_source(const std::string& path, const ReadLimits& limits = {});
// Reads the open descriptor `fd` (standard input) to its end as the Source `name`.
ReadResult read_source_fd(int fd, const std::string& name, const ReadLimits& limits);

}  // namespace humus::interp
