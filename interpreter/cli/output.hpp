// Standard output and standard error for the humus command: writes that
// remember their first failure, so that output lost to a full disk or a
// closed descriptor (>/dev/full) fails the run instead of vanishing.
#pragma once

#include <string_view>

namespace humus::cli {

// Program output (println): buffered, as stdio buffers stdout.
void write_stdout(std::string_view text);
// Writes out what write_stdout buffered (before a message on stderr, so
// the two come out in order).
void flush_stdout();
// Diagnostics: written through at once.
void write_stderr(std::string_view text);

// Flushes both; if anything could not be written, says so on standard
// error (when that still works) and turns status 0 into 1.
int finish_output(int status);

}  // namespace humus::cli
