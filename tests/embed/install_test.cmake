# Installs the build in BUILD_DIR into WORK/prefix and uses it as a host
# project would:
#   - the shared library has its SONAME and exports only the public API;
#   - the consumer project (CONSUMER) and the example host (EXAMPLE_DIR)
#     are built with find_package(humus), against the shared library and
#     against the static one, and run;
#   - the example host is built again with the compiler CXX and nothing but
#     `pkg-config --cflags --libs humus`, and run.
file(REMOVE_RECURSE ${WORK})
set(prefix ${WORK}/prefix)

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "failed: ${ARGN}\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

function(expect_output what expected)
  if(NOT last_output STREQUAL expected)
    message(FATAL_ERROR "${what} printed:\n${last_output}\nexpected:\n${expected}")
  endif()
endfunction()

run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
foreach(f include/humus/humus.hpp include/humus/value.hpp include/humus/runtime.hpp include/humus/export.hpp
          lib/libhumus.a lib/libhumus.so lib/libhumus.so.${SOVERSION} lib/libhumus.so.${VERSION}
          lib/cmake/humus/humusConfig.cmake lib/pkgconfig/humus.pc share/humus/stdlib/prelude.hum)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "not installed: ${f}")
  endif()
endforeach()

# ---- the shared library's name and exports
find_program(OBJDUMP objdump REQUIRED)
find_program(NM nm REQUIRED)
run(${OBJDUMP} -p ${prefix}/lib/libhumus.so)
if(NOT last_output MATCHES "SONAME +libhumus\\.so\\.${SOVERSION}\n")
  message(FATAL_ERROR "libhumus.so has not the SONAME libhumus.so.${SOVERSION}:\n${last_output}")
endif()
run(${NM} -D --defined-only -C ${prefix}/lib/libhumus.so)
set(exports "${last_output}")
# The public API is there...
foreach(symbol "humus::Runtime::call_args(std::basic_string_view" "humus::Runtime::eval(" "humus::Value::integer(long)"
               "humus::ActorContext::send(" "humus::Result::message" "humus::version()" "typeinfo for humus::Error")
  string(FIND "${exports}" "${symbol}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "libhumus.so does not export ${symbol}")
  endif()
endforeach()
# ... and nothing else: every symbol is a member of a public class, a public
# function, or humus::Error's type information.
string(REPLACE "\n" ";" lines "${exports}")
set(leaked "")
foreach(line ${lines})
  string(REGEX REPLACE "^[0-9a-f]* +[A-Za-z] " "" symbol "${line}")
  if(symbol MATCHES "^humus::Runtime::Impl" OR
     NOT symbol MATCHES "^(humus::(ActorContext|Diagnostic|Result|Runtime|Value)::|humus::operator|humus::version\\(|(typeinfo|typeinfo name|vtable) for humus::Error$)")
    list(APPEND leaked "${symbol}")
  endif()
endforeach()
if(leaked)
  list(LENGTH leaked count)
  list(SUBLIST leaked 0 10 shown)
  list(JOIN shown "\n" shown)
  message(FATAL_ERROR "libhumus.so exports ${count} symbols that are not public API, such as:\n${shown}")
endif()

# ---- CMake: find_package(humus), shared and static
file(READ ${EXAMPLE_DIR}/sensor_host.out sensor_expected)
foreach(kind shared static)
  if(kind STREQUAL "static")
    set(use_static ON)
  else()
    set(use_static OFF)
  endif()
  run(${CMAKE_COMMAND} -S ${CONSUMER} -B ${WORK}/consumer-${kind} -G ${GENERATOR} -DCMAKE_PREFIX_PATH=${prefix}
      -Dhumus_USE_STATIC_LIBS=${use_static} -DHUMUS_EXAMPLE=${EXAMPLE_DIR}/sensor_host.cpp)
  run(${CMAKE_COMMAND} --build ${WORK}/consumer-${kind})
  run(${WORK}/consumer-${kind}/consumer)
  expect_output("consumer (${kind})" "consumer: 42 75025 1, 2, NIL ok\n")
  run(${WORK}/consumer-${kind}/sensor_host ${EXAMPLE_DIR}/monitor.hum)
  expect_output("sensor_host (${kind}, CMake)" "${sensor_expected}")
endforeach()
# The shared build links the library by its SONAME.
run(${OBJDUMP} -p ${WORK}/consumer-shared/consumer)
if(NOT last_output MATCHES "NEEDED +libhumus\\.so\\.${SOVERSION}\n")
  message(FATAL_ERROR "the consumer does not need libhumus.so.${SOVERSION}:\n${last_output}")
endif()

# ---- pkg-config: the example host, with the flags it gives and nothing else
find_program(PKG_CONFIG pkg-config REQUIRED)
set(ENV{PKG_CONFIG_PATH} ${prefix}/lib/pkgconfig)
run(${PKG_CONFIG} --modversion humus)
expect_output("pkg-config --modversion" "${VERSION}\n")
run(${PKG_CONFIG} --cflags --libs humus)
string(STRIP "${last_output}" flags)
separate_arguments(flags UNIX_COMMAND "${flags}")
run(${CXX} ${EXAMPLE_DIR}/sensor_host.cpp ${flags} -Wl,-rpath,${prefix}/lib -o ${WORK}/sensor_host_pc)
run(${WORK}/sensor_host_pc ${EXAMPLE_DIR}/monitor.hum)
expect_output("sensor_host (pkg-config)" "${sensor_expected}")
