// The outline pass brought up to date after an edit (interpreter/lsp/
// reoutline.cpp) must give exactly what a pass over the whole new text
// gives: checked on random edits of the test scripts, one at a time and in
// runs that pass through texts that do not parse.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "interpreter/lsp/analysis.hpp"

using humus::lsp::Analysis;
using humus::lsp::Diagnostic;
using humus::lsp::Edited;
using humus::lsp::Reoutline;

namespace {

// Rounds of random edits: a third under the sanitizers (3,000 took 39 s
// under AddressSanitizer).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr size_t kRounds = 1000;
#else
constexpr size_t kRounds = 3000;
#endif

humus::ast::SourcePtr source_of(std::string text) {
  return std::make_shared<humus::ast::Source>(humus::ast::Source{"t.hum", std::move(text)});
}

// The outline as text, every field of every entry: two outlines are the same
// when these are.
std::string dump(const Analysis& a) {
  std::ostringstream s;
  const auto& o = a.outline;
  s << "parsed " << a.parsed << " complete " << a.complete << " every name " << o.every_name << "\n";
  for (size_t i = 0; i < o.statements.size(); ++i)
    s << "stmt " << o.statements[i].line << ":" << o.statements[i].column << " @"
      << (i < o.statement_bytes.size() ? int64_t(o.statement_bytes[i]) : -1) << "\n";
  for (const auto& d : o.definitions)
    s << "def " << *d.name << " " << d.loc.line << ":" << d.loc.column << " " << int(d.kind) << " " << d.stmt << "\n";
  for (const auto& x : o.occurrences)
    s << "occ " << *x.name << " " << x.loc.line << ":" << x.loc.column << " " << x.definition << " " << x.is_definition
      << "\n";
  for (const auto& i : o.imports)
    s << "import " << i.module << " " << i.loc.line << ":" << i.loc.column << " " << i.string_loc.line << ":"
      << i.string_loc.column << " " << i.string_length << "\n";
  for (const auto& d : a.diagnostics) s << "diag " << d.loc.line << ":" << d.loc.column << " " << d.message << "\n";
  s << "modules " << a.modules.size() << " imported " << a.imported.size() << "\n";
  return s.str();
}

std::vector<std::string> test_scripts() {
  std::vector<std::string> texts;
  const auto tests = std::filesystem::path(__FILE__).parent_path() / ".." / "..";
  for (const char* folder : {"scripts", "stdlib"})
    for (const auto& entry : std::filesystem::directory_iterator(tests / folder)) {
      if (entry.path().extension() != ".hum") continue;
      std::ifstream in(entry.path(), std::ios::binary);
      std::ostringstream text;
      text << in.rdbuf();
      texts.push_back(text.str());
    }
  std::sort(texts.begin(), texts.end());  // the same order on every machine
  return texts;
}

// A random edit of `text`: a stretch deleted, or replaced by a stretch of
// `other` (a bit of another program), or a few characters typed.
struct Edit {
  size_t from, to;
  std::string with;
};
Edit random_edit(const std::string& text, const std::string& other, std::mt19937& rng) {
  auto pick = [&](size_t n) { return n ? size_t(rng() % n) : 0; };
  const size_t from = pick(text.size() + 1);
  const size_t to = std::min(text.size(), from + pick(rng() % 4 ? 8 : 200));
  std::string with;
  switch (rng() % 4) {
    case 0:
      break;
    case 1: {
      const size_t at = pick(other.size() + 1);
      with = other.substr(at, pick(rng() % 4 ? 12 : 300));
      break;
    }
    case 2: {
      static const char* typed[] = {"\n", " ", "(", ")", "x", "[", "]", "DEF g(y) AS y\n", "\"", "#", ",", "\\y."};
      with = typed[pick(std::size(typed))];
      break;
    }
    default:
      with = text.substr(from, to - from);  // a no-op edit, or one the editor sends anyway
      if (!with.empty()) with.back() = char('a' + pick(26));
  }
  return {from, to, with};
}

}  // namespace

TEST_CASE("an edit's re-outline is the whole new text's outline") {
  const auto texts = test_scripts();
  REQUIRE(texts.size() > 50);
  humus::lsp::Modules modules;
  std::mt19937 rng(12345);
  size_t updated = 0, broken = 0, unable = 0;
  for (size_t round = 0; round < kRounds; ++round) {
    const std::string& start = texts[rng() % texts.size()];
    // Every name (the splice of all of an outline's parts), or the top
    // level only, as the server keeps a document's.
    const bool every_name = round % 2 == 0;
    auto base = std::make_shared<Analysis>(humus::lsp::outline_document(source_of(start), "", modules, every_name));
    if (!base->parsed) continue;
    // One to four edits in a row, as the editor sends them; the analysis is
    // brought up to the text after each, unless that one does not parse.
    std::string text = start;
    Edited since;
    const int edits = 1 + int(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      const Edit edit = random_edit(text, texts[rng() % texts.size()], rng);
      since = {std::min(since.same_prefix, edit.from), std::min(since.same_suffix, text.size() - edit.to)};
      text.replace(edit.from, edit.to - edit.from, edit.with);
      const Analysis whole = humus::lsp::outline_document(source_of(text), "", modules, every_name);
      Diagnostic error;
      const std::string before = dump(*base);
      const Reoutline r = humus::lsp::reoutline(*base, source_of(text), since, "", modules, &error);
      INFO("round ", round, ", edit ", e, ": bytes ", edit.from, "-", edit.to, " made '", edit.with, "'\n", text);
      if (r == Reoutline::Updated) {
        ++updated;
        CHECK(base->source->text == text);
        REQUIRE(dump(*base) == dump(whole));
        since = {};
      } else if (r == Reoutline::SyntaxError) {
        ++broken;
        REQUIRE_FALSE(whole.parsed);
        REQUIRE(whole.diagnostics.size() == 1);
        CHECK(error.message == whole.diagnostics[0].message);
        CHECK(error.loc.line == whole.diagnostics[0].loc.line);
        CHECK(error.loc.column == whole.diagnostics[0].loc.column);
        CHECK(dump(*base) == before);  // left as it was, for the next edit
      } else {
        ++unable;
        CHECK(dump(*base) == before);
        break;
      }
    }
  }
  MESSAGE(updated << " edits re-outlined, " << broken << " left a syntax error, " << unable << " needed a whole pass");
  CHECK(updated > kRounds / 3);
  CHECK(broken > kRounds / 6);
}

