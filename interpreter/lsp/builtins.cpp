#include "interpreter/lsp/builtins.hpp"

#include <string_view>
#include <utility>

namespace humus::lsp {

const char* builtin_doc(std::string_view name) {
  static constexpr std::pair<std::string_view, const char*> kDocs[] = {
      {"eq",
       "`eq(a, b)`: `TRUE` when a and b are equal (structurally; actors and functions by identity), else `FALSE`"},
      {"not", "`not(b)`: the negation of `TRUE` or `FALSE`, else `?`"},
      {"and", "`and(a, b)`: `TRUE` when both are `TRUE`; `?` unless both are booleans"},
      {"or", "`or(a, b)`: `TRUE` when either is `TRUE`; `?` unless both are booleans"},
      {"is_boolean", "`is_boolean(v)`: `TRUE` when v is `TRUE` or `FALSE`"},
      {"is_number", "`is_number(v)`: `TRUE` when v is an integer"},
      {"is_symbol", "`is_symbol(v)`: `TRUE` when v is a symbol such as `#ok`"},
      {"is_function", "`is_function(v)`: `TRUE` when v is a function (a closure or a built-in)"},
      {"is_actor", "`is_actor(v)`: `TRUE` when v is an actor"},
      {"is_pair", "`is_pair(v)`: `TRUE` when v is a pair"},
      {"neg", "`neg(n)`: minus n"},
      {"add", "`add(a, b)`: a + b, for integers of any size"},
      {"sub", "`sub(a, b)`: a - b"},
      {"mul", "`mul(a, b)`: a * b"},
      {"div", "`div(a, b)`: Euclidean quotient of a by b; `?` when b is 0"},
      {"mod", "`mod(a, b)`: Euclidean remainder of a by b, never negative; `?` when b is 0"},
      {"compare", "`compare(a, b)`: -1, 0 or 1 as a is less than, equal to or greater than b"},
      {"less", "`less(a, b)`: `TRUE` when a < b"},
      {"less_equal", "`less_equal(a, b)`: `TRUE` when a <= b"},
      {"greater_equal", "`greater_equal(a, b)`: `TRUE` when a >= b"},
      {"greater", "`greater(a, b)`: `TRUE` when a > b"},
      {"println", "actor `println`: prints every message it receives, then a newline, on standard output"},
      {"print",
       "actor `print`: writes a string (a list of code points) as UTF-8 text, any other value as `println` does, then "
       "a newline, on standard output"},
      {"testing_pass",
       "actor `testing_pass`: prints `#pass, LABEL` for a passed check of the `testing` module and counts it for the "
       "`humus: checks: N passed, M failed` line at the end of the run"},
      {"timer", "actor `timer`: on `(dt, msg, actor)` sends msg to actor after dt milliseconds"},
      {"cluster",
       "actor `cluster`: the cluster this node belongs to (docs/distribution.md): `(cust, #publish, name, actor)`, "
       "`(cust, #lookup, name)`, `(cust, #monitor, actor)`, `(cust, #nodes)`, `(cust, #topic, name)`, `#leave`"},
      {"random", "actor `random`: on `(cust, n)` sends cust a random integer in 0 .. n-1"},
  };
  for (const auto& [n, doc] : kDocs)
    if (n == name) return doc;
  return nullptr;
}

}  // namespace humus::lsp
