// The symbol table. Names live in a deque, which never moves its elements,
// so the map's string_view keys stay valid as the table grows.
#include "runtime/symbols.hpp"

#include <deque>
#include <mutex>
#include <unordered_map>

namespace humus::rt {

namespace {

struct SymbolTable {
  std::mutex mu;
  std::deque<std::string> names;                       // id -> name
  std::unordered_map<std::string_view, uint32_t> ids;  // name -> id
};

// Never destroyed: symbols may be printed by threads still running at exit.
SymbolTable& table() {
  static SymbolTable* t = new SymbolTable();
  return *t;
}

}  // namespace

uint32_t intern_symbol(std::string_view name) {
  SymbolTable& t = table();
  std::lock_guard lock(t.mu);
  if (auto it = t.ids.find(name); it != t.ids.end()) return it->second;
  auto id = uint32_t(t.names.size());
  const std::string& stored = t.names.emplace_back(name);
  t.ids.emplace(std::string_view(stored), id);
  return id;
}

std::string symbol_name(uint32_t id) {
  SymbolTable& t = table();
  std::lock_guard lock(t.mu);
  if (id < t.names.size()) return t.names[id];
  return "<symbol " + std::to_string(id) + ">";
}

}  // namespace humus::rt
