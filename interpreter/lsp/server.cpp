#include "interpreter/lsp/server.hpp"

#include <signal.h>

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "interpreter/lsp/analysis.hpp"
#include "interpreter/lsp/builtins.hpp"
#include "interpreter/lsp/checker.hpp"
#include "interpreter/lsp/completion.hpp"
#include "interpreter/lsp/text.hpp"
#include "interpreter/lsp/transport.hpp"
#include "interpreter/lsp/uri.hpp"

namespace humus::lsp {

namespace {

using json = nlohmann::json;

// JSON-RPC and LSP error codes.
enum ErrorCode {
  kParseError = -32700,
  kInvalidRequest = -32600,
  kMethodNotFound = -32601,
  kInvalidParams = -32602,
  kInternalError = -32603,
  kServerNotInitialized = -32002,
};

struct RpcError {
  int code;
  std::string message;
};

enum class SymbolKind { Function = 12, Variable = 13, Object = 19, Null = 21 };

// The most definitions a document's outline lists (textDocument/documentSymbol).
constexpr size_t kMaxSymbols = 5000;

struct Document {
  std::string uri;
  Text text;
  int64_t version = 0;
  std::string name;                          // the source's name in messages: its path, or the URI
  std::string folder;                        // where its relative IMPORTs start
  uint64_t revision = 0;                     // the server's count of its texts
  bool dirty = true;                         // its diagnostics are not published, nor being checked
  std::shared_ptr<const Analysis> analysis;  // the outline of the current text
  // The latest analysis of a text that parsed (the current one's, when it
  // parses), and how the current text differs from that one's: an edit
  // brings it up to date by parsing again only around the changed bytes.
  std::shared_ptr<Analysis> last_parsed;
  Edited since_parsed;
};

// The bytes two texts begin with, and then the bytes they end with.
Edited difference(std::string_view a, std::string_view b) {
  const size_t shorter = std::min(a.size(), b.size());
  size_t prefix = 0, suffix = 0;
  while (prefix < shorter && a[prefix] == b[prefix]) ++prefix;
  while (suffix < shorter - prefix && a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix]) ++suffix;
  return {prefix, suffix};
}

bool is_ident_byte(unsigned char c) {
  return c >= 0x80 ||
         (c > 0x20 && c != 0x7F && std::string_view("#$(),.:;=[\\]\"").find(char(c)) == std::string_view::npos);
}

class Server {
 public:
  Server(int in_fd, int out_fd) : io_(in_fd, out_fd) {}

  int run() {
    for (;;) {
      if (!io_.wait(checker_.wake_fd())) {
        finish_check();
        continue;
      }
      std::string body, error;
      switch (io_.read(body, error)) {
        case Transport::Read::End:
          return exit_status();
        case Transport::Read::BadHeader:
          spdlog::warn("lsp: {}", error);
          send_error(nullptr, kParseError, error);
          continue;
        case Transport::Read::Message:
          break;
      }
      handle(body);
      if (exit_) return exit_status();
      if (!io_.pending()) publish_diagnostics();
    }
  }

 private:
  int exit_status() const { return shutdown_ ? 0 : 1; }

  // ------------------------------------------------------------ messages

  void handle(const std::string& body) {
    json msg = json::parse(body, nullptr, false);
    if (msg.is_discarded()) return send_error(nullptr, kParseError, "the message is not JSON");
    if (!msg.is_object()) return send_error(nullptr, kInvalidRequest, "a message must be a JSON object");
    json id = msg.contains("id") ? msg["id"] : json();
    const bool request = msg.contains("id");
    if (request && !id.is_number_integer() && !id.is_string())
      return send_error(nullptr, kInvalidRequest, "a request's id must be an integer or a string");
    if (!msg.contains("method")) {
      if (!request) send_error(nullptr, kInvalidRequest, "a message without a method");
      return;  // a response to a request of ours: we send none
    }
    if (!msg["method"].is_string()) return send_error(id, kInvalidRequest, "the method must be a string");
    const std::string method = msg["method"];
    const json params = msg.contains("params") ? msg["params"] : json::object();
    try {
      if (request)
        respond(id, method, params);
      else
        notify(method, params);
    } catch (const RpcError& e) {
      if (request)
        send_error(id, e.code, e.message);
      else
        spdlog::warn("lsp: {}: {}", method, e.message);
    } catch (const json::exception& e) {
      if (request)
        send_error(id, kInvalidParams, std::string("invalid params: ") + e.what());
      else
        spdlog::warn("lsp: {}: invalid params: {}", method, e.what());
    } catch (const std::exception& e) {
      if (request)
        send_error(id, kInternalError, e.what());
      else
        spdlog::error("lsp: {}: {}", method, e.what());
    }
  }

