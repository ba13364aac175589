// sensor_host: a C++ program that embeds Humus (docs/embedding.md walks
// through it). It gives a script a native sensor actor, a native function
// and a native alarm actor, loads monitor.hum, and asks the script's
// monitor actor for samples.
#include <humus/humus.hpp>

#include <atomic>
#include <iostream>
#include <mutex>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  std::string script = argc > 1 ? argv[1] : "monitor.hum";

  // The script's println output, collected here and shown at the end.
  std::mutex out_mutex;
  std::vector<std::string> printed;
  humus::Options options;
  options.threads = 2;
  options.out = [&](std::string_view line) {
    std::lock_guard lock(out_mutex);
    printed.emplace_back(line);
  };
  humus::Runtime runtime(options);

  // A native function: raw counts (tenths of a degree, offset by 40) to Celsius.
  runtime.define_function("celsius", [](const humus::Value& raw) {
    if (!raw.is_integer()) return humus::Value::undefined();  // like a built-in: ? for a wrong type
    return humus::Value::integer(raw.as_int() / 10 - 40);
  });

  // A native actor: each (cust, #read) gets the next reading. It runs on a
  // worker thread; its sends take effect when it returns, as in Humus.
  std::atomic<int64_t> raw{600};
  runtime.define_actor("sensor", [&](humus::ActorContext& cx, const humus::Value& msg) {
    auto parts = msg.tuple_elements(2);  // (cust, request)
    if (parts[1] == humus::Value::symbol("read")) cx.send(parts[0], humus::Value::integer(raw += 50));
  });

  // Another one that only records what it is sent.
  std::mutex alarm_mutex;
  std::vector<std::string> alarms;
  runtime.define_actor("alarm", [&](humus::ActorContext&, const humus::Value& msg) {
    std::lock_guard lock(alarm_mutex);
    alarms.push_back(msg.to_string());
  });

  humus::Result loaded = runtime.load_file(script);
  if (!loaded) {
    std::cerr << loaded.message();
    return 1;
  }

  // ask() sends (customer, #sample) and the future gets the reply.
  humus::Value monitor = *runtime.global("monitor");
  for (int i = 1; i <= 4; ++i) {
    humus::Value t = runtime.ask(monitor, humus::Value::symbol("sample")).get();
    std::cout << "sample " << i << ": " << t.as_int() << " C\n";
  }
  runtime.run_until_idle();

  std::cout << "printed by the script:\n";
  for (const auto& line : printed) std::cout << "  " << line;
  std::cout << "alarms:\n";
  for (const auto& a : alarms) std::cout << "  " << a << "\n";

  // Errors in Humus code come back as values, with their position.
  humus::Result bad = runtime.eval("SEND (#reading, 1) TO");
  for (const auto& d : bad.diagnostics) std::cout << "diagnostic: " << d.to_string() << "\n";

  // Values convert both ways, big integers and strings included.
  humus::Result big = runtime.eval("mul(12345678901234567890, 10)");
  std::cout << "big: " << big.value.as_decimal() << "\n";
  std::cout << "string: " << humus::Value::string("hi").to_string() << "\n";
  return 0;
}
