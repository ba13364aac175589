# Installs the build in BUILD_DIR into WORK/prefix, then configures, builds
# and runs the consumer project against it, once with the shared library and
# once with the static one, and checks the consumer's pkg-config file too.
file(REMOVE_RECURSE ${WORK})
set(prefix ${WORK}/prefix)

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "failed: ${ARGN}\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
foreach(f include/humus/humus.hpp include/humus/value.hpp include/humus/runtime.hpp lib/libhumus.a
          lib/libhumus.so lib/cmake/humus/humusConfig.cmake lib/pkgconfig/humus.pc
          share/humus/stdlib/prelude.hum)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "not installed: ${f}")
  endif()
endforeach()

foreach(kind shared static)
  if(kind STREQUAL "static")
    set(use_static ON)
  else()
    set(use_static OFF)
  endif()
  run(${CMAKE_COMMAND} -S ${CONSUMER} -B ${WORK}/consumer-${kind} -G ${GENERATOR}
      -DCMAKE_PREFIX_PATH=${prefix} -Dhumus_USE_STATIC_LIBS=${use_static})
  run(${CMAKE_COMMAND} --build ${WORK}/consumer-${kind})
  run(${WORK}/consumer-${kind}/consumer)
  if(NOT last_output STREQUAL "consumer: 42 1, 2, NIL ok\n")
    message(FATAL_ERROR "consumer (${kind}) printed:\n${last_output}")
  endif()
endforeach()