  void respond(const json& id, const std::string& method, const json& params) {
    if (method == "initialize") {
      if (initialized_) throw RpcError{kInvalidRequest, "initialize was already received"};
      return send_result(id, initialize(params));
    }
    if (!initialized_) throw RpcError{kServerNotInitialized, "the first request must be initialize"};
    if (shutdown_) throw RpcError{kInvalidRequest, "the server is shutting down"};
    if (method == "shutdown") {
      shutdown_ = true;
      return send_result(id, nullptr);
    }
    if (method == "textDocument/hover") return send_result(id, hover(params));
    if (method == "textDocument/definition") return send_result(id, definition(params));
    if (method == "textDocument/documentSymbol") return send_result(id, symbols(params));
    if (method == "textDocument/completion") return send_result(id, completion(params));
    throw RpcError{kMethodNotFound, "unknown method " + method};
  }

  void notify(const std::string& method, const json& params) {
    if (method == "exit") {
      exit_ = true;
      return;
    }
    if (!initialized_ || shutdown_) return;  // dropped, as LSP asks
    if (method == "textDocument/didOpen") return open(params.at("textDocument"));
    if (method == "textDocument/didChange") return change(params);
    if (method == "textDocument/didClose") return close(params.at("textDocument").at("uri"));
    // initialized, $/cancelRequest (requests are answered in order, at
    // once), $/setTrace, didSave, configuration changes: nothing to do.
  }

  // ------------------------------------------------------------ lifecycle

  json initialize(const json& params) {
    initialized_ = true;
    // UTF-8 positions when the client offers them (no conversion), else LSP's UTF-16.
    encoding_ = Encoding::Utf16;
    if (params.contains("capabilities") && params["capabilities"].contains("general")) {
      const json& general = params["capabilities"]["general"];
      if (general.contains("positionEncodings") && general["positionEncodings"].is_array())
        for (const json& e : general["positionEncodings"])
          if (e == "utf-8") encoding_ = Encoding::Utf8;
    }
    return {
        {"capabilities",
         {{"positionEncoding", encoding_ == Encoding::Utf8 ? "utf-8" : "utf-16"},
          {"textDocumentSync", {{"openClose", true}, {"change", 2}}},  // incremental
          {"hoverProvider", true},
          {"definitionProvider", true},
          {"documentSymbolProvider", true},
          {"completionProvider", json::object()}}},
        {"serverInfo", {{"name", "humus"}, {"version", HUMUS_VERSION}}},
    };
  }

  // ------------------------------------------------------------ documents

  void open(const json& item) {
    Document d;
    d.uri = item.at("uri").get<std::string>();
    d.version = item.value("version", int64_t(0));
    if (auto path = path_of_uri(d.uri)) {
      d.name = *path;
      d.folder = std::filesystem::path(*path).parent_path().string();
    } else {
      d.name = d.uri;
    }
    d.text = Text(item.at("text").get<std::string>(), d.name);
    d.revision = ++revisions_;
    std::string uri = d.uri;
    docs_[uri] = std::move(d);
  }

