// The parser driver: UTF-8 check, PEGTL parse to a parse tree, conversion of
// the tree to ast:: nodes.
//
// The control class below does three things during the parse:
//   * it keeps a stack of the start positions of the open constructs
//     (errors::opens_scope), which errors refer to as {open} and whose size is
//     the nesting depth that max_nesting_depth limits;
//   * it turns each must<>/raise<> failure into a Diagnostic built from the
//     message of errors.hpp;
//   * its action on `integer` checks radix and digits as soon as a number is
//     read (the check only throws, so re-running it on backtracking is safe).
// The tree is converted after the parse has succeeded, so nothing is built
// that backtracking would have to undo.
#include "grammar/parser.hpp"
#include "grammar/hints.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <string_view>
#include <utility>
#include <vector>

#include <tao/pegtl.hpp>
#include <tao/pegtl/contrib/parse_tree.hpp>

#include "grammar/diagnostic.hpp"
#include "grammar/errors.hpp"
#include "grammar/grammar.hpp"

namespace humus::parse {

namespace {

namespace pegtl = tao::pegtl;
namespace g = humus::grammar;

// Thrown by the control hooks and the converter; caught by parse_program.
struct syntax_error {
  Diagnostic diag;
};

ast::Loc make_loc(std::size_t line, std::size_t column) {
  return {static_cast<uint32_t>(line), static_cast<uint32_t>(column)};
}

std::string nesting_message() { return fmt::format("nesting too deep (more than {} levels)", max_nesting_depth); }

// ------------------------------------------------------- looking at bytes

bool is_ident_byte(unsigned char c) {
  if (c < 0x20 || c == 0x7F) return false;
  switch (c) {
    case ' ':
    case '#':
    case '$':
    case '(':
    case ')':
    case ',':
    case '.':
    case ':':
    case ';':
    case '=':
    case '[':
    case '\\':
    case ']':
    case '"':
      return false;
    default:
      return true;
  }
}

bool is_lambda(const char* p, const char* end) { return end - p >= 2 && p[0] == '\xCE' && p[1] == '\xBB'; }

// The identifier-like run of bytes at p (a name, keyword or number).
std::string_view word_at(const char* p, const char* end) {
  const char* q = p;
  while (q != end && !is_lambda(q, end) && is_ident_byte(static_cast<unsigned char>(*q))) ++q;
  return {p, static_cast<std::size_t>(q - p)};
}

// The bytes of the UTF-8 code point at p (the text is valid UTF-8).
std::string_view code_point_at(const char* p, const char* end) {
  if (p == end) return {};
  auto c = static_cast<unsigned char>(*p);
  std::size_t n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
  n = std::min<std::size_t>(n, static_cast<std::size_t>(end - p));
  return {p, n};
}

constexpr std::array<std::string_view, 24> keywords = {
    "LET",   "DEF",    "AS",   "IN",     "IF",    "ELIF", "ELSE", "CASE", "OF",    "END", "SEND", "TO",
    "AFTER", "CREATE", "WITH", "BECOME", "THROW", "NEW",  "SELF", "TRUE", "FALSE", "NIL", "NOW",  "IMPORT"};

bool is_keyword(std::string_view w) {
  for (auto k : keywords)
    if (k == w) return true;
  return false;
}

// How the token at p is named in a message: 'foo', ']', end of input.
std::string describe_token(const char* p, const char* end) {
  if (p == end) return "end of input";
  std::string_view w = word_at(p, end);
  if (!w.empty()) {
    if (w.size() > 32) return fmt::format("'{}...'", w.substr(0, 32));
    return fmt::format("'{}'", w);
  }
  auto c = static_cast<unsigned char>(*p);
  if (c < 0x20 || c == 0x7F) return fmt::format("character 0x{:02X}", c);
  return fmt::format("'{}'", code_point_at(p, end));
}

// True if only whitespace and comments follow p: the input ended too early.
bool at_end_of_input(const char* p, const char* end) {
  while (p != end) {
    char c = *p;
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      ++p;
    } else if (c == '#' &&
               (p + 1 == end || p[1] == ' ' || p[1] == '\t' || p[1] == '\r' || p[1] == '\n' || p[1] == '#')) {
      while (p != end && *p != '\n') ++p;
    } else {
      return false;
    }
  }
  return true;
}

// ------------------------------------------------------------- the parse

struct parse_state {
  std::string_view text;        // the whole input (for positions in messages)
  std::vector<ast::Loc> open;   // start of each construct being parsed, innermost last
  std::vector<bool> open_case;  // for each: whether it is a CASE
};

// Fill in the placeholders of an errors.hpp message (see there).
std::string expand(std::string_view tmpl, const parse_state& st, const char* p, const char* end, ast::Loc here) {
  std::string out;
  for (std::size_t i = 0; i < tmpl.size();) {
    auto placeholder = [&](std::string_view name) { return tmpl.compare(i, name.size(), name) == 0; };
    if (placeholder("{open}")) {
      out += st.open.empty() ? std::string("?") : position_text(st.text, st.open.back());
      i += 6;
    } else if (placeholder("{here}")) {
      out += position_text(st.text, here);
      i += 6;
    } else if (placeholder("{token}")) {
      out += describe_token(p, end);
      i += 7;
    } else if (placeholder("{name}")) {
      out += word_at(p, end);
      i += 6;
    } else if (placeholder("{char}")) {
      out += code_point_at(p, end);
      i += 6;
    } else {
      out += tmpl[i++];
    }
  }
  return out;
}

template <typename Rule>
struct control : pegtl::normal<Rule> {
  template <typename ParseInput>
  static void start(const ParseInput& in, parse_state& st) {
    if constexpr (g::errors::opens_scope<Rule>) {
      const auto& it = in.iterator();
      st.open.push_back(make_loc(it.line, it.column));
      st.open_case.push_back(std::is_same_v<Rule, g::case_expr>);
      // start() runs when a construct is *tried*, before its first token is
      // matched, and the innermost expression of a nest always tries a few
      // constructs that fail at once.  So one level more than the limit is
      // tried freely; a construct tried inside that one proves the nesting
      // too deep, and the error points at the first construct beyond the limit.
      if (st.open.size() > max_nesting_depth + 1) {
        throw syntax_error{{st.open[max_nesting_depth], nesting_message(), false}};
      }
    }
  }

