// The humus command's counting operator new and delete
// (interpreter/cli/counted_new.cpp): every way of freeing a block takes off
// exactly what making it added, so --max-memory's count does not drift.
#include <doctest/doctest.h>

#include <cstddef>
#include <new>
#include <string>
#include <vector>

#include "runtime/memory_meter.hpp"

namespace memory = humus::rt::memory;

namespace {

// This thread's exact count: the shared one and what is not folded in yet.
int64_t counted() { return memory::in_use() + memory::detail::tl_delta; }

const std::size_t kSizes[] = {0,   1,   7,   8,   9,    15,   16,   17,   24,   31,   48,    100,
                              255, 256, 257, 512, 1000, 1023, 1024, 1025, 2048, 4096, 70000, 1 << 20};

}  // namespace

TEST_CASE("a block counts at least its size, and each delete takes back what new counted") {
  REQUIRE(memory::counting());
  for (std::size_t n : kSizes) {
    CAPTURE(n);
    const int64_t start = counted();
    void* p = ::operator new(n);
    const int64_t made = counted() - start;
    CHECK(made >= int64_t(n));
    ::operator delete(p, n);  // sized, as a delete of a complete type
    CHECK(counted() == start);

    p = ::operator new(n);
    CHECK(counted() - start == made);
    ::operator delete(p);  // unsized, as the pairs are freed
    CHECK(counted() == start);

    p = ::operator new[](n);
    CHECK(counted() - start == made);
    ::operator delete[](p, n);
    CHECK(counted() == start);

    p = ::operator new(n, std::align_val_t(64));
    CHECK(counted() - start >= int64_t(n));
    ::operator delete(p, n, std::align_val_t(64));
    CHECK(counted() == start);
  }
}

TEST_CASE("containers that grow and shrink leave the count where it was") {
  const int64_t start = counted();
  {
    std::vector<std::string> v;
    for (int i = 0; i < 5000; ++i) v.push_back(std::string(std::size_t(i % 300), 'x'));
    v.erase(v.begin(), v.begin() + 2500);
    v.shrink_to_fit();
    std::vector<std::vector<int>> w(300);
    for (std::size_t i = 0; i < w.size(); ++i) w[i].resize(i * 7);
  }
  CHECK(counted() == start);
}
