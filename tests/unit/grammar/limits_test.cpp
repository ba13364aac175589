// Large and deeply nested inputs: flat sequences of any length parse without
// deep recursion; nesting beyond max_nesting_depth is an error, and parsing
// at the limit fits within 4 MB of stack (half the default main-thread stack).
#include <doctest/doctest.h>
#include <pthread.h>

#include <cstring>
#include <functional>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "ast_dump.hpp"

using humus::parse::max_nesting_depth;
using humus::test::parse;

namespace {

// The giant inputs' sizes: a million elements, a tenth of it under the
// sanitizers, whose instrumented parse of the full size took 90 s of CI's
// time; the code paths (no recursion per element) are the same.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr std::size_t kMillion = 100'000;
#else
constexpr std::size_t kMillion = 1'000'000;
#endif
constexpr std::size_t kHundredThousand = kMillion / 10;

std::string repeat(std::string_view s, std::size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (std::size_t i = 0; i < n; ++i) out += s;
  return out;
}

// Runs f on a thread whose stack of `size` bytes is painted beforehand, and
// returns how many bytes of it were touched.
std::size_t stack_used_by(const std::function<void()>& f, std::size_t size = 16u << 20) {
  auto memory = std::unique_ptr<unsigned char[]>(new unsigned char[size + 4096]);
  auto* base = reinterpret_cast<unsigned char*>((reinterpret_cast<uintptr_t>(memory.get()) + 4095) & ~uintptr_t(4095));
  std::memset(base, 0xA5, size);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstack(&attr, base, size);
  pthread_t thread;
  auto trampoline = [](void* arg) -> void* {
    (*static_cast<const std::function<void()>*>(arg))();
    return nullptr;
  };
  REQUIRE(pthread_create(&thread, &attr, trampoline, const_cast<std::function<void()>*>(&f)) == 0);
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
  std::size_t untouched = 0;
  while (untouched < size && base[untouched] == 0xA5) ++untouched;
  return size - untouched;
}

// prefix + depth x open + inner + depth x close + suffix, where the prefix
// opens `extra` constructs itself.
struct nested_case {
  const char* name;
  std::string open, inner, close;
  std::string prefix = {}, suffix = {};
  std::size_t extra = 0;
};

std::string nested(const nested_case& c, std::size_t depth) {
  return c.prefix + repeat(c.open, depth - c.extra) + c.inner + repeat(c.close, depth - c.extra) + c.suffix;
}

const nested_case nested_cases[] = {
    {"parentheses", "(", "x", ")"},
    {"blocks", "[", "", "]"},
    {"calls", "f(", "x", ")"},
    {"functions", "\\x.", "x", ""},
    {"LET IN", "LET x = 1 IN ", "x", ""},
    {"IF", "IF x = 1 ", "x", ""},
    {"ELSE IF", "IF x = 1 a ELSE ", "x", ""},
    {"CASE", "CASE x OF 1 : ", "x", " END"},
    {"NEW", "NEW ", "x", ""},
    {"tuples", "1, (", "x", ")"},
    {"patterns", "(", "x", ")", "\\", ".x", 1},
    {"pattern tuples", "a, (", "b", ")", "LET ", " = $x", 1},
};

}  // namespace