  void change(const json& params) {
    Document& d = document(params.at("textDocument").at("uri"));
    Edited& since = d.since_parsed;
    for (const json& c : params.at("contentChanges")) {
      std::string text = c.at("text").get<std::string>();
      if (c.contains("range")) {
        size_t from = d.text.offset(position(c["range"].at("start")), encoding_);
        size_t to = std::max(from, d.text.offset(position(c["range"].at("end")), encoding_));
        since = {std::min(since.same_prefix, from), std::min(since.same_suffix, d.text.str().size() - to)};
        d.text.replace(from, to, text);
      } else {
        const Edited e = difference(d.text.str(), text);
        since = {std::min(since.same_prefix, e.same_prefix), std::min(since.same_suffix, e.same_suffix)};
        d.text = Text(std::move(text), d.name);
      }
    }
    d.version = params["textDocument"].value("version", d.version);
    d.revision = ++revisions_;
    d.dirty = true;
    d.analysis.reset();
  }

  void close(const std::string& uri) {
    if (docs_.erase(uri))
      send_notification("textDocument/publishDiagnostics", {{"uri", uri}, {"diagnostics", json::array()}});
  }

  Document& document(const json& uri) {
    auto it = docs_.find(uri.get<std::string>());
    if (it == docs_.end()) throw RpcError{kInvalidParams, "no open document " + uri.get<std::string>()};
    return it->second;
  }

  // The current text's outline pass: the last one that parsed brought up to
  // date (reoutline), else made anew.
  const Analysis& analysis(Document& d) {
    if (d.analysis) return *d.analysis;
    const ast::SourcePtr& source = d.text.source();
    if (d.last_parsed) {
      Diagnostic error;
      switch (reoutline(*d.last_parsed, source, d.since_parsed, d.folder, modules_, &error)) {
        case Reoutline::Updated:
          d.since_parsed = {};
          d.analysis = d.last_parsed;
          return *d.analysis;
        case Reoutline::SyntaxError: {
          auto broken = std::make_shared<Analysis>();
          broken->source = source;
          broken->diagnostics.push_back(std::move(error));
          d.analysis = std::move(broken);
          return *d.analysis;
        }
        case Reoutline::Unable:
          break;
      }
    }
    auto a = std::make_shared<Analysis>(outline_document(source, d.folder, modules_));
    if (a->parsed) {
      d.last_parsed = a;
      d.since_parsed = {};
    }
    d.analysis = std::move(a);
    return *d.analysis;
  }

  // Diagnostics of the documents changed since they were last published:
  // a text that does not parse has them from its outline at once; one that
  // does is checked on the checker's thread (one document at a time), and
  // published when that ends (finish_check), if the text is still the same.
  void publish_diagnostics() {
    for (auto& [uri, d] : docs_) {
      if (!d.dirty) continue;
      const Analysis& a = analysis(d);
      if (!a.parsed) {
        d.dirty = false;
        publish(uri, d, a.diagnostics);
        continue;
      }
      if (checker_.busy()) continue;  // its turn comes when the check under way ends
      d.dirty = false;
      checker_.start(uri, d.revision, check_input(a));
    }
  }

  void finish_check() {
    std::optional<Checker::Done> done = checker_.take();
    if (!done) return;
    auto it = docs_.find(done->uri);
    if (it != docs_.end() && it->second.revision == done->revision) {
      // The check's diagnostics first, then the outline's (IMPORTs), as analyze() orders them.
      std::vector<Diagnostic>& list = done->diagnostics;
      const Analysis& a = analysis(it->second);
      list.insert(list.end(), a.diagnostics.begin(), a.diagnostics.end());
      publish(done->uri, it->second, list);
    }
    if (!io_.pending()) publish_diagnostics();  // the next document waiting, if any
  }

  void publish(const std::string& uri, const Document& d, const std::vector<Diagnostic>& diagnostics) {
    json list = json::array();
    for (const Diagnostic& x : diagnostics)
      list.push_back({{"range", range(d.text, x.loc, x.length)},
                      {"severity", int(x.severity)},
                      {"source", "humus"},
                      {"message", x.message}});
    send_notification("textDocument/publishDiagnostics", {{"uri", uri}, {"version", d.version}, {"diagnostics", list}});
  }

  // ------------------------------------------------------------ positions

