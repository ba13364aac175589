// The language server, tested as an editor uses it: `humus --lsp` is started
// as a process and spoken to in JSON-RPC over its standard input and output
// (lsp_client.hpp). Positions are LSP's: 0-based lines, UTF-16 characters.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include "lsp_client.hpp"

using lsp_test::Client;
using lsp_test::json;
using lsp_test::position;
using lsp_test::range;

namespace fs = std::filesystem;

namespace {

// A folder for documents with real paths (relative IMPORTs), removed at the end.
struct TempDir {
  fs::path path =
      fs::temp_directory_path() / ("humus_lsp_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
  std::string uri(const std::string& name) const { return "file://" + (path / name).string(); }
  void write(const std::string& name, const std::string& text) const { std::ofstream(path / name) << text; }
  static inline int counter = 0;
};

json initialize(Client& c, json capabilities = json::object()) {
  json r = c.request("initialize", {{"processId", nullptr}, {"rootUri", nullptr}, {"capabilities", capabilities}});
  c.notify("initialized", json::object());
  return r;
}

void open(Client& c, const std::string& uri, const std::string& text, int version = 1) {
  c.notify("textDocument/didOpen",
           {{"textDocument", {{"uri", uri}, {"languageId", "humus"}, {"version", version}, {"text", text}}}});
}

void edit(Client& c, const std::string& uri, int version, json range, const std::string& text) {
  c.notify("textDocument/didChange", {{"textDocument", {{"uri", uri}, {"version", version}}},
                                      {"contentChanges", json::array({{{"range", range}, {"text", text}}})}});
}

json at(const std::string& uri, int line, int character) {
  return {{"textDocument", {{"uri", uri}}}, {"position", position(line, character)}};
}

json hover(Client& c, const std::string& uri, int line, int character) {
  return c.request("textDocument/hover", at(uri, line, character))["result"];
}

json definition(Client& c, const std::string& uri, int line, int character) {
  return c.request("textDocument/definition", at(uri, line, character))["result"];
}

std::string hover_text(const json& h) { return h.is_null() ? "" : h["contents"]["value"].get<std::string>(); }

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// What `humus --check` prints for a file.
std::string check_output(const fs::path& file) {
  std::string cmd = std::string(std::getenv("HUMUS")) + " --check '" + file.string() + "' 2>&1";
  FILE* p = ::popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  while (size_t n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  ::pclose(p);
  return out;
}

}  // namespace

TEST_CASE("initialize answers the capabilities; the lifecycle is enforced") {
  Client c;
  json early = c.request("textDocument/hover", at("file:///x.hum", 0, 0));
  CHECK(early["error"]["code"] == -32002);

  json r = initialize(c)["result"];
  CHECK(r["capabilities"]["hoverProvider"] == true);
  CHECK(r["capabilities"]["definitionProvider"] == true);
  CHECK(r["capabilities"]["documentSymbolProvider"] == true);
  CHECK(r["capabilities"]["completionProvider"].is_object());
  CHECK(r["capabilities"]["textDocumentSync"]["change"] == 2);
  CHECK(r["capabilities"]["textDocumentSync"]["openClose"] == true);
  CHECK(r["capabilities"]["positionEncoding"] == "utf-16");
  CHECK(r["serverInfo"]["name"] == "humus");

  CHECK(c.request("initialize", {{"capabilities", json::object()}})["error"]["code"] == -32600);
  json down = c.request("shutdown");
  CHECK(down.contains("result"));
  CHECK(down["result"].is_null());
  CHECK(c.request("textDocument/hover", at("file:///x.hum", 0, 0))["error"]["code"] == -32600);
  c.notify("exit", json::object());
  CHECK(c.wait_exit() == 0);
}

TEST_CASE("exit without shutdown, or the end of the input, ends with status 1") {
  {
    Client c;
    initialize(c);
    c.notify("exit", json::object());
    CHECK(c.wait_exit() == 1);
  }
  {
    Client c;
    initialize(c);
    c.close_input();
    CHECK(c.wait_exit() == 1);
  }
  {
    Client c({"script.hum"});  // documents come from the editor, not the command line
    CHECK(c.wait_exit() == 2);
  }
}

TEST_CASE("syntax errors as you type, with the message of humus --check, gone after an incremental edit") {
  TempDir dir;
  Client c;
  initialize(c);
  const std::string text = "SEND (#hi, 1) TO println\nSEND (1, TO println\n";
  dir.write("a.hum", text);
  open(c, dir.uri("a.hum"), text);
  json d = c.diagnostics(dir.uri("a.hum"));
  CHECK(d["version"] == 1);
  REQUIRE(d["diagnostics"].size() == 1);
  const json& x = d["diagnostics"][0];
  CHECK(x["severity"] == 1);
  CHECK(x["source"] == "humus");
  CHECK(x["range"] == range(1, 9, 1, 11));  // the token 'TO'
  CHECK(x["message"] == "expected an expression after ','");
  // The same error, at the same place, as the command reports it.
  CHECK(contains(check_output(dir.path / "a.hum"), "a.hum:2:10: error: " + x["message"].get<std::string>()));

  edit(c, dir.uri("a.hum"), 2, range(1, 9, 1, 9), "2) ");  // SEND (1, 2) TO println
  d = c.diagnostics(dir.uri("a.hum"));
  CHECK(d["version"] == 2);
  CHECK(d["diagnostics"].empty());

  // A whole-text change, and an error at the very end of the input.
  c.notify("textDocument/didChange",
           {{"textDocument", {{"uri", dir.uri("a.hum")}, {"version", 3}}},
            {"contentChanges", json::array({{{"text", "DEF x AS [\n  SEND 1 TO println\n"}}})}});
  d = c.diagnostics(dir.uri("a.hum"));
  CHECK(d["version"] == 3);
  REQUIRE(d["diagnostics"].size() == 1);
  CHECK(d["diagnostics"][0]["message"] == "expected ']' to close the block opened at 1:10");
  CHECK(d["diagnostics"][0]["range"]["start"]["line"] == 2);

  c.notify("textDocument/didClose", {{"textDocument", {{"uri", dir.uri("a.hum")}}}});
  d = c.diagnostics(dir.uri("a.hum"));
  CHECK(d["diagnostics"].empty());
  CHECK(c.request("textDocument/hover", at(dir.uri("a.hum"), 0, 0))["error"]["code"] == -32602);
}

TEST_CASE("compile errors, unknown modules and names defined nowhere") {
  Client c;
  initialize(c);
  open(c, "untitled:1", "DEF f AS \\(x, x).x\n");
  json d = c.diagnostics("untitled:1");
  REQUIRE(d["diagnostics"].size() == 1);
  CHECK(d["diagnostics"][0]["message"] == "'x' is bound twice in this pattern");
  CHECK(d["diagnostics"][0]["severity"] == 1);
  CHECK(d["diagnostics"][0]["range"]["start"]["line"] == 0);

  open(c, "untitled:2", "BECOME \\m.[]\n");
  d = c.diagnostics("untitled:2");
  REQUIRE(d["diagnostics"].size() == 1);
  CHECK(d["diagnostics"][0]["message"] == "BECOME can only be used inside an actor's behavior, not at top level");

  // Names from the prelude, the built-ins, later definitions and locals are
  // known; one defined nowhere is reported as the command line does.
  open(c, "untitled:3",
       "IMPORT \"no_such_module\"\n"
       "SEND map(\\x.add(x, later), (1, NIL)) TO nowhere\n"
       "DEF later AS 1\n"
       "CREATE a WITH \\m.[ SEND m TO nowhere ]\n");
  d = c.diagnostics("untitled:3");
  json list = d["diagnostics"];
  REQUIRE(list.size() == 1);  // with an import missing, names are not judged
  CHECK(list[0]["message"] == "no module named 'no_such_module' in $HUMUS_PATH or the standard library");
  CHECK(list[0]["range"] == range(0, 7, 0, 23));  // the string

  edit(c, "untitled:3", 2, range(0, 0, 1, 0), "");  // drop the IMPORT
  d = c.diagnostics("untitled:3");
  list = d["diagnostics"];
  // As on the command line (interpreter/name_check.hpp): once per name, an
  // error where top-level code reads it, at that use.
  REQUIRE(list.size() == 1);
  CHECK(list[0]["severity"] == 1);
  CHECK(list[0]["message"] == "'nowhere' is not defined");
  CHECK(list[0]["range"] == range(0, 40, 0, 47));

  // Read only in a body: a warning, with the command line's did-you-mean.
  open(c, "untitled:4", "CREATE a WITH \\m.[ SEND m TO printn ]\n");
  list = c.diagnostics("untitled:4")["diagnostics"];
  REQUIRE(list.size() == 1);
  CHECK(list[0]["severity"] == 2);
  CHECK(list[0]["message"] ==
        "'printn' is not defined; did you mean 'print' or 'println'? (a runtime error if this code runs)");
  CHECK(list[0]["range"] == range(0, 29, 0, 35));
}

TEST_CASE("hover documents the scripting built-ins: text functions and the device actors") {
  Client c;
  initialize(c);
  const std::string uri = "untitled:s";
  open(c, uri,
       "SEND format(\"~p\", split(\"a,b\", \",\")) TO print\n"
       "SEND (println, #lines, \"x.txt\") TO files\n"
       "SEND (println, #now) TO clock\n"
       "SEND (println, #read_line) TO stdin\n");
  CHECK(contains(hover_text(hover(c, uri, 0, 6)), "`format(template, args)`"));
  CHECK(contains(hover_text(hover(c, uri, 0, 19)), "`split(s, sep)`"));
  CHECK(contains(hover_text(hover(c, uri, 1, 37)), "#lines"));
  CHECK(contains(hover_text(hover(c, uri, 2, 25)), "#now"));
  CHECK(contains(hover_text(hover(c, uri, 3, 32)), "#read_line"));
}

TEST_CASE("hover shows a global's definition and its comment; go to definition finds it") {
  Client c;
  initialize(c);
  const std::string uri = "untitled:h";
  open(c, uri,
       "# Doubles a number.\n"
       "DEF double(n) AS mul(n, 2)\n"
       "DEF quad(n) AS double(double(n))\n"
       "CREATE printer WITH \\m.[ SEND map(quad, m) TO println ]\n"
       "SEND (1, 2, NIL) TO printer\n");
  CHECK(c.diagnostics(uri)["diagnostics"].empty());

  json h = hover(c, uri, 2, 15);  // double(double(n))
  CHECK(hover_text(h) == "```humus\nDEF double(n) AS mul(n, 2)\n```\n\nDoubles a number.\n\n*line 2*");
  CHECK(h["range"] == range(2, 15, 2, 21));
  CHECK(definition(c, uri, 2, 15) == json{{"uri", uri}, {"range", range(1, 4, 1, 10)}});
  CHECK(definition(c, uri, 2, 22) == json{{"uri", uri}, {"range", range(1, 4, 1, 10)}});

  // A parameter: its binding.
  CHECK(contains(hover_text(hover(c, uri, 1, 21)), "local `n`, bound at line 2"));
  CHECK(definition(c, uri, 1, 21) == json{{"uri", uri}, {"range", range(1, 11, 1, 12)}});
  CHECK(definition(c, uri, 2, 29) == json{{"uri", uri}, {"range", range(2, 9, 2, 10)}});  // quad's own n

  // An actor, a prelude function, a built-in function and a built-in actor.
  CHECK(contains(hover_text(hover(c, uri, 4, 20)), "CREATE printer WITH"));
  std::string map = hover_text(hover(c, uri, 3, 30));
  CHECK(contains(map, "DEF map(f, xs) AS"));
  json map_def = definition(c, uri, 3, 30);
  const std::string prelude_uri = map_def["uri"].get<std::string>();
  REQUIRE(prelude_uri.starts_with("file://"));
  CHECK(prelude_uri.ends_with("/stdlib/prelude.hum"));
  // The line of `DEF map(` in the prelude the server read, counted from 0.
  int map_line = 0;
  {
    std::ifstream prelude(prelude_uri.substr(7));
    std::string line;
    while (std::getline(prelude, line) && !line.starts_with("DEF map(")) ++map_line;
  }
  CHECK(contains(map, "stdlib/prelude.hum, line " + std::to_string(map_line + 1)));
  CHECK(map_def["range"] == range(map_line, 4, map_line, 7));
  CHECK(contains(hover_text(hover(c, uri, 1, 17)), "`mul(a, b)`: a * b"));
  CHECK(definition(c, uri, 1, 17).is_null());
  CHECK(contains(hover_text(hover(c, uri, 3, 46)), "actor `println`"));
  // Not a name: a keyword, a number, a comment.
  CHECK(hover(c, uri, 1, 1).is_null());
  CHECK(hover(c, uri, 1, 24).is_null());
  CHECK(hover(c, uri, 0, 4).is_null());

  // While the text does not parse, globals are still found.
  edit(c, uri, 2, range(5, 0, 5, 0), "SEND (");
  CHECK(c.diagnostics(uri)["diagnostics"].size() == 1);
  CHECK(contains(hover_text(hover(c, uri, 2, 15)), "DEF double(n)"));
  CHECK(definition(c, uri, 3, 30)["uri"].get<std::string>().ends_with("/stdlib/prelude.hum"));
  CHECK(hover(c, uri, 1, 1).is_null());  // DEF is no global

  json symbols = c.request("textDocument/documentSymbol", {{"textDocument", {{"uri", uri}}}})["result"];
  REQUIRE(symbols.size() == 3);
  CHECK(symbols[0]["name"] == "double");
  CHECK(symbols[0]["kind"] == 12);  // Function
  CHECK(symbols[0]["selectionRange"] == range(1, 4, 1, 10));
  CHECK(symbols[2]["name"] == "printer");
  CHECK(symbols[2]["kind"] == 19);  // Object: an actor

  // The broken edit undone, then a line put above all: everything moves
  // down a line (the outline is brought up to date around each edit).
  edit(c, uri, 3, range(5, 0, 5, 6), "");
  CHECK(c.diagnostics(uri)["diagnostics"].empty());
  edit(c, uri, 4, range(0, 0, 0, 0), "DEF one AS 1\n");
  CHECK(c.diagnostics(uri)["diagnostics"].empty());
  CHECK(definition(c, uri, 3, 15) == json{{"uri", uri}, {"range", range(2, 4, 2, 10)}});
  CHECK(contains(hover_text(hover(c, uri, 3, 15)), "*line 3*"));
  CHECK(definition(c, uri, 2, 21) == json{{"uri", uri}, {"range", range(2, 11, 2, 12)}});
  symbols = c.request("textDocument/documentSymbol", {{"textDocument", {{"uri", uri}}}})["result"];
  REQUIRE(symbols.size() == 4);
  CHECK(symbols[0]["name"] == "one");
  CHECK(symbols[3]["selectionRange"] == range(4, 7, 4, 14));

  // A whole-text change (no range) that inserts two lines in the middle:
  // what follows moves down two lines.
  c.notify("textDocument/didChange",
           {{"textDocument", {{"uri", uri}, {"version", 5}}},
            {"contentChanges", json::array({{{"text",
                                              "DEF one AS 1\n"
                                              "# Doubles a number.\n"
                                              "DEF double(n) AS mul(n, 2)\n"
                                              "DEF two AS 2\n"
                                              "DEF three AS 3\n"
                                              "DEF quad(n) AS double(double(n))\n"
                                              "CREATE printer WITH \\m.[ SEND map(quad, m) TO println ]\n"
                                              "SEND (1, 2, NIL) TO printer\n"}}})}});
  CHECK(c.diagnostics(uri)["diagnostics"].empty());
  CHECK(definition(c, uri, 5, 15) == json{{"uri", uri}, {"range", range(2, 4, 2, 10)}});
  CHECK(definition(c, uri, 5, 29) == json{{"uri", uri}, {"range", range(5, 9, 5, 10)}});  // quad's own n
  CHECK(definition(c, uri, 6, 30)["uri"].get<std::string>().ends_with("/stdlib/prelude.hum"));
  symbols = c.request("textDocument/documentSymbol", {{"textDocument", {{"uri", uri}}}})["result"];
  REQUIRE(symbols.size() == 6);
  CHECK(symbols[3]["name"] == "three");
  CHECK(symbols[5]["selectionRange"] == range(6, 7, 6, 14));
}

// The labels of a completion answer, and the item of one label.
std::vector<std::string> labels(const json& result) {
  std::vector<std::string> out;
  for (const json& item : result["items"]) out.push_back(item["label"].get<std::string>());
  return out;
}
json item_of(const json& result, const std::string& label) {
  for (const json& item : result["items"])
    if (item["label"] == label) return item;
  return nullptr;
}

TEST_CASE("completion: the names in scope that start with the word typed, while it does not parse too") {
  Client c;
  initialize(c);
  const std::string uri = "untitled:c";
  open(c, uri,
       "DEF printer_beh(prefix) AS \\m.[ SEND (prefix, m) TO println ]\n"
       "CREATE printer WITH printer_beh(#p)\n"
       "SEND 1 TO pri\n");
  auto complete = [&](int line, int character) {
    return c.request("textDocument/completion", at(uri, line, character))["result"];
  };
  json r = complete(2, 13);  // after "pri"
  CHECK(r["isIncomplete"] == false);
  std::vector<std::string> got = labels(r);
  CHECK(got == std::vector<std::string>{"print", "printer", "printer_beh", "println"});
  CHECK(item_of(r, "printer")["detail"] == "this file");
  CHECK(item_of(r, "printer")["kind"] == 7);      // an actor
  CHECK(item_of(r, "printer_beh")["kind"] == 3);  // a function
  CHECK(contains(item_of(r, "println")["documentation"]["value"].get<std::string>(), "actor `println`"));

  // A local of the statement, a prelude function, a keyword; no internal names.
  got = labels(complete(0, 41));  // after "SEND (pre"
  CHECK(std::find(got.begin(), got.end(), "prefix") != got.end());
  r = complete(2, 0);  // nothing typed: everything
  got = labels(r);
  CHECK(item_of(r, "map")["detail"] == "stdlib/prelude.hum");
  CHECK(item_of(r, "SEND")["kind"] == 14);
  CHECK(item_of(r, "format")["detail"] == "built-in");
  for (const std::string& l : got) CHECK_FALSE((l.starts_with("native_") || l.starts_with("prelude_")));

  // Mid-edit, the text does not parse: the names of the last text that did.
  edit(c, uri, 2, range(2, 13, 2, 13), "ntln(");
  REQUIRE(c.diagnostics(uri)["diagnostics"].size() == 1);  // a syntax error
  got = labels(complete(2, 13));
  CHECK(got == std::vector<std::string>{"print", "printer", "printer_beh", "println"});
}

TEST_CASE("IMPORT: modules beside the file and in the standard library") {
  TempDir dir;
  dir.write("lib.hum", "# Helps.\nDEF helper(x) AS add(x, 1)\n");
  dir.write("broken.hum", "DEF oops AS (\n");
  Client c;
  initialize(c);
  const std::string uri = dir.uri("main.hum");
  open(c, uri, "IMPORT \"lib.hum\"\nIMPORT \"fifo\"\nSEND helper(fifo_empty) TO println\n");
  CHECK(c.diagnostics(uri)["diagnostics"].empty());
  json h = hover(c, uri, 2, 6);
  CHECK(contains(hover_text(h), "DEF helper(x) AS add(x, 1)"));
  CHECK(contains(hover_text(h), "Helps."));
  json lib = definition(c, uri, 2, 6);
  CHECK(lib["uri"] == dir.uri("lib.hum"));
  CHECK(lib["range"] == range(1, 4, 1, 10));
  CHECK(definition(c, uri, 2, 13)["uri"].get<std::string>().ends_with("/stdlib/fifo.hum"));
  // On the module's name: the module.
  CHECK(definition(c, uri, 1, 9)["uri"].get<std::string>().ends_with("/stdlib/fifo.hum"));
  CHECK(contains(hover_text(hover(c, uri, 0, 10)), "module **" + (dir.path / "lib.hum").string()));

  edit(c, uri, 2, range(0, 8, 0, 11), "broken");  // IMPORT "broken.hum"
  json d = c.diagnostics(uri)["diagnostics"];
  REQUIRE(d.size() == 1);
  CHECK(d[0]["message"] ==
        "module " + (dir.path / "broken.hum").string() + " does not parse: 2:1: expected an expression after '('");
  CHECK(d[0]["range"] == range(0, 7, 0, 19));

  // What a run would refuse to read: a path out of the document's folder, an
  // absolute path, a file that is not a .hum module.
  fs::create_directories(dir.path / "sub");
  const std::string sub = dir.uri("sub/main.hum");
  open(c, sub, "IMPORT \"../lib.hum\"\nIMPORT \"/etc/passwd\"\nIMPORT \"x/lib.txt\"\nSEND helper(1) TO println\n");
  d = c.diagnostics(sub)["diagnostics"];
  REQUIRE(d.size() == 3);  // and no word on helper: with imports missing, names are not judged
  const std::string rule =
      ": not a module: IMPORT takes a standard-library name (\"queue\") or a relative path to a .hum file in or "
      "below the script's folder";
  CHECK(d[0]["message"] == "IMPORT \"../lib.hum\"" + rule);
  CHECK(d[0]["range"] == range(0, 7, 0, 19));
  CHECK(d[1]["message"] == "IMPORT \"/etc/passwd\"" + rule);
  CHECK(d[2]["message"] == "IMPORT \"x/lib.txt\"" + rule);
  CHECK(definition(c, sub, 0, 10).is_null());
}

TEST_CASE("positions count UTF-16 units, or bytes when the client asks for UTF-8") {
  // é is 2 bytes and 1 unit, 😀 4 bytes and 2 units.
  const std::string text = "DEF s AS \"é😀\" DEF t AS s\n";
  {
    Client c;
    initialize(c);
    open(c, "untitled:u", text);
    CHECK(c.diagnostics("untitled:u")["diagnostics"].empty());
    CHECK(hover(c, "untitled:u", 0, 24)["range"] == range(0, 24, 0, 25));
    CHECK(definition(c, "untitled:u", 0, 24)["range"] == range(0, 4, 0, 5));
    edit(c, "untitled:u", 2, range(0, 25, 0, 25), " ]");
    json d = c.diagnostics("untitled:u")["diagnostics"];
    REQUIRE(d.size() == 1);
    CHECK(d[0]["range"] == range(0, 26, 0, 27));        // the ']'
    edit(c, "untitled:u", 3, range(0, 10, 0, 13), "");  // drop é😀, in units
    edit(c, "untitled:u", 4, range(0, 22, 0, 24), "");  // and " ]"
    // Version 3 may be published first, if the server finds its input
    // empty between the two edits.
    do d = c.diagnostics("untitled:u");
    while (d["version"] != 4);
    CHECK(d["diagnostics"].empty());
    CHECK(hover(c, "untitled:u", 0, 21)["range"] == range(0, 21, 0, 22));  // DEF s AS "" DEF t AS s
  }
  {
    // A compile error after wide characters on its line (its column was
    // once given in characters and read as bytes).
    Client c;
    initialize(c);
    open(c, "untitled:w", "DEF s AS \"é😀\" DEF f AS \\(x, x).x\n");
    json d = c.diagnostics("untitled:w")["diagnostics"];
    REQUIRE(d.size() == 1);
    CHECK(d[0]["message"] == "'x' is bound twice in this pattern");
    CHECK(d[0]["range"] == range(0, 29, 0, 30));  // the second x: byte 32, unit 29
  }
  {
    Client c;
    json r = initialize(c, {{"general", {{"positionEncodings", {"utf-8", "utf-16"}}}}})["result"];
    CHECK(r["capabilities"]["positionEncoding"] == "utf-8");
    open(c, "untitled:u", text);
    CHECK(c.diagnostics("untitled:u")["diagnostics"].empty());
    CHECK(hover(c, "untitled:u", 0, 27)["range"] == range(0, 27, 0, 28));
    edit(c, "untitled:u", 2, range(0, 28, 0, 28), " ]");
    json d = c.diagnostics("untitled:u")["diagnostics"];
    REQUIRE(d.size() == 1);
    CHECK(d[0]["range"] == range(0, 29, 0, 30));
  }
}

TEST_CASE("bad input gets JSON-RPC errors and the server goes on") {
  Client c;
  initialize(c);
  c.write_raw(Client::frame("{not json"));
  json e = c.receive();
  CHECK(e["error"]["code"] == -32700);
  CHECK(e["id"].is_null());
  c.write_raw("X-Nonsense: 1\r\n\r\n");
  e = c.receive();
  CHECK(e["error"]["code"] == -32700);
  CHECK(contains(e["error"]["message"], "Content-Length"));
  c.write_raw(Client::frame("[1, 2]"));
  CHECK(c.receive()["error"]["code"] == -32600);
  CHECK(c.request("no/such/method")["error"]["code"] == -32601);
  CHECK(c.request("textDocument/hover", {{"position", position(0, 0)}})["error"]["code"] == -32602);
  CHECK(c.request("textDocument/hover", at("untitled:none", 0, 0))["error"]["code"] == -32602);
  CHECK(c.request("textDocument/hover", at("untitled:none", -1, 0))["error"]["code"] == -32602);
  c.notify("no/such/notification", {{"x", 1}});
  c.notify("textDocument/didOpen", {{"bad", true}});  // a notification's bad params: no answer
  CHECK(c.quiet_for(300));

  // Two messages in one write, and one message in two writes.
  std::string two = Client::frame(R"({"jsonrpc":"2.0","id":101,"method":"no/such"})") +
                    Client::frame(R"({"jsonrpc":"2.0","id":102,"method":"no/such"})");
  c.write_raw(two);
  CHECK(c.response(101)["error"]["code"] == -32601);
  CHECK(c.response(102)["error"]["code"] == -32601);
  std::string one = Client::frame(R"({"jsonrpc":"2.0","id":103,"method":"no/such"})");
  c.write_raw(one.substr(0, 10));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  c.write_raw(one.substr(10));
  CHECK(c.response(103)["error"]["code"] == -32601);

  // A burst of edits: the diagnostics end on the last version.
  std::string burst = Client::frame(
      json({{"jsonrpc", "2.0"},
            {"method", "textDocument/didOpen"},
            {"params",
             {{"textDocument", {{"uri", "untitled:b"}, {"languageId", "humus"}, {"version", 1}, {"text", ""}}}}}})
          .dump());
  for (int v = 2; v <= 6; ++v)
    burst += Client::frame(
        json({{"jsonrpc", "2.0"},
              {"method", "textDocument/didChange"},
              {"params",
               {{"textDocument", {{"uri", "untitled:b"}, {"version", v}}},
                {"contentChanges", json::array({{{"range", range(0, v - 2, 0, v - 2)}, {"text", "("}}})}}}})
            .dump());
  c.write_raw(burst);
  json d;
  do d = c.diagnostics("untitled:b");
  while (d["version"] != 6);
  REQUIRE(d["diagnostics"].size() == 1);
  CHECK(contains(d["diagnostics"][0]["message"], "expected an expression after '('"));

  CHECK(c.request("shutdown")["result"].is_null());
  c.notify("exit", json::object());
  CHECK(c.wait_exit() == 0);
}

TEST_CASE("requests are answered from the outline while a big document is still being checked") {
  Client c;
  c.timeout_ms = 180000;  // under the sanitizers, on a busy machine, the check takes a while
  initialize(c);
  const std::string uri = "untitled:big";
  // 30,000 DEFs: its check (compile and names) takes about twice its outline.
  std::string text;
  for (int i = 0; i < 30000; ++i) text += "DEF f" + std::to_string(i) + "(x) AS add(x, " + std::to_string(i) + ")\n";
  open(c, uri, text);
  // Let the server start: it outlines the document, then checks it on the
  // checker's thread. (Before, it checked it on its own thread, and the
  // hover waited for the diagnostics.)
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const int id = c.send_request("textDocument/hover", at(uri, 29999, 5));
  json first = c.receive();
  REQUIRE(first.contains("id"));
  CHECK(first["id"] == id);
  CHECK(contains(hover_text(first["result"]), "DEF f29999(x) AS add(x, 29999)"));
  CHECK(c.diagnostics(uri)["diagnostics"].empty());

  // An edit makes one warning; the diagnostics of the text before it are never sent after it.
  edit(c, uri, 2, range(100, 0, 101, 0), "DEF g(x) AS add(x, nowhere)\n");
  json d = c.diagnostics(uri);
  CHECK(d["version"] == 2);
  REQUIRE(d["diagnostics"].size() == 1);
  CHECK(d["diagnostics"][0]["message"] == "'nowhere' is not defined (a runtime error if this code runs)");
  // A parameter found again from its statement's text, after the edit.
  CHECK(definition(c, uri, 100, 16) == json{{"uri", uri}, {"range", range(100, 6, 100, 7)}});

  // The outline lists 5,000 definitions, then counts the rest.
  json symbols = c.request("textDocument/documentSymbol", {{"textDocument", {{"uri", uri}}}})["result"];
  REQUIRE(symbols.size() == 5001);
  CHECK(symbols[4999]["name"] == "f4999");
  CHECK(symbols[5000]["name"] == "25000 more definitions (only the first 5000 are listed)");
  CHECK(symbols[5000]["selectionRange"] == range(5000, 0, 5000, 0));
  CHECK(symbols[5000]["range"]["end"] == position(30000, 0));

  CHECK(c.request("shutdown")["result"].is_null());
  c.notify("exit", json::object());
  CHECK(c.wait_exit() == 0);
}