TEST_CASE(
    "a tuple of a million elements is one flat Tuple; of a million literals, one packed constant (a tenth under the "
    "sanitizers)") {
  auto r = parse("SEND " + repeat("x, ", kMillion - 1) + "NIL TO x");
  REQUIRE(r.program);
  const auto& value = *r.program->stmts.at(0)->value;
  CHECK(value.kind == humus::ast::ExprKind::Tuple);
  CHECK(value.elements.size() == kMillion);
  auto k = parse("SEND " + repeat("1, ", kMillion - 1) + "NIL TO x");
  REQUIRE(k.program);
  const auto& literal = *k.program->stmts.at(0)->value;
  REQUIRE(literal.kind == humus::ast::ExprKind::Const);
  REQUIRE(literal.constant.kind == humus::ast::Constant::Kind::List);
  CHECK(literal.constant.list->size() == kMillion);
  CHECK(literal.constant.list->at(kMillion - 2).text == "1");
  CHECK(literal.constant.list->at(kMillion - 1).kind == humus::ast::Constant::Kind::Nil);
  // Strings too (issue 34), as their UTF-8 with escapes resolved.
  auto s = parse("SEND " + repeat("\"a\\tb\", ", kMillion - 1) + "\"\xC3\xA9\" TO x");
  REQUIRE(s.program);
  const auto& strings = *s.program->stmts.at(0)->value;
  REQUIRE(strings.kind == humus::ast::ExprKind::Const);
  REQUIRE(strings.constant.kind == humus::ast::Constant::Kind::List);
  CHECK(strings.constant.list->size() == kMillion);
  CHECK(strings.constant.list->at(0).kind == humus::ast::Constant::Kind::String);
  CHECK(strings.constant.list->at(0).text == "a\tb");
  CHECK(strings.constant.list->at(kMillion - 1).text == "\xC3\xA9");
  auto p = parse("LET " + repeat("a, ", kMillion - 1) + "b = $x");
  REQUIRE(p.program);
  CHECK(p.program->stmts.at(0)->equation->lhs->elements.size() == kMillion);
}

TEST_CASE("a string of 10 MB and 100,000 statements (a tenth under the sanitizers)") {
  auto r = parse("\"" + repeat("abcdefghi\n", kMillion) + "\"");
  REQUIRE(r.program);
  CHECK(r.program->stmts.at(0)->value->constant.text.size() == 10 * kMillion);
  auto s = parse(repeat("SEND 1 TO x\n", kHundredThousand));
  REQUIRE(s.program);
  CHECK(s.program->stmts.size() == kHundredThousand);
  auto c = parse("CASE x OF " + repeat("1 : a ", kHundredThousand) + "END");
  REQUIRE(c.program);
  CHECK(c.program->stmts.at(0)->value->alternatives.size() == kHundredThousand);
  auto e = parse("IF x = 1 a " + repeat("ELIF x = 2 b ", kHundredThousand));
  REQUIRE(e.program);
  CHECK(e.program->stmts.at(0)->value->branches.size() == kHundredThousand + 1);
}

TEST_CASE("nesting deeper than the limit is an error, not a stack overflow") {
  const std::string expected = fmt::format("nesting too deep (more than {} levels)", max_nesting_depth);
  for (const auto& c : nested_cases) {
    CAPTURE(c.name);
    auto at_limit = parse(nested(c, max_nesting_depth));
    CHECK_MESSAGE(at_limit.program, (at_limit.error ? at_limit.error->message : ""));
    auto over = parse(nested(c, max_nesting_depth + 1));
    REQUIRE(over.error);
    CHECK(over.error->message == expected);
    CHECK_FALSE(over.error->incomplete);
    auto far_over = parse(nested(c, 100'000));
    REQUIRE(far_over.error);
    CHECK(far_over.error->message == expected);
  }
  auto unclosed = parse(repeat("(", 100'000));
  REQUIRE(unclosed.error);
  CHECK(unclosed.error->loc.column == max_nesting_depth + 1);
  // chained calls are flat in the text but nested in the AST: they count too
  auto chain = parse("f" + repeat("()", 100'000));
  REQUIRE(chain.error);
  CHECK(chain.error->message == expected);
  CHECK(parse("f" + repeat("()", max_nesting_depth)).program);
}

TEST_CASE("parsing at the nesting limit uses under 4 MB of stack") {
  std::size_t worst = 0;
  for (const auto& c : nested_cases) {
    std::string text = nested(c, max_nesting_depth);
    bool ok = false;
    std::size_t used = stack_used_by([&] { ok = parse(text).program.has_value(); });
    CHECK(ok);
    MESSAGE(std::string(c.name), ": ", used / 1024, " KiB of stack at depth ", max_nesting_depth);
    worst = std::max(worst, used);
  }
  CHECK(worst < (4u << 20));  // fits the default 8 MB main-thread stack, even under ASan
}