  static Position position(const json& p) {
    auto line = p.at("line").get<int64_t>(), character = p.at("character").get<int64_t>();
    if (line < 0 || character < 0) throw RpcError{kInvalidParams, "a position cannot be negative"};
    return {uint32_t(std::min<int64_t>(line, UINT32_MAX)), uint32_t(std::min<int64_t>(character, UINT32_MAX))};
  }
  json to_json(Position p) const { return {{"line", p.line}, {"character", p.character}}; }

  // The range of `length` bytes at an AST location in `text`; 0 bytes: the
  // token that starts there (a name, or one character; nothing at a line's end).
  json range(const Text& text, ast::Loc loc, uint32_t length) const {
    if (loc.line == 0) return {{"start", to_json({})}, {"end", to_json({})}};
    const std::string& s = text.str();
    size_t from = text.byte_offset(loc.line, loc.column);
    size_t to = from + length;
    if (length == 0 && from < s.size() && s[from] != '\n' && s[from] != '\r') {
      to = from + 1;
      if (is_ident_byte(static_cast<unsigned char>(s[from])))
        while (to < s.size() && is_ident_byte(static_cast<unsigned char>(s[to]))) ++to;
      while (to < s.size() && (static_cast<unsigned char>(s[to]) & 0xC0) == 0x80) ++to;  // whole code point
    }
    Position start = text.position(loc.line, loc.column, encoding_);
    Position end = to > from ? text.position_of_offset(std::min(to, s.size()), encoding_) : start;
    if (end.line < start.line || (end.line == start.line && end.character < start.character)) end = start;
    return {{"start", to_json(start)}, {"end", to_json(end)}};
  }

  json location(const std::string& uri, const Text& text, ast::Loc loc, uint32_t length) const {
    return {{"uri", uri}, {"range", range(text, loc, length)}};
  }

  // The document and the name under the cursor of a TextDocumentPositionParams.
  // While the text does not parse (as it often does while typing), a name
  // under the cursor is looked up as a global of the last text that did.
  struct Target {
    Document* doc;
    const Analysis* analysis;
    Outline statement;        // every name of the top-level statement there, and its locals
    const Occurrence* found;  // the name there, in `statement`
    const Import* import;     // the module string of an IMPORT, if that is what is there
    size_t import_index = 0;
    std::optional<Occurrence> word;                // or the word there, read from a text that does not parse
    std::shared_ptr<const std::string> word_name;  // the word's name, which `word` points to
    const Occurrence* name() const { return word ? &*word : found; }
    // A local's definition (Occurrence::definition >= 0).
    const Definition& local(const Occurrence& o) const { return statement.definitions[size_t(o.definition)]; }
  };
  Target target(const json& params) {
    Document& d = document(params.at("textDocument").at("uri"));
    const Analysis& a = analysis(d);
    Position p = position(params.at("position"));
    size_t offset = d.text.offset(p, encoding_);
    Position line_start{p.line, 0};
    auto column = uint32_t(offset - d.text.offset(line_start, encoding_) + 1);
    Target t{&d, &a, {}, nullptr, nullptr, 0, std::nullopt, nullptr};
    if (auto stmt = statement_at_byte(a.outline, offset)) {
      t.statement = statement_outline(a, *stmt);
      t.found = t.statement.at(p.line + 1, column);
    }
    if (!a.parsed) {
      t.analysis = d.last_parsed ? d.last_parsed.get() : &a;
      const std::string& s = d.text.str();
      size_t from = offset, to = offset;
      while (from > 0 && is_ident_byte(static_cast<unsigned char>(s[from - 1]))) --from;
      while (to < s.size() && is_ident_byte(static_cast<unsigned char>(s[to]))) ++to;
      if (to > from) {
        std::string w = s.substr(from, to - from);
        // Only a name known as a global or a built-in: not a keyword, not a number.
        if (builtin_doc(w) || find_global(*t.analysis, w)) {
          t.word_name = std::make_shared<const std::string>(std::move(w));
          t.word = Occurrence{t.word_name.get(), {p.line + 1, uint32_t(column - (offset - from))}, -1, false};
        }
      }
      return t;
    }
    for (size_t i = 0; i < a.outline.imports.size(); ++i) {
      const Import& im = a.outline.imports[i];
      if (im.string_loc.line == p.line + 1 && column >= im.string_loc.column &&
          column < im.string_loc.column + im.string_length) {
        t.import = &im;
        t.import_index = i;
      }
    }
    return t;
  }

