// The symbol table.
#include <doctest/doctest.h>

#include <string>
#include <thread>
#include <vector>

#include "runtime/symbols.hpp"

using namespace humus::rt;

TEST_CASE("interning") {
  uint32_t a = intern_symbol("alpha");
  uint32_t b = intern_symbol("beta");
  CHECK(a != b);
  CHECK(intern_symbol("alpha") == a);
  CHECK(intern_symbol(std::string("be") + "ta") == b);
  CHECK(symbol_name(a) == "alpha");
  CHECK(symbol_name(b) == "beta");
  uint32_t e = intern_symbol("");
  CHECK(symbol_name(e).empty());
  CHECK(intern_symbol("") == e);
  CHECK(intern_symbol("zero?") != intern_symbol("zero"));
  // names survive the growth of the table
  std::vector<uint32_t> ids;
  for (int i = 0; i < 10'000; ++i) ids.push_back(intern_symbol("grow_" + std::to_string(i)));
  for (int i = 0; i < 10'000; ++i) CHECK(symbol_name(ids[i]) == "grow_" + std::to_string(i));
  CHECK(symbol_name(a) == "alpha");
}

TEST_CASE("interning from several threads") {
  const int kThreads = 4, kNames = 2'000;
  std::vector<std::vector<uint32_t>> got(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([t, &got] {
      // every thread interns the same names, in a different order
      for (int i = 0; i < kNames; ++i) {
        int k = (t % 2) ? kNames - 1 - i : i;
        got[t].push_back(intern_symbol("mt_" + std::to_string(k)));
        (void)symbol_name(got[t].back());
      }
    });
  for (auto& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t)
    for (int i = 0; i < kNames; ++i) {
      int k = (t % 2) ? kNames - 1 - i : i;
      CHECK(got[t][i] == got[0][k]);
      CHECK(symbol_name(got[t][i]) == "mt_" + std::to_string(k));
    }
}