  template <typename ParseInput>
  static void success(const ParseInput& /*in*/, parse_state& st) noexcept {
    if constexpr (g::errors::opens_scope<Rule>) {
      st.open.pop_back();
      st.open_case.pop_back();
    }
  }

  template <typename ParseInput>
  static void failure(const ParseInput& /*in*/, parse_state& st) noexcept {
    if constexpr (g::errors::opens_scope<Rule>) {
      st.open.pop_back();
      st.open_case.pop_back();
    }
  }

  template <typename ParseInput>
  [[noreturn]] static void raise(const ParseInput& in, parse_state& st) {
    static_assert(g::errors::message<Rule> != nullptr,
                  "every must<>/raise<> point of grammar.hpp needs a message in errors.hpp");
    const char* p = in.current();
    const char* end = in.end();
    std::string message;
    if constexpr (g::errors::expects_name<Rule>) {
      std::string_view w = word_at(p, end);
      // after '=', `NOW` or `NEW x` is a value that lacks its '$': the rule's message says so
      bool value_keyword =
          std::is_same_v<Rule, g::match_rhs> && (w == "NOW" || w == "NEW" || w == "CASE" || w == "IF" || w == "LET");
      if (is_keyword(w) && !value_keyword) {
        message = fmt::format("'{}' is a keyword and cannot be used as a name", w);
      }
    }
    if constexpr (std::is_same_v<Rule, g::escape_code>) {
      if (p == end) message = "unterminated escape sequence at the end of the input";
    }
    const auto& it = in.iterator();
    const ast::Loc here = make_loc(it.line, it.column);
    if (message.empty()) message = expand(g::errors::message<Rule>, st, p, end, here);
    // Some errors are clearer where the construct began (a CASE without END).
    bool at_open = g::errors::reported_at_open<Rule>;
    if constexpr (std::is_same_v<Rule, g::call_in_pattern>) {
      // A call where a CASE alternative's pattern should begin, on a later
      // line and indented no further than the CASE, is far more often the
      // statement after a missing END than a misspelt pattern.
      if (!st.open_case.empty() && st.open_case.back() && here.line > st.open.back().line &&
          here.column <= st.open.back().column) {
        message = expand(g::errors::message<g::case_end>, st, p, end, here);
        message.insert(message.size() - 1, ", and a call cannot be a CASE pattern");
        at_open = true;
      }
    }
    const ast::Loc at = at_open && !st.open.empty() ? st.open.back() : here;
    throw syntax_error{{at, std::move(message), at_end_of_input(p, end)}};
  }
};

// Radix and digits of an integer literal: `-?digits` or `-?radix#digits`.
void check_integer(std::string_view text, std::size_t line, std::size_t column) {
  std::size_t hash = text.find('#');
  if (hash == std::string_view::npos) return;
  std::size_t radix_start = text[0] == '-' ? 1 : 0;
  std::string_view radix_text = text.substr(radix_start, hash - radix_start);
  unsigned radix = 0;
  for (char c : radix_text) {
    radix = radix * 10 + static_cast<unsigned>(c - '0');
    if (radix > 36) break;
  }
  if (radix < 2 || radix > 36) {
    throw syntax_error{
        {make_loc(line, column + radix_start), fmt::format("radix {} is not between 2 and 36", radix_text), false}};
  }
  for (std::size_t i = hash + 1; i < text.size(); ++i) {
    char c = text[i];
    unsigned v = c <= '9'   ? static_cast<unsigned>(c - '0')
                 : c <= 'Z' ? static_cast<unsigned>(c - 'A' + 10)
                            : static_cast<unsigned>(c - 'a' + 10);
    if (v >= radix) {
      throw syntax_error{
          {make_loc(line, column + i), fmt::format("digit '{}' is not valid in radix {}", c, radix), false}};
    }
  }
}

template <typename Rule>
struct action : pegtl::nothing<Rule> {};

template <>
struct action<g::integer> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, parse_state& /*st*/) {
    check_integer(in.string_view(), in.iterator().line, in.iterator().column);
  }
};