  // ------------------------------------------------------------ requests

  json hover(const json& params) {
    Target t = target(params);
    if (t.import) {
      const auto& m = t.analysis->imported[t.import_index];
      if (!m) return nullptr;
      return hover_result("module **" + m->shown + "**\n\n`" + m->path + "`", *t.doc, t.import->string_loc,
                          t.import->string_length);
    }
    if (!t.name()) return nullptr;
    const Occurrence& o = *t.name();
    std::string text;
    if (o.definition >= 0) {
      const Definition& d = t.local(o);
      DefinitionText dt = definition_text(*t.analysis->source, t.statement, d);
      text = code_block(dt.code) + "\nlocal `" + *d.name + "`, bound at line " + std::to_string(d.loc.line);
    } else if (auto g = find_global(*t.analysis, *o.name)) {
      const ast::Source& src = g->module ? *g->module->source : *t.analysis->source;
      const Outline& outline = g->module ? g->module->outline : t.analysis->outline;
      DefinitionText dt = definition_text(src, outline, *g->definition);
      text = code_block(dt.code);
      if (!dt.comment.empty()) text += "\n" + dt.comment + "\n";
      text += "\n*" + (g->module ? g->module->shown + ", line " : std::string("line ")) +
              std::to_string(g->definition->loc.line) + "*";
    } else if (const char* doc = builtin_doc(*o.name)) {
      text = std::string(doc) + "\n\n*built-in*";
    } else {
      text = "`" + *o.name + "` is not defined in this file, its imports or the prelude";
    }
    return hover_result(text, *t.doc, o.loc, uint32_t(o.name->size()));
  }

  static std::string code_block(const std::string& code) { return "```humus\n" + code + "\n```\n"; }

  json hover_result(const std::string& markdown, const Document& d, ast::Loc loc, uint32_t length) const {
    return {{"contents", {{"kind", "markdown"}, {"value", markdown}}}, {"range", range(d.text, loc, length)}};
  }

  json definition(const json& params) {
    Target t = target(params);
    if (t.import) {
      const auto& m = t.analysis->imported[t.import_index];
      if (!m) return nullptr;
      return {{"uri", uri_of_path(m->path)}, {"range", {{"start", to_json({})}, {"end", to_json({})}}}};
    }
    if (!t.name()) return nullptr;
    const Occurrence& o = *t.name();
    if (o.definition >= 0) {
      const Definition& d = t.local(o);
      return location(t.doc->uri, t.doc->text, d.loc, uint32_t(d.name->size()));
    }
    auto g = find_global(*t.analysis, *o.name);
    if (!g) return nullptr;  // a built-in, or defined nowhere
    if (!g->module) return location(t.doc->uri, t.doc->text, g->definition->loc, uint32_t(o.name->size()));
    Text module_text(g->module->source->text);
    return location(uri_of_path(g->module->path), module_text, g->definition->loc, uint32_t(o.name->size()));
  }

  // The names that start with the word before the cursor. While the text
  // does not parse (as while typing), the names of the last text that did.
  json completion(const json& params) {
    Document& d = document(params.at("textDocument").at("uri"));
    const Analysis& a = analysis(d).parsed || !d.last_parsed ? analysis(d) : *d.last_parsed;
    Position p = position(params.at("position"));
    const std::string& s = d.text.str();
    const size_t offset = std::min(d.text.offset(p, encoding_), s.size());
    size_t from = offset;
    while (from > 0 && is_ident_byte(static_cast<unsigned char>(s[from - 1]))) --from;
    json items = json::array();
    for (const Completion& c : complete(a, p.line + 1, std::string_view(s).substr(from, offset - from))) {
      // LSP's CompletionItemKind: 3 function, 6 variable, 7 class (an actor), 14 keyword.
      int kind = 6;
      if (c.kind == Completion::Kind::Keyword) kind = 14;
      if (c.kind == Completion::Kind::Function || c.kind == Completion::Kind::Builtin) kind = 3;
      if (c.kind == Completion::Kind::Actor || c.kind == Completion::Kind::BuiltinActor) kind = 7;
      json item = {{"label", c.label}, {"kind", kind}, {"detail", c.detail}};
      if (const char* doc = builtin_doc(c.label); doc && c.detail.starts_with("built-in"))
        item["documentation"] = {{"kind", "markdown"}, {"value", doc}};
      items.push_back(std::move(item));
    }
    return {{"isIncomplete", false}, {"items", std::move(items)}};
  }

