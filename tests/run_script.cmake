# Runs one .hum test script and compares what it did with what it should do.
#
#   cmake -DHUMUS=<humus binary> -DSCRIPT=<dir/name.hum> -P run_script.cmake
#
# Beside name.hum:
#   name.out     expected standard output, exactly (required)
#   name.err     expected standard error, exactly (default: empty)
#   name.status  expected exit status (default: 0)
#   name.args    extra command-line arguments, one per line (default: --threads 1)
#   name.stdin   text fed to standard input
#   name.ordered with -DTHREADS=N too, the output must come in this order
#                (a program whose output order its causality fixes)
# The script runs from its own folder, so diagnostics name it "name.hum".
# With -DWORKDIR=<dir> it runs from a fresh copy of itself in <dir> instead,
# with the files of the folder name.files/ beside it (programs that write
# files: nothing is left in the source tree).
#
# With -DTHREADS=N the script runs on N worker threads instead, and its
# output is compared as a sorted list of lines: which actor runs first is no
# longer fixed, but every line must still come out, exactly once each.
cmake_minimum_required(VERSION 3.25)

get_filename_component(dir "${SCRIPT}" DIRECTORY)
get_filename_component(base "${SCRIPT}" NAME_WE)
get_filename_component(file "${SCRIPT}" NAME)

set(args --threads 1)
if(EXISTS "${dir}/${base}.args")
  file(STRINGS "${dir}/${base}.args" args)
endif()
if(DEFINED THREADS)
  # Drop any --threads N of the script's own, then use ours.
  set(kept)
  set(skip FALSE)
  foreach(a ${args})
    if(skip)
      set(skip FALSE)
    elseif(a STREQUAL "--threads")
      set(skip TRUE)
    else()
      list(APPEND kept "${a}")
    endif()
  endforeach()
  set(args ${kept} --threads ${THREADS})
endif()
set(expected_status 0)
if(EXISTS "${dir}/${base}.status")
  file(STRINGS "${dir}/${base}.status" expected_status LIMIT_COUNT 1)
endif()
set(expected_err "")
if(EXISTS "${dir}/${base}.err")
  file(READ "${dir}/${base}.err" expected_err)
endif()
if(NOT EXISTS "${dir}/${base}.out")
  message(FATAL_ERROR "${base}: missing ${base}.out")
endif()
file(READ "${dir}/${base}.out" expected_out)
set(input_arg)
if(EXISTS "${dir}/${base}.stdin")
  set(input_arg INPUT_FILE "${dir}/${base}.stdin")
endif()

set(run_dir "${dir}")
if(DEFINED WORKDIR)
  file(REMOVE_RECURSE "${WORKDIR}")
  file(MAKE_DIRECTORY "${WORKDIR}")
  file(COPY "${SCRIPT}" DESTINATION "${WORKDIR}")
  if(IS_DIRECTORY "${dir}/${base}.files")
    file(COPY "${dir}/${base}.files/" DESTINATION "${WORKDIR}")
  endif()
  set(run_dir "${WORKDIR}")
endif()

execute_process(
  COMMAND "${HUMUS}" ${args} "${file}"
  WORKING_DIRECTORY "${run_dir}"
  ${input_arg}
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err
  RESULT_VARIABLE status
  TIMEOUT 120)

# Sorted lines, for comparing threaded runs.
function(sorted_lines text out_var)
  string(REPLACE ";" "\\;" text "${text}")
  string(REPLACE "\n" ";" lines "${text}")
  list(SORT lines)
  set(${out_var} "${lines}" PARENT_SCOPE)
endfunction()
if(DEFINED THREADS AND NOT EXISTS "${dir}/${base}.ordered")
  foreach(v out expected_out err expected_err)
    sorted_lines("${${v}}" ${v})
  endforeach()
endif()

set(failed FALSE)
if(NOT "${status}" STREQUAL "${expected_status}")
  message("${base}: exit status ${status}, expected ${expected_status}")
  set(failed TRUE)
endif()
if(NOT "${out}" STREQUAL "${expected_out}")
  message("${base}: standard output differs\n--- expected\n${expected_out}--- got\n${out}---")
  set(failed TRUE)
endif()
if(NOT "${err}" STREQUAL "${expected_err}")
  message("${base}: standard error differs\n--- expected\n${expected_err}--- got\n${err}---")
  set(failed TRUE)
endif()
if(failed)
  message(FATAL_ERROR "${base}: FAILED")
endif()