// ------------------------------------------------------ parse-tree nodes

// The rules that become parse-tree nodes.  The fold_one ones vanish when they
// have a single child (a tuple of one element is that element; parentheses
// around an expression are the expression).
// clang-format off (it does not settle on one layout for this list)
#define HUMUS_CONTENT_NODES(X) \
  X(variable)                  \
  X(bind)                      \
  X(fn_name)                   \
  X(create_name)               \
  X(integer)                   \
  X(char_lit)                  \
  X(string_lit)                \
  X(import_name)               \
  X(symbol)                    \
  X(nil_parens)                \
  X(c_self)                    \
  X(c_now)                     \
  X(c_true)                    \
  X(c_false)                   \
  X(c_nil)                     \
  X(c_undefined)               \
  X(wildcard)                  \
  X(lambda)                    \
  X(block)                     \
  X(call_args)                 \
  X(new_term)                  \
  X(let_expr)                  \
  X(if_expr)                   \
  X(case_expr)                 \
  X(value_ptrn)                \
  X(function_eqtn)             \
  X(match_eqtn)                \
  X(let_stmt)                  \
  X(def_stmt)                  \
  X(def_function)              \
  X(def_pattern)               \
  X(create_stmt)               \
  X(send_stmt)                 \
  X(after_stmt)                \
  X(become_stmt)               \
  X(throw_stmt)                \
  X(import_stmt)
// clang-format on
#define HUMUS_FOLD_NODES(X) X(tuple_expr) X(postfix) X(paren_expr) X(paren_ptrn) X(fn_param_group) X(ptrn)

struct list_end : pegtl::failure {};  // closes the lists below; never matched
#define HUMUS_COMMA_RULE(r) g::r,
#define HUMUS_LAST_RULE_ list_end
template <typename Rule>
using selector = pegtl::parse_tree::selector<
    Rule, pegtl::parse_tree::store_content::on<HUMUS_CONTENT_NODES(HUMUS_COMMA_RULE) HUMUS_LAST_RULE_>,
    pegtl::parse_tree::fold_one::on<HUMUS_FOLD_NODES(HUMUS_COMMA_RULE) HUMUS_LAST_RULE_>>;

