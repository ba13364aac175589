#include "grammar/suggest.hpp"

#include <algorithm>
#include <cctype>
#include <utility>

namespace humus::parse {

namespace {

// The optimal-string-alignment distance, or limit + 1, on three rows kept
// in `rows`: closest_names compares one name with every global of a
// program, and an allocation per comparison was most of the time.
size_t distance(std::string_view a, std::string_view b, size_t limit, std::vector<size_t>& rows) {
  const size_t n = a.size(), m = b.size();
  if ((n > m ? n - m : m - n) > limit) return limit + 1;
  rows.assign(3 * (m + 1), 0);
  size_t* prev2 = rows.data();
  size_t* prev = prev2 + (m + 1);
  size_t* row = prev + (m + 1);
  for (size_t j = 0; j <= m; ++j) prev[j] = j;
  for (size_t i = 1; i <= n; ++i) {
    row[0] = i;
    size_t best = row[0];
    for (size_t j = 1; j <= m; ++j) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      row[j] = std::min({prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) row[j] = std::min(row[j], prev2[j - 2] + 1);
      best = std::min(best, row[j]);
    }
    if (best > limit) return limit + 1;
    std::swap(prev2, prev);
    std::swap(prev, row);
  }
  return prev[m];
}

void lower_into(std::string_view s, std::string& out) {
  out.assign(s);
  for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
}

}  // namespace

size_t edit_distance(std::string_view a, std::string_view b, size_t limit) {
  std::vector<size_t> rows;
  return distance(a, b, limit, rows);
}

std::vector<std::string> closest_names(std::string_view name, const std::vector<std::string>& candidates, size_t max) {
  std::string key, lowered;
  lower_into(name, key);
  std::vector<size_t> rows;
  // A name of one or two letters is too short to guess from but for case.
  const size_t limit = name.size() < 3 ? 0 : std::max<size_t>(1, name.size() / 3);
  std::vector<std::pair<size_t, std::string>> found;  // (distance, name): closest first
  for (const std::string& c : candidates) {
    if ((c.size() > name.size() ? c.size() - name.size() : name.size() - c.size()) > limit) continue;
    if (c == name) continue;
    lower_into(c, lowered);
    const size_t d = distance(key, lowered, limit, rows);
    if (d <= limit) found.emplace_back(d, c);
  }
  std::sort(found.begin(), found.end());
  found.erase(std::unique(found.begin(), found.end()), found.end());
  std::vector<std::string> out;
  for (size_t i = 0; i < found.size() && i < max; ++i) out.push_back(found[i].second);
  return out;
}

std::string did_you_mean(const std::vector<std::string>& names) {
  if (names.empty()) return "";
  std::string out = "; did you mean ";
  for (size_t i = 0; i < names.size(); ++i) {
    if (i) out += i + 1 == names.size() ? " or " : ", ";
    out += "'" + names[i] + "'";
  }
  return out + "?";
}

}  // namespace humus::parse
