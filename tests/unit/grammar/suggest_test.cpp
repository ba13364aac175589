#include <doctest/doctest.h>

#include "grammar/suggest.hpp"

using humus::parse::closest_names;
using humus::parse::did_you_mean;
using humus::parse::edit_distance;

TEST_CASE("edit distance counts insertions, deletions, substitutions and swaps") {
  CHECK(edit_distance("println", "println", 3) == 0);
  CHECK(edit_distance("printn", "println", 3) == 1);
  CHECK(edit_distance("lenght", "length", 3) == 1);  // a swap of neighbours is one edit
  CHECK(edit_distance("kitten", "sitting", 5) == 3);
  CHECK(edit_distance("a", "abcdefgh", 2) == 3);  // past the limit: limit + 1
}

TEST_CASE("the closest names, best first, within about a third of the length") {
  const std::vector<std::string> names = {"print", "println", "printing_press", "length", "map", "max", "x", "y"};
  CHECK(closest_names("printn", names) == std::vector<std::string>{"print", "println"});
  CHECK(closest_names("Println", names) == std::vector<std::string>{"println", "print"});
  CHECK(closest_names("lenght", names) == std::vector<std::string>{"length"});
  CHECK(closest_names("Map", names) == std::vector<std::string>{"map", "max"});
  CHECK(closest_names("zzzzzz", names).empty());
  CHECK(closest_names("z", names).empty());  // too short to guess from
  CHECK(closest_names("X", names) == std::vector<std::string>{"x"});  // but for case
  CHECK(closest_names("println", names) == std::vector<std::string>{"print"});  // not itself
}

TEST_CASE("did you mean") {
  CHECK(did_you_mean({}) == "");
  CHECK(did_you_mean({"a"}) == "; did you mean 'a'?");
  CHECK(did_you_mean({"a", "b"}) == "; did you mean 'a' or 'b'?");
  CHECK(did_you_mean({"a", "b", "c"}) == "; did you mean 'a', 'b' or 'c'?");
}
