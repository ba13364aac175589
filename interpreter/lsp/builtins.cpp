#include "interpreter/lsp/builtins.hpp"

#include <string_view>

#include "runtime/builtins/devices.hpp"
#include "runtime/builtins/functions.hpp"

namespace humus::lsp {

// The runtime's own tables say what each built-in is (one table serves the
// runtime, the REPL and the hover); `cluster` is the distribution layer's.
const char* builtin_doc(std::string_view name) {
  for (const rt::BuiltinFunction& f : rt::builtin_table())
    if (name == f.name) return f.doc;
  for (const rt::DeviceDoc& d : rt::device_docs())
    if (name == d.name) return d.doc;
  if (name == "cluster")
    return "actor `cluster`: the cluster this node belongs to (docs/distribution.md): `(cust, #publish, name, "
           "actor)`, `(cust, #lookup, name)`, `(cust, #monitor, actor)`, `(cust, #nodes)`, `(cust, #topic, name)`, "
           "`#leave`";
  return nullptr;
}

}  // namespace humus::lsp
