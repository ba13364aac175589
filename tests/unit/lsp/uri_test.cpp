// file: URIs and paths.
#include <doctest/doctest.h>

#include "interpreter/lsp/uri.hpp"

TEST_CASE("file URIs decode to paths and paths encode to URIs") {
  using humus::lsp::path_of_uri;
  CHECK(path_of_uri("file:///home/a/x.hum") == "/home/a/x.hum");
  CHECK(path_of_uri("file:///home/a%20b/%C3%A9.hum") == "/home/a b/é.hum");
  CHECK(path_of_uri("file://localhost/x.hum") == "/x.hum");
  CHECK_FALSE(path_of_uri("file://server/share/x.hum"));
  CHECK_FALSE(path_of_uri("untitled:Untitled-1"));
  CHECK(humus::lsp::uri_of_path("/home/a b/é.hum") == "file:///home/a%20b/%C3%A9.hum");
  CHECK(path_of_uri(humus::lsp::uri_of_path("/tmp/x#1?.hum")) == "/tmp/x#1?.hum");
}
