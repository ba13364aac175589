// HUMUS_API marks what libhumus.so exports. The library is compiled with
// hidden visibility (cmake/HumusPackage.cmake), so the parser, compiler, VM
// and runtime inside it stay private: hosts see these headers and nothing
// else, and the internals can change without breaking them.
#pragma once

#if defined(__GNUC__) || defined(__clang__)
#define HUMUS_API __attribute__((visibility("default")))
#else
#define HUMUS_API
#endif
