// A minimal host: a native function, a script that uses it (with the
// prelude, found in the installed share/humus/stdlib), an ask, and a call
// of a Humus function from C++.
#include <humus/humus.hpp>

#include <iostream>

int main() {
  humus::Runtime rt;
  rt.define_function("twice", [](const humus::Value& x) { return humus::Value::integer(x.as_int() * 2); });
  humus::Result r = rt.eval(
      "CREATE answer WITH \\(cust, n).[ SEND twice(n) TO cust ]\n"
      "DEF fib(n) AS IF $less(n, 2) = TRUE n ELSE add(fib(sub(n, 1)), fib(sub(n, 2)))");
  if (!r) {
    std::cerr << r.message();
    return 1;
  }
  humus::Value v = rt.ask(*rt.global("answer"), humus::Value::integer(21)).get();
  humus::Result fib = rt.call("fib", 25);
  if (!fib) {
    std::cerr << fib.message();
    return 1;
  }
  std::cout << "consumer: " << v.as_int() << " " << fib.value.as_int() << " " << humus::Value::list({1, 2}).to_string()
            << " " << (rt.import("fifo") ? "ok" : "no fifo") << "\n";
}
