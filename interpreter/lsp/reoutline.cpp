// The outline pass again after an edit, over the edited stretch only (issue
// 34, item 4): a 100,000-line document took half a second to parse whole,
// and its old and new outlines side by side were the server's peak memory.
#include <algorithm>
#include <cstring>
#include <iterator>

#include "grammar/parser.hpp"
#include "interpreter/lsp/analysis.hpp"

namespace humus::lsp {

namespace {

int64_t count_lines(std::string_view s) { return std::count(s.begin(), s.end(), '\n'); }

// Replaces v[from, to) with `with`.
template <class T>
void splice(std::vector<T>& v, size_t from, size_t to, std::vector<T>&& with) {
  const size_t common = std::min(to - from, with.size());
  std::move(with.begin(), with.begin() + std::ptrdiff_t(common), v.begin() + std::ptrdiff_t(from));
  if (common < with.size())
    v.insert(v.begin() + std::ptrdiff_t(to), std::make_move_iterator(with.begin() + std::ptrdiff_t(common)),
             std::make_move_iterator(with.end()));
  else
    v.erase(v.begin() + std::ptrdiff_t(from + common), v.begin() + std::ptrdiff_t(to));
}

// The first element of a position-sorted vector at or after `loc`.
template <class T>
size_t first_at(const std::vector<T>& v, ast::Loc loc) {
  return size_t(std::partition_point(v.begin(), v.end(), [&](const T& x) { return before(x.loc, loc); }) - v.begin());
}

}  // namespace

Reoutline reoutline(Analysis& a, ast::SourcePtr source, Edited edited, const std::string& folder, Modules& modules,
                    Diagnostic* error) {
  Outline& o = a.outline;
  const size_t n = o.statements.size();
  if (!a.parsed || o.statement_bytes.size() != n) return Reoutline::Unable;
  const std::string& old_text = a.source->text;
  const std::string& text = source->text;
  // The changed bytes: [prefix, old_end) of the old text, [prefix, new_end) of the new.
  const size_t prefix = std::min({edited.same_prefix, old_text.size(), text.size()});
  const size_t suffix = std::min({edited.same_suffix, old_text.size() - prefix, text.size() - prefix});
  const size_t old_end = old_text.size() - suffix, new_end = text.size() - suffix;
  const int64_t shift = int64_t(text.size()) - int64_t(old_text.size());
  const int64_t line_shift = count_lines(std::string_view(text).substr(prefix, new_end - prefix)) -
                             count_lines(std::string_view(old_text).substr(prefix, old_end - prefix));

  // Parsed again from the statement before the one the edit starts in (an
  // edit can lengthen that one: `f` followed by a statement `(1)` edited
  // into `f(1)`), or from the text's start when that is the first statement.
  const std::vector<uint32_t>& bytes = o.statement_bytes;
  const size_t in = size_t(std::upper_bound(bytes.begin(), bytes.end(), prefix) - bytes.begin());
  const size_t first = in >= 2 ? in - 2 : 0;
  std::optional<parse::Resume> resume;
  // (A statement's own position can be past its first byte: `y` in `(y)`.)
  if (first > 0) resume = parse::Resume{bytes[first], position_of(old_text, bytes[first])};

  // ...up to the first statement that starts where an old one did, past the
  // edit and on a line that starts past it too (so its columns are the same):
  // from there on, the text and so its parse are the old ones, shifted.
  OutlineBuilder builder(source, o.every_name);
  builder.share_names(o.names);
  size_t last = n;  // the first old statement kept after the edit
  parse::ParseResult parsed =
      parse::parse_statements_from(source, resume, [&](ast::StmtPtr s, size_t start, size_t next) {
        builder.add(*s, start);
        if (next < new_end) return true;
        const size_t old_next = size_t(int64_t(next) - shift);
        auto it = std::lower_bound(bytes.begin(), bytes.end(), uint32_t(old_next));
        if (it == bytes.end() || *it != old_next) return true;
        if (!std::memchr(text.data() + new_end, '\n', next - new_end)) return true;
        last = size_t(it - bytes.begin());
        return false;
      });
  if (!parsed.program) {
    *error = {parsed.error->loc, 0, Diagnostic::Severity::Error, parsed.error->message};
    return Reoutline::SyntaxError;
  }
  Outline mid = builder.finish();
  // What the old statements [first, last) held lies between these.
  const ast::Loc from_loc = resume ? resume->loc : ast::Loc{};
  const ast::Loc to_loc = last < n ? position_of(old_text, bytes[last]) : ast::Loc{UINT32_MAX, UINT32_MAX};
  // An IMPORT parsed again may name other modules: all of it again.
  if (!mid.imports.empty()) return Reoutline::Unable;
  for (const Import& i : o.imports)
    if (!before(i.loc, from_loc) && before(i.loc, to_loc)) return Reoutline::Unable;

  const size_t d1 = first_at(o.definitions, from_loc), d2 = first_at(o.definitions, to_loc);
  const size_t o1 = first_at(o.occurrences, from_loc), o2 = first_at(o.occurrences, to_loc);
  // What follows the stretch moves by the lines and bytes the edit added,
  // and by the statements and definitions it made more or fewer.
  auto moved = [&](ast::Loc& loc) { loc.line = uint32_t(int64_t(loc.line) + line_shift); };
  const int64_t more_statements = int64_t(mid.statements.size()) - int64_t(last - first);
  const int64_t more_definitions = int64_t(mid.definitions.size()) - int64_t(d2 - d1);
  for (size_t k = last; k < n; ++k) {
    moved(o.statements[k]);
    o.statement_bytes[k] = uint32_t(int64_t(o.statement_bytes[k]) + shift);
  }
  for (size_t k = d2; k < o.definitions.size(); ++k) {
    moved(o.definitions[k].loc);
    if (o.definitions[k].stmt >= 0) o.definitions[k].stmt += int(more_statements);
  }
  for (size_t k = o2; k < o.occurrences.size(); ++k) {
    moved(o.occurrences[k].loc);
    if (o.occurrences[k].definition >= 0) o.occurrences[k].definition += int(more_definitions);
  }
  for (Import& i : o.imports)
    if (!before(i.loc, to_loc)) {
      moved(i.loc);
      moved(i.string_loc);
    }
  // The new stretch's own numbering starts where the old one's did.
  for (Definition& d : mid.definitions)
    if (d.stmt >= 0) d.stmt += int(first);
  for (Occurrence& x : mid.occurrences)
    if (x.definition >= 0) x.definition += int(d1);
  splice(o.statements, first, last, std::move(mid.statements));
  splice(o.statement_bytes, first, last, std::move(mid.statement_bytes));
  splice(o.definitions, d1, d2, std::move(mid.definitions));
  splice(o.occurrences, o1, o2, std::move(mid.occurrences));
  a.source = std::move(source);
  find_modules(a, folder, modules);
  return Reoutline::Updated;
}

}  // namespace humus::lsp