TEST_CASE("an edit in a big document: what follows it moves by a line and a statement") {
  std::string text;
  for (int k = 0; k < 4000; ++k) text += "DEF f" + std::to_string(k) + "(x) AS add(x, " + std::to_string(k) + ")\n";
  humus::lsp::Modules modules;
  Analysis a = humus::lsp::outline_document(source_of(text), "", modules, true);
  REQUIRE(a.parsed);
  // Line 2,001 (f2000) becomes two statements.
  const size_t from = text.find("DEF f2000(");
  const size_t to = text.find('\n', from) + 1;
  std::string edited = text;
  edited.replace(from, to - from, "DEF g(y) AS y\nDEF h AS g(nowhere)\n");
  Diagnostic error;
  REQUIRE(humus::lsp::reoutline(a, source_of(edited), Edited{from, text.size() - to}, "", modules, &error) ==
          Reoutline::Updated);
  CHECK(a.outline.statements.size() == 4001);
  const auto* h = a.outline.global("h");
  REQUIRE(h);
  CHECK(h->loc.line == 2002);
  CHECK(h->stmt == 2001);
  const auto* last = a.outline.global("f3999");
  REQUIRE(last);
  CHECK(last->loc.line == 4001);
  CHECK(last->stmt == 4000);
  CHECK(dump(a) == dump(humus::lsp::outline_document(source_of(edited), "", modules, true)));
  // An IMPORT among the statements parsed again needs a whole pass: it
  // names modules of its own.
  std::string imported = edited;
  imported.insert(0, "IMPORT \"fifo\"\n");
  CHECK(humus::lsp::reoutline(a, source_of(imported), Edited{0, edited.size()}, "", modules, &error) ==
        Reoutline::Unable);
}

TEST_CASE("a statement's names are found again from its text, as a whole pass finds them") {
  const auto texts = test_scripts();
  humus::lsp::Modules modules;
  size_t statements = 0;
  for (const std::string& text : texts) {
    const Analysis top = humus::lsp::outline_document(source_of(text), "", modules);
    if (!top.parsed) continue;
    CHECK_FALSE(top.outline.every_name);
    CHECK(top.outline.occurrences.empty());
    const Analysis every = humus::lsp::outline_document(source_of(text), "", modules, true);
    // The whole pass's names, cut at the statements' starts, are each statement's own.
    const auto& all = every.outline;
    for (size_t k = 0; k < top.outline.statements.size(); ++k) {
      const humus::lsp::Outline one = humus::lsp::statement_outline(top, k);
      const humus::ast::Loc from = humus::lsp::position_of(text, top.outline.statement_bytes[k]);
      const humus::ast::Loc to = k + 1 < top.outline.statements.size()
                                     ? humus::lsp::position_of(text, top.outline.statement_bytes[k + 1])
                                     : humus::ast::Loc{UINT32_MAX, 0};
      std::vector<std::string> expected, got;
      for (const auto& x : all.occurrences)
        if (!humus::lsp::before(x.loc, from) && humus::lsp::before(x.loc, to))
          expected.push_back(*x.name + " " + std::to_string(x.loc.line) + ":" + std::to_string(x.loc.column) +
                             (x.definition >= 0 ? " " + *all.definitions[size_t(x.definition)].name + "@" +
                                                      std::to_string(all.definitions[size_t(x.definition)].loc.line)
                                                : std::string(" global")));
      for (const auto& x : one.occurrences)
        got.push_back(*x.name + " " + std::to_string(x.loc.line) + ":" + std::to_string(x.loc.column) +
                      (x.definition >= 0 ? " " + *one.definitions[size_t(x.definition)].name + "@" +
                                               std::to_string(one.definitions[size_t(x.definition)].loc.line)
                                         : std::string(" global")));
      INFO("statement ", k, " at ", from.line, ":", from.column);
      CHECK(got == expected);
      for (const auto& d : one.definitions)
        if (d.global()) CHECK(d.stmt == int(k));
      ++statements;
    }
  }
  CHECK(statements > 1000);
}