enum class node_kind : uint8_t {
  other,
#define HUMUS_ENUM(r) r,
  HUMUS_CONTENT_NODES(HUMUS_ENUM) HUMUS_FOLD_NODES(HUMUS_ENUM)
#undef HUMUS_ENUM
};

// The node_kind of each rule that makes a node.
template <typename Rule>
constexpr node_kind kind_for = node_kind::other;
#define HUMUS_KIND(r) \
  template <>         \
  constexpr node_kind kind_for<g::r> = node_kind::r;
HUMUS_CONTENT_NODES(HUMUS_KIND)
HUMUS_FOLD_NODES(HUMUS_KIND)
#undef HUMUS_KIND

// Every rule that makes a node makes it when it is tried, and most tries
// fail at once (a term tries TRUE, FALSE, NIL, a string, a symbol, ...).
// While a parse runs, freed nodes wait here for the next try instead of
// going back to the allocator: reading `DEF f1(x) AS add(x, 1)` and
// compiling it went from 210 allocations to 101. (Not under a sanitizer,
// which should see each node's life.)
struct NodePool {
  static constexpr int kMax = 256;
  static inline thread_local NodePool* current = nullptr;
  void* free[kMax];
  int count = 0;
  NodePool* saved;
  NodePool() : saved(current) { current = this; }
  ~NodePool();
  NodePool(const NodePool&) = delete;
  NodePool& operator=(const NodePool&) = delete;
};
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kPoolNodes = false;
#else
constexpr bool kPoolNodes = true;
#endif

// A parse-tree node, as PEGTL's parse_tree builds it (the members it calls:
// start, success, failure, emplace_back, remove_content, children), in 48
// bytes where pegtl::parse_tree::node takes 120: its kind instead of the
// rule's name, where it starts as 32-bit line and column, and its text as a
// pointer and a length. A literal of a million elements is a million nodes
// while it is read (issue 20: compiling's memory).
struct node {
  std::vector<std::unique_ptr<node>> children;
  const char* text = nullptr;  // the node's text, when it keeps its content
  uint32_t length = 0;
  uint32_t line = 0, column = 0;
  node_kind kind = node_kind::other;

  std::string_view string_view() const { return {text, length}; }
  std::string string() const { return std::string(string_view()); }

  template <typename Rule, typename ParseInput, typename... States>
  void start(const ParseInput& in, States&&... /*unused*/) {
    kind = kind_for<Rule>;
    const auto& it = in.iterator();
    text = it.data;
    line = static_cast<uint32_t>(it.line);
    column = static_cast<uint32_t>(it.column);
  }
  template <typename Rule, typename ParseInput, typename... States>
  void success(const ParseInput& in, States&&... /*unused*/) noexcept {
    length = static_cast<uint32_t>(in.iterator().data - text);
  }
  template <typename Rule, typename ParseInput, typename... States>
  void failure(const ParseInput& /*unused*/, States&&... /*unused*/) noexcept {}
  template <typename... States>
  void emplace_back(std::unique_ptr<node>&& child, States&&... /*unused*/) {
    children.emplace_back(std::move(child));
  }
  template <typename... States>
  void remove_content(States&&... /*unused*/) noexcept {
    length = 0;
  }

  static void* operator new(std::size_t n) {
    if (NodePool* p = NodePool::current; kPoolNodes && p && p->count) return p->free[--p->count];
    return ::operator new(n);
  }
  // Unsized: clang before 19 declares no sized global delete by default.
  static void operator delete(void* q) noexcept {
    if (NodePool* p = NodePool::current; kPoolNodes && p && p->count < NodePool::kMax) {
      p->free[p->count++] = q;
      return;
    }
    ::operator delete(q);
  }
};
static_assert(sizeof(node) <= 48);  // 48 with 64-bit pointers

NodePool::~NodePool() {
  while (count) ::operator delete(free[--count]);
  current = saved;
}

node_kind kind_of(const node& n) { return n.kind; }

ast::Loc loc_of(const node& n) { return make_loc(n.line, n.column); }

// ------------------------------------------------- parse tree -> ast

