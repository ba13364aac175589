#include "grammar/hints.hpp"

#include <algorithm>
#include <cctype>
#include <utility>

#include "grammar/suggest.hpp"

namespace humus::parse {

const std::vector<std::string>& keyword_names() {
  static const std::vector<std::string> k = {"LET",   "DEF", "AS",   "IN",   "IF",    "ELIF",   "ELSE", "CASE",
                                             "OF",    "END", "SEND", "TO",   "AFTER", "CREATE", "WITH", "BECOME",
                                             "THROW", "NEW", "SELF", "TRUE", "FALSE", "NIL",    "NOW",  "IMPORT"};
  return k;
}

namespace {

std::string_view line_of(std::string_view text, uint32_t line) {
  size_t start = 0;
  for (uint32_t l = 1; l < line; ++l) {
    start = text.find('\n', start);
    if (start == std::string_view::npos) return {};
    ++start;
  }
  size_t end = text.find('\n', start);
  return text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
}

bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The run of letters, digits and '_' at `at` in `line`.
std::string_view word_at(std::string_view line, size_t at) {
  size_t end = at;
  while (end < line.size() && is_word_char(line[end])) ++end;
  return line.substr(at, end - at);
}

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = char(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

bool is_keyword(std::string_view w) {
  const auto& k = keyword_names();
  return std::find(k.begin(), k.end(), w) != k.end();
}

// `word` written for a keyword: in the wrong case, or misspelt.
std::string keyword_hint(std::string_view word) {
  if (word.size() < 2 || is_keyword(word)) return "";
  if (is_keyword(upper(word))) return "; keywords are upper case: write '" + upper(word) + "'";
  if (upper(word) != word) return "";  // a lower-case word is more likely a name than a misspelt keyword
  std::vector<std::string> near = closest_names(word, keyword_names());
  if (near.empty()) return "";
  // Of the equally close, one with the same first letter (SND: SEND, not END).
  auto same_start = std::find_if(near.begin(), near.end(), [&](const std::string& k) { return k[0] == word[0]; });
  const std::string& best = same_start != near.end() ? *same_start : near[0];
  return "; '" + std::string(word) + "' is not a keyword: did you mean '" + best + "'?";
}

size_t first_non_blank(std::string_view line) {
  size_t i = line.find_first_not_of(" \t\r");
  return i == std::string_view::npos ? line.size() : i;
}

const char kCommentHint[] = "; a comment starts with '#' and a space ('# like this'), not '//'";

}  // namespace

namespace {

// 'SEND f (3) TO ...': the error is at a '(' after a word and a space, so
// the parser took the word alone as a value. The call, written as one.
std::string spaced_call_hint(std::string_view line, size_t at) {
  if (at >= line.size() || line[at] != '(') return "";
  size_t j = at;
  while (j > 0 && (line[j - 1] == ' ' || line[j - 1] == '\t')) --j;
  if (j == at || j == 0 || !is_word_char(line[j - 1])) return "";
  size_t w = j;
  while (w > 0 && is_word_char(line[w - 1])) --w;
  if (is_keyword(line.substr(w, j - w))) return "";  // CREATE (x) WITH ...: not a call
  int depth = 0;
  size_t end = at;
  for (; end < line.size(); ++end) {
    if (line[end] == '(') ++depth;
    if (line[end] == ')' && --depth == 0) break;
  }
  std::string call(line.substr(w, j - w));
  call += end < line.size() ? line.substr(at, end - at + 1) : std::string_view("(...)");
  return "; a call has no space before its '(': write " + call;
}

}  // namespace

std::string syntax_hint(std::string_view text, ast::Loc loc) {
  const std::string_view line = line_of(text, loc.line);
  const size_t at = loc.column ? loc.column - 1 : 0;
  if (at > line.size()) return "";
  const std::string_view rest = line.substr(at);
  if (rest.starts_with("//")) return kCommentHint;
  static const std::pair<std::string_view, std::string_view> kInfix[] = {{"<=", "less_equal"}, {">=", "greater_equal"},
                                                                         {"==", "eq"},         {"!=", "not(eq"},
                                                                         {"+", "add"},         {"-", "sub"},
                                                                         {"*", "mul"},         {"/", "div"},
                                                                         {"<", "less"},        {">", "greater"}};
  for (const auto& [op, fn] : kInfix) {
    if (!rest.starts_with(op)) continue;
    const std::string call = fn == "not(eq" ? "not(eq(a, b))" : std::string(fn) + "(a, b)";
    return "; Humus has no infix operators: write " + call + " for a " + std::string(op) + " b";
  }
  if (std::string hint = keyword_hint(word_at(line, at)); !hint.empty()) return hint;
  if (std::string hint = spaced_call_hint(line, at); !hint.empty()) return hint;
  return keyword_hint(word_at(line, first_non_blank(line)));
}

std::string undefined_name_hint(std::string_view text, ast::Loc loc, const std::string& name) {
  if (name.starts_with("//")) return kCommentHint;
  if (is_keyword(upper(name))) return "; keywords are upper case: write '" + upper(name) + "'";
  const std::string_view line = line_of(text, loc.line);
  const size_t at = std::min<size_t>(loc.column ? loc.column - 1 : 0, line.size());
  // '#word ...': a symbol, where a comment was meant. Not when code follows
  // the symbol as it does in a program: a CASE arm ('#eof : f(x)'), a
  // tuple ('#a, b'), an equation ('#a = x').
  const size_t start = first_non_blank(line);
  if (start + 1 < line.size() && line[start] == '#' && is_word_char(line[start + 1]) && start < at) {
    const std::string_view symbol = word_at(line, start + 1);
    size_t after = start + 1 + symbol.size();
    while (after < line.size() && (line[after] == ' ' || line[after] == '\t')) ++after;
    const bool code_follows =
        after < line.size() && std::string_view(":,=)]").find(line[after]) != std::string_view::npos;
    if (!code_follows)
      return "; a comment starts with '#' and a space: '" + std::string(symbol).insert(0, "#") + "' is a symbol";
  }
  // 'add (x, x)': the innermost '(' still open before the name, after a word and a space.
  int depth = 0;
  for (size_t i = at; i-- > 0;) {
    if (line[i] == ')') ++depth;
    if (line[i] != '(') continue;
    if (depth-- > 0) continue;
    size_t j = i;
    while (j > 0 && (line[j - 1] == ' ' || line[j - 1] == '\t')) --j;
    if (j == i || j == 0 || !is_word_char(line[j - 1])) return "";
    size_t w = j;
    while (w > 0 && is_word_char(line[w - 1])) --w;
    const std::string_view callee = line.substr(w, j - w);
    if (is_keyword(callee)) return "";
    size_t close = line.find(')', i);
    const std::string args = close == std::string_view::npos ? "(...)" : std::string(line.substr(i, close - i + 1));
    return "; a call has no space before its '(': write " + std::string(callee) + args;
  }
  return "";
}

}  // namespace humus::parse
