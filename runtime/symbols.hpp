// The symbol table: #name <-> a small id kept in the Value word.
// Interning happens when code is compiled; the hot path only compares ids.
// Thread-safe: the REPL and embedding hosts compile while actors run.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace humus::rt {

uint32_t intern_symbol(std::string_view name);
std::string symbol_name(uint32_t id);

}  // namespace humus::rt