// The text between the quotes of a string or character literal, as UTF-8
// with escapes resolved (the grammar has checked them, and that the rest is
// valid UTF-8). UTF-8, not code points: a literal then costs its own size
// in the syntax tree, not four times it (issue 34, item 5).
std::string decode_quoted(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t escape = s.find('\\', i);
    out.append(s.substr(i, escape - i));
    if (escape == std::string_view::npos) break;
    const char e = s[escape + 1];
    out += e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e == 'b' ? '\b' : e;
    i = escape + 2;
  }
  return out;
}

// The first code point of valid UTF-8 text (a character literal's).
uint32_t first_code_point(std::string_view s) {
  const auto c = static_cast<unsigned char>(s.at(0));
  if (c < 0x80) return c;
  const std::size_t n = c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
  uint32_t cp = c & (0xFF >> (n + 1));
  for (std::size_t k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[k]) & 0x3F);
  return cp;
}

std::string_view unquote(std::string_view s) { return s.substr(1, s.size() - 2); }

// The constant a node stands for, in an expression or a pattern.
std::optional<ast::Constant> constant_of(const node& n) {
  using K = ast::Constant::Kind;
  ast::Constant c;
  switch (kind_of(n)) {
    case node_kind::integer: {
      std::string_view t = n.string_view();
      c.kind = K::Integer;
      if (t[0] == '-') {
        c.negative = true;
        t.remove_prefix(1);
      }
      if (auto hash = t.find('#'); hash != std::string_view::npos) {
        c.radix = static_cast<uint32_t>(std::stoul(std::string(t.substr(0, hash))));
        c.text = t.substr(hash + 1);
      } else {
        c.text = t;
      }
      return c;
    }
    case node_kind::char_lit:
      c.kind = K::Integer;
      c.text = std::to_string(first_code_point(decode_quoted(unquote(n.string_view()))));
      return c;
    case node_kind::string_lit:
      c.kind = K::String;
      c.text = decode_quoted(unquote(n.string_view()));
      return c;
    case node_kind::symbol:
      c.kind = K::Symbol;
      c.text = n.string_view().substr(1);
      return c;
    case node_kind::c_true:
      c.kind = K::True;
      return c;
    case node_kind::c_false:
      c.kind = K::False;
      return c;
    case node_kind::c_nil:
    case node_kind::nil_parens:
      c.kind = K::Nil;
      return c;
    case node_kind::c_undefined:
      c.kind = K::Undefined;
      return c;
    default:
      return std::nullopt;
  }
}

// A literal a packed tuple can hold (ast::PackedConstants).
bool packable(node_kind k) {
  switch (k) {
    case node_kind::integer:
    case node_kind::char_lit:
    case node_kind::string_lit:
    case node_kind::symbol:
    case node_kind::c_true:
    case node_kind::c_false:
    case node_kind::c_nil:
    case node_kind::nil_parens:
    case node_kind::c_undefined:
      return true;
    default:
      return false;
  }
}

[[noreturn]] void internal_error(const node& n) {
  throw syntax_error{{loc_of(n), fmt::format("internal error: unexpected parse node {}", int(n.kind)), false}};
}

// Recursion here follows the nesting of the parse, which the parser limited;
// only chained calls f(1)(2)(3)... are flat in the tree and deep in the AST,
// so `depth` counts them against the same limit.
// Converting a subtree frees it: the parse tree shrinks while the AST grows,
// so a big program never holds both in full (issue 20: compiling's memory).
std::unique_ptr<node> take(std::unique_ptr<node>& p) { return std::move(p); }

