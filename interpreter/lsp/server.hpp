// `humus --lsp`: a language server speaking LSP 3.17 over standard input
// and output (docs/editors.md).
//
// One thread, one message at a time. Documents are kept as the editor
// sends them (whole or by incremental edits); a document is analysed
// (analysis.hpp) when a request needs it, and its diagnostics are published
// once the input falls quiet, so a burst of keystrokes costs one analysis.
// Nothing the client sends can stop the server but `exit` or the end of
// its input: bad JSON, unknown methods and bad parameters get JSON-RPC
// errors.
#pragma once

namespace humus::lsp {

// Serves until `exit` or the end of the input; the exit status is 0 after
// a `shutdown` request, 1 otherwise (as LSP asks).
int serve(int in_fd, int out_fd);

}  // namespace humus::lsp
