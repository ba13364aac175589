// The text functions (docs/scripting.md): text, number, split, join, trim,
// symbol, symbol_name and format. Strings stay what the language says they
// are, lists of code points; these take any string (packed or built by hand)
// and make packed ones (runtime/str.hpp), so a line split into words costs
// an object a word, not a pair a character. Anything that is not a string
// where one is wanted gives ?.
#include <string>
#include <vector>

#include "runtime/builtins/functions.hpp"
#include "runtime/integer.hpp"
#include "runtime/packed.hpp"
#include "runtime/print.hpp"
#include "runtime/symbols.hpp"
#include "runtime/text.hpp"

namespace humus::rt {

namespace {

// The code points of a string value, or false when it is not one.
bool code_points(const Value& v, std::u32string& out) {
  out.clear();
  if (v.is_str()) {
    const Str* s = v.as<Str>();
    out.resize(s->length);
    for (uint32_t i = 0; i < s->length; ++i) out[i] = s->at(i);
    return true;
  }
  ListCursor c(v);
  for (; c.at_pair(); c.next()) {
    uint32_t cp;
    if (!c.head_code_point(cp)) return false;
    out.push_back(cp);
  }
  return c.rest().is_nil();
}

Value packed(std::u32string_view cps) {
  return str_from_code_points(reinterpret_cast<const uint32_t*>(cps.data()), cps.size());
}

// Text the runtime wrote itself (always UTF-8) as a packed string.
Value packed_utf8(const std::string& text) {
  if (std::optional<Value> v = str_from_utf8(text)) return std::move(*v);
  StrBuilder b;  // never expected; keep what can be read
  b.append_utf8(text);
  return b.finish();
}

bool is_space(uint32_t c) {
  return c == ' ' || (c >= '\t' && c <= '\r') || c == 0x85 || c == 0xA0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

// ---- one argument

// text(v): the string println writes for v.
Value text(const Value& v) {
  std::string out;
  print_value(out, v);
  return packed_utf8(out);
}

// number(s): the integer a decimal string denotes (an optional sign, then
// digits only), else ?.
Value number(const Value& s) {
  std::optional<std::string> t = string_text(s);
  if (!t || t->empty()) return Value::undefined();
  std::string_view digits = *t;
  const bool negative = digits.front() == '-';
  if (negative || digits.front() == '+') digits.remove_prefix(1);
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos) return Value::undefined();
  return parse_integer(digits, 10, negative);
}

// trim(s): s without white space at either end.
Value trim(const Value& s) {
  std::u32string cps;
  if (!code_points(s, cps)) return Value::undefined();
  size_t from = 0, to = cps.size();
  while (from < to && is_space(cps[from])) ++from;
  while (to > from && is_space(cps[to - 1])) --to;
  return packed(std::u32string_view(cps).substr(from, to - from));
}

// symbol(s): the symbol named s (not empty).
Value symbol(const Value& s) {
  std::optional<std::string> t = string_text(s);
  if (!t || t->empty()) return Value::undefined();
  return Value::symbol(intern_symbol(*t));
}

Value symbol_name_of(const Value& v) {
  if (!v.is_symbol()) return Value::undefined();
  return packed_utf8(symbol_name(v.symbol_id()));
}

// ---- two arguments

// split(s, sep): the pieces of s between occurrences of sep (not empty), as a list.
Value split(const Value& s, const Value& sep) {
  std::u32string text, by;
  if (!code_points(s, text) || !code_points(sep, by) || by.empty()) return Value::undefined();
  std::vector<Value> pieces;
  std::u32string_view rest(text);
  for (;;) {
    const size_t at = rest.find(by);
    if (at == std::u32string_view::npos) break;
    pieces.push_back(packed(rest.substr(0, at)));
    rest.remove_prefix(at + by.size());
  }
  pieces.push_back(packed(rest));
  Value list = Value::nil();
  for (size_t i = pieces.size(); i-- > 0;) list = make_pair(std::move(pieces[i]), std::move(list));
  return list;
}

// join(strings, sep): the strings of a list with sep between them.
Value join(const Value& strings, const Value& sep) {
  std::u32string by;
  if (!code_points(sep, by)) return Value::undefined();
  StrBuilder out;
  bool first = true;
  ListCursor c(strings);
  for (; c.at_pair(); c.next()) {
    if (!first)
      for (char32_t cp : by) out.push(cp);
    first = false;
    if (!out.append_string(c.head())) return Value::undefined();
  }
  if (!c.rest().is_nil()) return Value::undefined();
  return out.finish();
}

// format(template, args): ~p puts the next argument as println writes it,
// ~s the next argument (a string) as its text, ~~ a ~. With k directives,
// args is taken as the k-tuple (a1, ..., ak), the last taking the rest; a
// directive with no argument left, or ~s of a non-string, puts ?.
Value format(const Value& tmpl, const Value& args) {
  std::u32string t;
  if (!code_points(tmpl, t)) return Value::undefined();
  size_t directives = 0;
  for (size_t i = 0; i + 1 < t.size(); ++i)
    if (t[i] == '~') {
      if (t[i + 1] == 'p' || t[i + 1] == 's') ++directives;
      ++i;  // ~~ and ~x are one unit
    }
  Value rest = args;
  bool have = directives > 0;
  size_t used = 0;
  // The next argument, or false when none is left.
  auto next_arg = [&](Value& out) {
    if (!have) return false;
    if (++used == directives) {
      out = std::move(rest);
      have = false;
      return true;
    }
    Value tail_value;
    if (!head_tail(rest, out, tail_value)) {  // fewer arguments than directives: this one takes what is left
      out = std::move(rest);
      have = false;
      return true;
    }
    rest = std::move(tail_value);
    return true;
  };
  std::string out;
  for (size_t i = 0; i < t.size(); ++i) {
    if (t[i] != '~' || i + 1 == t.size()) {
      append_utf8(out, t[i]);
      continue;
    }
    const char32_t d = t[++i];
    Value arg;
    if (d == '~') {
      out += '~';
    } else if (d == 'p') {
      if (next_arg(arg))
        print_value(out, arg);
      else
        out += '?';
    } else if (d == 's') {
      std::optional<std::string> s;
      if (next_arg(arg)) s = string_text(arg);
      out += s ? *s : "?";
    } else {  // not a directive: kept as written
      out += '~';
      append_utf8(out, d);
    }
  }
  return packed_utf8(out);
}

constexpr BuiltinFunction kText[] = {
    one("text", text, "`text(v)`: the string `println` writes for v: `text(42)` is `\"42\"`, `text(#ok)` is `\"#ok\"`"),
    one("number", number, "`number(s)`: the integer a decimal string denotes (`number(\"-42\")` is -42), else `?`"),
    two<split>("split",
               "`split(s, sep)`: the list of the pieces of s between occurrences of sep: `split(\"a,b,,c\", \",\")` is "
               "`(\"a\", \"b\", \"\", \"c\", NIL)`"),
    two<join>("join", "`join(strings, sep)`: one string of a list of strings, sep between them"),
    one("trim", trim, "`trim(s)`: s without the white space at its start and end"),
    one("symbol", symbol, "`symbol(s)`: the symbol named by a string: `symbol(\"ok\")` is `#ok`"),
    one("symbol_name", symbol_name_of, "`symbol_name(#ok)`: the name of a symbol as a string, `\"ok\"`"),
    two<format>(
        "format",
        "`format(template, args)`: the template with `~p` replaced by the next argument as `println` writes it, "
        "`~s` by the next argument (a string) as text, `~~` by `~`: `format(\"~s has ~p\", (\"Ann\", 3))` is "
        "`\"Ann has 3\"`"),
};

}  // namespace

std::span<const BuiltinFunction> text_functions() { return kText; }

}  // namespace humus::rt