class converter {
 public:
  ast::ExprPtr expr(node& n, std::size_t depth) {
    auto e = [&](ast::ExprKind k) { return std::make_unique<ast::Expr>(k, loc_of(n)); };
    auto& kids = n.children;
    switch (kind_of(n)) {
      case node_kind::variable: {
        auto x = e(ast::ExprKind::Var);
        x->name = n.string();
        return x;
      }
      case node_kind::c_self:
        return e(ast::ExprKind::Self);
      case node_kind::c_now:
        return e(ast::ExprKind::Now);
      case node_kind::lambda: {
        auto x = e(ast::ExprKind::Lambda);
        x->param = pattern(*take(kids.at(0)), depth + 1);
        x->body = expr(*take(kids.at(1)), depth + 1);
        return x;
      }
      case node_kind::block: {
        auto x = e(ast::ExprKind::Block);
        x->stmts.reserve(kids.size());
        for (auto& k : kids) x->stmts.push_back(stmt(*take(k), depth + 1));
        return x;
      }
      case node_kind::new_term: {
        auto x = e(ast::ExprKind::New);
        x->body = expr(*take(kids.at(0)), depth + 1);
        return x;
      }
      case node_kind::let_expr: {
        auto x = e(ast::ExprKind::LetIn);
        x->equation = std::make_unique<ast::Equation>(equation(*take(kids.at(0)), depth + 1));
        x->body = expr(*take(kids.at(1)), depth + 1);
        return x;
      }
      case node_kind::if_expr: {
        auto x = e(ast::ExprKind::If);
        std::size_t i = 0;
        for (; i + 1 < kids.size(); i += 2) {
          x->branches.push_back({equation(*take(kids[i]), depth + 1), expr(*take(kids[i + 1]), depth + 1)});
        }
        if (i < kids.size()) x->body = expr(*take(kids[i]), depth + 1);  // ELSE
        return x;
      }
      case node_kind::case_expr: {
        auto x = e(ast::ExprKind::Case);
        x->body = expr(*take(kids.at(0)), depth + 1);
        for (std::size_t i = 1; i + 1 < kids.size(); i += 2) {
          x->alternatives.push_back({pattern(*take(kids[i]), depth + 1), expr(*take(kids[i + 1]), depth + 1)});
        }
        return x;
      }
      case node_kind::tuple_expr: {
        if (kids.size() >= ast::PackedConstants::kPackedAtLeast &&
            std::all_of(kids.begin(), kids.end(), [](const auto& k) { return packable(k->kind); })) {
          auto list = std::make_shared<ast::PackedConstants>();
          list->items.reserve(kids.size());
          for (auto& k : kids) list->add(*constant_of(*take(k)));
          list->items.shrink_to_fit();
          list->text.shrink_to_fit();
          auto x = e(ast::ExprKind::Const);
          x->constant.kind = ast::Constant::Kind::List;
          x->constant.list = std::move(list);
          return x;
        }
        auto x = e(ast::ExprKind::Tuple);
        x->elements.reserve(kids.size());
        for (auto& k : kids) x->elements.push_back(expr(*take(k), depth));
        return x;
      }
      case node_kind::postfix: {
        // children: callee, then one call_args per call, innermost first
        std::size_t calls = kids.size() - 1;
        if (depth + calls > max_nesting_depth) throw syntax_error{{loc_of(n), nesting_message(), false}};
        ast::ExprPtr x = expr(*take(kids.at(0)), depth + calls);
        for (std::size_t i = 1; i < kids.size(); ++i) {
          auto call = e(ast::ExprKind::Call);
          call->callee = std::move(x);
          if (!kids[i]->children.empty()) call->argument = expr(*take(kids[i])->children[0], depth + calls);
          x = std::move(call);
        }
        return x;
      }
      default:
        if (auto c = constant_of(n)) {
          auto x = e(ast::ExprKind::Const);
          x->constant = std::move(*c);
          return x;
        }
        internal_error(n);
    }
  }

  ast::PatternPtr pattern(node& n, std::size_t depth) {
    auto p = [&](ast::PatternKind k) { return std::make_unique<ast::Pattern>(k, loc_of(n)); };
    switch (kind_of(n)) {
      case node_kind::wildcard:
        return p(ast::PatternKind::Wildcard);
      case node_kind::bind: {
        auto x = p(ast::PatternKind::Bind);
        x->name = n.string();
        return x;
      }
      case node_kind::c_self:
        return p(ast::PatternKind::Self);
      case node_kind::value_ptrn: {
        auto x = p(ast::PatternKind::Value);
        x->value = expr(*n.children.at(0), depth + 1);
        return x;
      }
      case node_kind::lambda:
      case node_kind::block: {  // a function or block constant: its value
        auto x = p(ast::PatternKind::Value);
        x->value = expr(n, depth);
        return x;
      }
      case node_kind::ptrn: {
        auto x = p(ast::PatternKind::Tuple);
        x->elements.reserve(n.children.size());
        for (auto& k : n.children) x->elements.push_back(pattern(*take(k), depth));
        return x;
      }
      default:
        if (auto c = constant_of(n)) {
          auto x = p(ast::PatternKind::Const);
          x->constant = std::move(*c);
          return x;
        }
        internal_error(n);
    }
  }