  json symbols(const json& params) {
    Document& d = document(params.at("textDocument").at("uri"));
    // While the text does not parse, the outline of the last text that did.
    const Analysis& a = analysis(d).parsed || !d.last_parsed ? analysis(d) : *d.last_parsed;
    json list = json::array();
    const auto& stmts = a.outline.statements;
    size_t more = 0;
    std::optional<ast::Loc> first_more;
    for (const Definition& def : a.outline.definitions) {
      if (!def.global()) continue;
      const size_t i = size_t(def.stmt);
      // Bounded like the diagnostics: a 1,000,000-line document's outline
      // was 150 MB of JSON. The rest are counted in a last entry.
      if (list.size() >= kMaxSymbols) {
        if (!more++) first_more = stmts[i];
        continue;
      }
      ast::Loc end = i + 1 < stmts.size() ? stmts[i + 1] : ast::Loc{uint32_t(d.text.line_count()), UINT32_MAX};
      Position end_pos = d.text.position_of_offset(d.text.byte_offset(end.line, end.column), encoding_);
      SymbolKind kind = def.kind == Definition::Kind::Function ? SymbolKind::Function
                        : def.kind == Definition::Kind::Actor  ? SymbolKind::Object
                                                               : SymbolKind::Variable;
      list.push_back({{"name", *def.name},
                      {"kind", int(kind)},
                      {"range",
                       {{"start", to_json(d.text.position(stmts[i].line, stmts[i].column, encoding_))},
                        {"end", to_json(end_pos)}}},
                      {"selectionRange", range(d.text, def.loc, uint32_t(def.name->size()))}});
    }
    if (more) {
      const json start = to_json(d.text.position(first_more->line, first_more->column, encoding_));
      const json end = to_json(d.text.position_of_offset(d.text.str().size(), encoding_));
      list.push_back({{"name", fmt::format("{} more definitions (only the first {} are listed)", more, kMaxSymbols)},
                      {"kind", int(SymbolKind::Null)},
                      {"range", {{"start", start}, {"end", end}}},
                      {"selectionRange", {{"start", start}, {"end", start}}}});
    }
    return list;
  }

  // ------------------------------------------------------------ output

  void send(const json& msg) {
    if (!io_.write(msg.dump(-1, ' ', false, json::error_handler_t::replace))) exit_ = true;  // the client is gone
  }
  void send_result(const json& id, const json& result) { send({{"jsonrpc", "2.0"}, {"id", id}, {"result", result}}); }
  void send_error(const json& id, int code, const std::string& message) {
    send({{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}});
  }
  void send_notification(const std::string& method, const json& params) {
    send({{"jsonrpc", "2.0"}, {"method", method}, {"params", params}});
  }

  Transport io_;
  bool initialized_ = false;
  bool shutdown_ = false;
  bool exit_ = false;
  Encoding encoding_ = Encoding::Utf16;
  std::map<std::string, Document> docs_;
  uint64_t revisions_ = 0;
  Modules modules_;
  Checker checker_;  // last: destroyed first, waiting for a check under way
};

}  // namespace

int serve(int in_fd, int out_fd) {
  ::signal(SIGPIPE, SIG_IGN);  // a client that goes away ends the server through write's error
  return Server(in_fd, out_fd).run();
}

}  // namespace humus::lsp
