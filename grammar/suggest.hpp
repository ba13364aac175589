// "Did you mean ...?": the known names closest to a misspelt one, for
// diagnostics (undefined names, lower-case or misspelt keywords).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace humus::parse {

// The edit distance of a and b (insertions, deletions, substitutions and
// swaps of neighbours each count 1), or a number above `limit` when it is
// larger than `limit`.
size_t edit_distance(std::string_view a, std::string_view b, size_t limit);

// The candidates close enough to `name` to be what was meant, best first, at
// most `max`: within an edit distance of about a third of its length, or
// equal but for letter case.
std::vector<std::string> closest_names(std::string_view name, const std::vector<std::string>& candidates,
                                       size_t max = 3);

// "; did you mean 'a'?" or "; did you mean 'a' or 'b'?", "" for none.
std::string did_you_mean(const std::vector<std::string>& names);

}  // namespace humus::parse