  ast::Equation equation(node& n, std::size_t depth) {
    ast::Equation q;
    q.loc = loc_of(n);
    auto& kids = n.children;
    switch (kind_of(n)) {
      case node_kind::function_eqtn:
      case node_kind::def_function:
        q.kind = ast::Equation::Kind::FunctionDef;
        q.name = kids.at(0)->string();
        q.name_loc = loc_of(*kids[0]);
        q.param = pattern(*take(kids.at(1)), depth);
        q.body = expr(*take(kids.at(2)), depth);
        return q;
      case node_kind::match_eqtn:
        q.kind = ast::Equation::Kind::Match;
        q.lhs = pattern(*take(kids.at(0)), depth);
        q.rhs = pattern(*take(kids.at(1)), depth);
        return q;
      case node_kind::def_pattern:
        q.kind = ast::Equation::Kind::PatternDef;
        q.lhs = pattern(*take(kids.at(0)), depth);
        q.body = expr(*take(kids.at(1)), depth);
        return q;
      default:
        internal_error(n);
    }
  }

  ast::StmtPtr stmt(node& n, std::size_t depth) {
    auto s = [&](ast::StmtKind k) { return std::make_unique<ast::Stmt>(k, loc_of(n)); };
    auto& kids = n.children;
    switch (kind_of(n)) {
      case node_kind::let_stmt: {
        if (kids.size() == 1) {
          auto x = s(ast::StmtKind::Let);
          x->equation = std::make_unique<ast::Equation>(equation(*take(kids[0]), depth + 1));
          return x;
        }
        // LET eqtn IN expr in statement position: an expression statement
        auto let = std::make_unique<ast::Expr>(ast::ExprKind::LetIn, loc_of(n));
        let->equation = std::make_unique<ast::Equation>(equation(*take(kids.at(0)), depth + 1));
        let->body = expr(*take(kids.at(1)), depth + 1);
        auto x = s(ast::StmtKind::Expr);
        x->value = std::move(let);
        return x;
      }
      case node_kind::def_stmt: {
        auto x = s(ast::StmtKind::Let);
        x->equation = std::make_unique<ast::Equation>(equation(*take(kids.at(0)), depth));
        return x;
      }
      case node_kind::create_stmt: {
        auto x = s(ast::StmtKind::Create);
        x->name = kids.at(0)->string();
        x->name_loc = loc_of(*kids[0]);
        x->value = expr(*take(kids.at(1)), depth);
        return x;
      }
      case node_kind::send_stmt: {
        auto x = s(ast::StmtKind::Send);
        x->value = expr(*take(kids.at(0)), depth);
        x->target = expr(*take(kids.at(1)), depth);
        return x;
      }
      case node_kind::after_stmt: {
        auto x = s(ast::StmtKind::After);
        x->delay = expr(*take(kids.at(0)), depth);
        x->value = expr(*take(kids.at(1)), depth);
        x->target = expr(*take(kids.at(2)), depth);
        return x;
      }
      case node_kind::become_stmt: {
        auto x = s(ast::StmtKind::Become);
        x->value = expr(*take(kids.at(0)), depth);
        return x;
      }
      case node_kind::throw_stmt: {
        auto x = s(ast::StmtKind::Throw);
        x->value = expr(*take(kids.at(0)), depth);
        return x;
      }
      case node_kind::import_stmt: {
        auto x = s(ast::StmtKind::Import);
        x->name = decode_quoted(unquote(kids.at(0)->string_view()));
        x->name_loc = loc_of(*kids.at(0));
        return x;
      }
      default: {
        auto x = s(ast::StmtKind::Expr);
        x->value = expr(n, depth);
        return x;
      }
    }
  }
};

// ------------------------------------------------------------ UTF-8 check

