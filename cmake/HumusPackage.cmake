# The embedding library and its packaging (docs/embedding.md).
#
# The three layers (humus_grammar, humus_runtime, humus_interp, which holds
# the API in interpreter/embed/*.cpp) are compiled once, position
# independent, and their objects make both libhumus.a and libhumus.so: no
# source is compiled twice. `cmake --install` then gives the libraries, the
# public headers (include/humus), the standard library (share/humus/stdlib),
# the humus command, a CMake config package (find_package(humus) ->
# humus::humus) and a pkg-config file (humus.pc).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(HUMUS_LAYERS humus_grammar humus_runtime humus_interp)
# Hidden visibility: libhumus.so exports the public API (HUMUS_API in
# include/humus/export.hpp) and nothing of the parser, compiler, VM and
# runtime, so hosts cannot come to depend on them.
set_target_properties(${HUMUS_LAYERS} PROPERTIES POSITION_INDEPENDENT_CODE ON CXX_VISIBILITY_PRESET hidden
                                                 VISIBILITY_INLINES_HIDDEN ON)
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  # PIC without giving up inlining across a layer's own functions.
  foreach(layer ${HUMUS_LAYERS})
    target_compile_options(${layer} PRIVATE -fno-semantic-interposition)
  endforeach()
endif()
# The public headers: #include <humus/humus.hpp>.
target_include_directories(humus_interp PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>)
# A library host has no humus executable to find the stdlib beside: look in
# the install prefix's share/humus/stdlib too (interpreter.cpp, stdlib_dirs).
target_compile_definitions(humus_interp PRIVATE
                           HUMUS_INSTALLED_STDLIB_DIR="${CMAKE_INSTALL_FULL_DATADIR}/humus/stdlib")

set(HUMUS_OBJECTS $<TARGET_OBJECTS:humus_grammar> $<TARGET_OBJECTS:humus_runtime> $<TARGET_OBJECTS:humus_interp>)
add_library(humus_shared SHARED ${HUMUS_OBJECTS})
add_library(humus_static STATIC ${HUMUS_OBJECTS})
set_target_properties(humus_shared humus_static PROPERTIES OUTPUT_NAME humus
                      ARCHIVE_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/lib
                      LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/lib)
# The ABI's version: libhumus.so.SOVERSION. Before 1.0 every minor release
# may break it (the CMake package also asks for the same minor version), so
# the SOVERSION is MAJOR.MINOR there and MAJOR from 1.0 on.
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(HUMUS_SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
else()
  set(HUMUS_SOVERSION ${PROJECT_VERSION_MAJOR})
endif()
set_target_properties(humus_shared PROPERTIES VERSION ${PROJECT_VERSION} SOVERSION ${HUMUS_SOVERSION}
                      LINK_DEPENDS ${PROJECT_SOURCE_DIR}/cmake/libhumus.map)
target_link_options(humus_shared PRIVATE -Wl,--version-script=${PROJECT_SOURCE_DIR}/cmake/libhumus.map)
target_link_libraries(humus_shared PRIVATE humus_flags PkgConfig::GMP PkgConfig::NATS spdlog::spdlog fmt::fmt Threads::Threads)
target_link_libraries(humus_static PRIVATE humus_flags)

install(TARGETS humus_shared humus_static humus
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/humus DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/stdlib/ DESTINATION ${CMAKE_INSTALL_DATADIR}/humus/stdlib
        FILES_MATCHING PATTERN "*.hum")

set(HUMUS_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/humus)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/humusConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/humusConfig.cmake INSTALL_DESTINATION ${HUMUS_CMAKE_DIR}
                              PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_LIBDIR CMAKE_INSTALL_DATADIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/humusConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/humusConfig.cmake ${PROJECT_BINARY_DIR}/humusConfigVersion.cmake
        DESTINATION ${HUMUS_CMAKE_DIR})
# The pkg-config file finds the prefix from where it is installed (pcfiledir),
# so a copy installed with `cmake --install --prefix P` is right for P.
file(RELATIVE_PATH HUMUS_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
configure_file(${PROJECT_SOURCE_DIR}/cmake/humus.pc.in ${PROJECT_BINARY_DIR}/humus.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/humus.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The example host and the API's tests.
add_subdirectory(${PROJECT_SOURCE_DIR}/examples/embed ${PROJECT_BINARY_DIR}/examples/embed)
add_subdirectory(${PROJECT_SOURCE_DIR}/tests/embed ${PROJECT_BINARY_DIR}/tests/embed)
