#include "grammar/parse_cache.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "grammar/ast_copy.hpp"

namespace humus::parse {

namespace {
struct Cache {
  std::mutex mutex;
  // (name, text) -> the tree; the standard library has a dozen modules.
  std::map<std::pair<std::string, std::string>, std::shared_ptr<const ast::Program>> trees;
};
Cache& cache() {
  static Cache* c = new Cache;  // never destroyed: runtimes may import while the process exits
  return *c;
}
}  // namespace

ParseResult parse_library(ast::SourcePtr source) {
  Cache& c = cache();
  std::shared_ptr<const ast::Program> kept;
  {
    std::lock_guard lock(c.mutex);
    auto it = c.trees.find({source->name, source->text});
    if (it != c.trees.end()) kept = it->second;
  }
  if (!kept) {
    ParseResult r = parse_program(source);
    if (!r.program) return r;
    auto tree = std::make_shared<const ast::Program>(ast::copy(*r.program, source));
    std::lock_guard lock(c.mutex);
    c.trees.emplace(std::make_pair(source->name, source->text), tree);
    return r;
  }
  ParseResult r;
  r.program = ast::copy(*kept, std::move(source));
  return r;
}

}  // namespace humus::parse
