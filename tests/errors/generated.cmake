# Bad inputs that a NAME.hum + NAME.out test cannot hold: a 100 MB line
# (generated here, never committed) and a NUL byte (CMake strings cannot
# hold one, so only the diagnostic before the echoed source line is compared).
#
#   cmake -DHUMUS=<humus binary> -DSRC=<tests/errors> -DDIR=<scratch folder> -P generated.cmake
cmake_minimum_required(VERSION 3.25)
file(MAKE_DIRECTORY "${DIR}")
string(REPEAT "x" 1000 kb)
string(REPEAT "${kb}" 100000 line)  # 100,000,000 bytes

function(check name text expected_status expected_out expected_err)
  file(WRITE "${DIR}/${name}.hum" "${text}")
  execute_process(COMMAND "${HUMUS}" --threads 1 ${name}.hum WORKING_DIRECTORY "${DIR}"
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE status TIMEOUT 300)
  file(REMOVE "${DIR}/${name}.hum")
  if(NOT status STREQUAL expected_status OR NOT out STREQUAL expected_out OR NOT err STREQUAL expected_err)
    string(SUBSTRING "${err}" 0 2000 err_start)
    message(FATAL_ERROR "${name}: status ${status} (expected ${expected_status})\n"
                        "--- stdout\n${out}--- expected\n${expected_out}"
                        "--- stderr (start)\n${err_start}\n--- expected\n${expected_err}")
  endif()
endfunction()

# A 100 MB comment, then a statement.
check(huge_comment "# ${line}\nSEND #ok TO println\n" 0 "#ok\n" "")
# A string opened and never closed, 100 MB long.
check(huge_string "SEND \"${line}\n" 2 ""
      "huge_string.hum:2:1: error: unterminated string (opened at 1:6)\n\n^\n")

# A NUL byte where a statement goes (nul_byte.hum, committed; no .out: not a script test).
execute_process(COMMAND "${HUMUS}" --threads 1 nul_byte.hum WORKING_DIRECTORY "${SRC}"
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE status TIMEOUT 60)
string(FIND "${err}" "nul_byte.hum:2:1: error: unexpected character 0x00\n" at)
if(NOT status EQUAL 2 OR NOT out STREQUAL "" OR NOT at EQUAL 0)
  message(FATAL_ERROR "nul_byte: status ${status}, stdout '${out}', stderr '${err}'")
endif()
