// A minimal host: a native function, a script that uses it (with the
// prelude, found in the installed share/humus/stdlib), and an ask.
#include <humus/humus.hpp>

#include <iostream>

int main() {
  humus::Runtime rt;
  rt.define_function("twice", [](const humus::Value& x) { return humus::Value::integer(x.as_int() * 2); });
  humus::Result r = rt.eval("CREATE answer WITH \\(cust, n).[ SEND twice(n) TO cust ]");
  if (!r) {
    std::cerr << r.message();
    return 1;
  }
  humus::Value v = rt.ask(*rt.global("answer"), humus::Value::integer(21)).get();
  std::cout << "consumer: " << v.as_int() << " " << humus::Value::list({1, 2}).to_string() << " "
            << (rt.import("fifo") ? "ok" : "no fifo") << "\n";
}
