# Runs EXE with ARGS and checks its standard output is exactly EXPECTED's text.
execute_process(COMMAND ${EXE} ${ARGS} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE status)
file(READ ${EXPECTED} expected)
if(NOT status EQUAL 0 OR NOT out STREQUAL expected)
  message(FATAL_ERROR "exit status ${status}\n--- expected\n${expected}--- got\n${out}--- stderr\n${err}")
endif()