// The offset of the first byte that is not part of valid UTF-8 (no overlong
// forms, no surrogates, nothing above U+10FFFF), or npos.
std::size_t invalid_utf8_at(std::string_view s) {
  const auto* b = reinterpret_cast<const unsigned char*>(s.data());
  std::size_t n = s.size();
  for (std::size_t i = 0; i < n;) {
    unsigned char c = b[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t len;
    unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
    if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      if (c == 0xE0) lo = 0xA0;
      if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      if (c == 0xF0) lo = 0x90;
      if (c == 0xF4) hi = 0x8F;
    } else {
      return i;
    }
    for (std::size_t k = 1; k < len; ++k) {
      if (i + k >= n) return i;  // cut short by the end of the input
      unsigned char d = b[i + k];
      // A byte that is no continuation byte at all means the sequence at i
      // was cut short: blame its first byte (the byte after it may be a
      // perfectly good '"'). A continuation byte out of range is itself wrong.
      if ((d & 0xC0) != 0x80) return i;
      if (k == 1 && (d < lo || d > hi)) return i + k;
    }
    i += len;
  }
  return std::string_view::npos;
}

ast::Loc loc_at_offset(std::string_view s, std::size_t offset) {
  uint32_t line = 1;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < offset; ++i) {
    if (s[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  return {line, static_cast<uint32_t>(offset - line_start + 1)};
}

}  // namespace

ParseResult parse_program(ast::SourcePtr source) {
  std::vector<ast::StmtPtr> stmts;
  ParseResult result = parse_program_each(source, [&](ast::StmtPtr s) { stmts.push_back(std::move(s)); });
  if (result.program) result.program->stmts = std::move(stmts);
  return result;
}

ParseResult parse_program_each(ast::SourcePtr source, const std::function<void(ast::StmtPtr)>& each) {
  return parse_statements_from(std::move(source), std::nullopt, [&](ast::StmtPtr s, std::size_t, std::size_t) {
    each(std::move(s));
    return true;
  });
}

ParseResult parse_statements_from(ast::SourcePtr source, std::optional<Resume> at,
                                  const std::function<bool(ast::StmtPtr, std::size_t, std::size_t)>& each) {
  ParseResult result;
  const std::string& text = source->text;
  if (std::size_t bad = invalid_utf8_at(text); bad != std::string_view::npos) {
    result.error = Diagnostic{loc_at_offset(text, bad),
                              fmt::format("invalid UTF-8 byte 0x{:02X}", static_cast<unsigned char>(text[bad])), false};
    return result;
  }
  try {
    NodePool pool;
    parse_state st;
    st.text = text;
    const std::size_t from = at ? std::min(at->byte, text.size()) : 0;
    pegtl::memory_input<pegtl::tracking_mode::eager, pegtl::eol::lf_crlf, std::string_view> in(
        text.data() + from, text.data() + text.size(), source->name, from, at ? at->loc.line : 1,
        at ? at->loc.column : 1);
    // g::program, one statement at a time: its tree is converted and freed
    // before the next is read, so a big script's whole parse tree never
    // exists at once.
    ast::Program program;
    program.source = source;
    converter conv;
    if (at)
      (void)pegtl::parse_tree::parse<g::program_resume, node, selector, action, control>(in, st);
    else
      (void)pegtl::parse_tree::parse<g::program_start, node, selector, action, control>(in, st);
    bool more = true;
    while (more) {
      const std::size_t start = in.byte();
      auto root = pegtl::parse_tree::parse<g::program_next, node, selector, action, control>(in, st);
      if (!root) break;
      for (auto& child : root->children)
        if (more) more = each(conv.stmt(*take(child), 0), start, in.byte());
    }
    if (more) (void)pegtl::parse_tree::parse<g::program_rest, node, selector, action, control>(in, st);
    result.program = std::move(program);
  } catch (const syntax_error& e) {
    result.error = e.diag;
    if (!e.diag.incomplete) result.error->message += syntax_hint(text, e.diag.loc);
  } catch (const pegtl::parse_error& e) {  // not expected: every error point has a message
    const auto& pos = e.positions();
    ast::Loc loc = pos.empty() ? ast::Loc{} : make_loc(pos.front().line, pos.front().column);
    result.error = Diagnostic{loc, std::string(e.message()), false};
  }
  return result;
}

}  // namespace humus::parse
