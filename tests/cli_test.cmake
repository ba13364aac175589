# The humus command's own paths: options, inputs and exit statuses.
#   cmake -DHUMUS=<humus binary> -DDIR=<scratch dir> -P cli_test.cmake
cmake_minimum_required(VERSION 3.25)
set(failures 0)

# expect(NAME STATUS OUT_REGEX ERR_REGEX [INPUT file] [ULIMIT_V kilobytes] ARGS...)
function(expect name status out_regex err_regex)
  cmake_parse_arguments(E "" "INPUT;ULIMIT_V" "ARGS" ${ARGN})
  set(input)
  if(E_INPUT)
    set(input INPUT_FILE ${E_INPUT})
  endif()
  set(command "${HUMUS}")
  if(E_ULIMIT_V)  # in a limited address space
    set(command sh -c "ulimit -v ${E_ULIMIT_V} && exec \"$0\" \"$@\"" "${HUMUS}")
  endif()
  execute_process(COMMAND ${command} ${E_ARGS} WORKING_DIRECTORY "${DIR}" ${input}
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc TIMEOUT 60)
  set(ok TRUE)
  if(NOT "${rc}" STREQUAL "${status}")
    set(ok FALSE)
  endif()
  if(NOT "${out}" MATCHES "${out_regex}" OR NOT "${err}" MATCHES "${err_regex}")
    set(ok FALSE)
  endif()
  if(NOT ok)
    message("FAIL ${name}: status ${rc} (want ${status})\n  stdout: [${out}]\n  stderr: [${err}]")
    math(EXPR n "${failures} + 1")
    set(failures ${n} PARENT_SCOPE)
  endif()
endfunction()

file(MAKE_DIRECTORY "${DIR}")
file(WRITE "${DIR}/ok.hum" "SEND (#ok, add(1, 2)) TO println\n")
file(WRITE "${DIR}/syntax.hum" "SEND 1 println\n")
file(WRITE "${DIR}/runtime.hum" "CREATE a WITH \\m.[ THROW m ]\nSEND #boom TO a\n")
file(WRITE "${DIR}/stdin.txt" "SEND #from_stdin TO println\n")

expect(version 0 "^humus [0-9]+\\.[0-9]+\\.[0-9]+\n$" "^$" ARGS --version)
expect(help 0 "--threads" "^$" ARGS --help)
expect(run_file 0 "^#ok, 3\n$" "^$" ARGS ok.hum)
expect(eval 0 "^#ok, 3\n$" "^$" ARGS -e "SEND (#ok, add(1, 2)) TO println")
expect(stdin_dash 0 "^#from_stdin\n$" "^$" INPUT "${DIR}/stdin.txt" ARGS -)
expect(stdin_pipe 0 "^#from_stdin\n$" "^$" INPUT "${DIR}/stdin.txt")
expect(check_ok 0 "^$" "^$" ARGS --check ok.hum)
expect(check_syntax 2 "^$" "^syntax.hum:1:8: error: expected 'TO'" ARGS --check syntax.hum)
expect(syntax_error 2 "^$" "^syntax.hum:1:8: error: " ARGS syntax.hum)
# Names are checked before anything runs, by --check too, against the
# prelude unless --no-prelude.
file(WRITE "${DIR}/misspelt.hum" "SEND #not_run TO println\nSEND 1 TO printn\n")
file(WRITE "${DIR}/uses_prelude.hum" "SEND length((1, 2, NIL)) TO println\n")
expect(check_undefined 2 "^$" "^misspelt.hum:2:11: error: 'printn' is not defined; did you mean 'print' or 'println'\\?\nSEND 1 TO printn\n          \\^\n$"
       ARGS --check misspelt.hum)
expect(run_undefined 2 "^$" "^misspelt.hum:2:11: error: 'printn' is not defined" ARGS misspelt.hum)
expect(check_prelude 0 "^$" "^$" ARGS --check uses_prelude.hum)
expect(check_no_prelude 2 "^$" "^uses_prelude.hum:1:6: error: 'length' is not defined" ARGS --check --no-prelude uses_prelude.hum)
# The source line and a caret under the column, as compile errors have them.
expect(runtime_error 1 "^$"
       "^runtime.hum:1:20: runtime error in actor a@4: THROW #boom\nCREATE a WITH \\\\m\\.\\[ THROW m \\]\n                   \\^\n  while handling message: #boom\n$"
       ARGS runtime.hum)
# Columns count characters: "é€" is 4 columns, 7 bytes, the caret under the THROW.
file(WRITE "${DIR}/runtime_utf8.hum" "CREATE a WITH \\m.[ SEND \"é€\" TO print THROW m ]\nSEND #boom TO a\n")
expect(runtime_error_utf8 1 "^$"
       "^runtime_utf8.hum:1:39: runtime error in actor a@4: THROW #boom\n.*\n                                      \\^\n"
       ARGS runtime_utf8.hum)
# --help: the options, examples and the exit statuses.
expect(help_examples 0 "Examples:.*humus hello.hum.*humus sum.hum 1 2 3.*Exit status:\n  0  the run ended.*\n  3  a resource limit" "^$"
       ARGS --help)
# Script arguments: the global script_args, a list of strings; -- before one that starts with '-'.
file(WRITE "${DIR}/args.hum" "DEF each(xs) AS CASE xs OF (x, rest) : [ SEND x TO print\n each(rest) ] _ : [] END\neach(script_args)\n")
expect(script_args 0 "^a\nb c\né\n$" "^$" ARGS --threads 1 args.hum a "b c" é)
expect(script_args_dash 0 "^-x\n--y\n$" "^$" ARGS --threads 1 args.hum -- -x --y)
expect(script_args_none 0 "^NIL\n$" "^$" ARGS -e "SEND script_args TO println")
string(ASCII 255 not_utf8)
expect(script_args_not_utf8 2 "^$" "^humus: argument 2 of the script is not UTF-8 text\n$" ARGS args.hum ok "x${not_utf8}")
# Compile warnings by default, and --no-warn=KIND to silence a kind.
file(WRITE "${DIR}/slips.hum" "DEF fact(n) AS IF n = 0 1 ELSE mul(n, fact(sub(n, 1)))\nDEF add3(a, b, c) AS add(a, add(b, c))\nSEND fact(3), add3(1, 2) TO println\n")
expect(warn_default 0 "^1, \\?\n$" "^slips.hum:1:19: warning: this pattern binds a new 'n'.*did you mean '\\$n'.*\nslips.hum:3:15: warning: 'add3' takes 3 arguments, but this call gives 2"
       ARGS slips.hum)
expect(no_warn_both 0 "^1, \\?\n$" "^$" ARGS --no-warn=shadow,arity slips.hum)
expect(no_warn_repeated 0 "^1, \\?\n$" "^$" ARGS --no-warn shadow --no-warn arity slips.hum)
expect(no_warn_one 0 "^1, \\?\n$" "^slips.hum:3:15: warning: 'add3'" ARGS --no-warn=shadow slips.hum)
expect(no_warn_bad 2 "^$" "--no-warn: unused not in" ARGS --no-warn=unused slips.hum)
expect(missing_file 2 "^$" "^humus: cannot open 'missing.hum': No such file or directory\n$" ARGS missing.hum)
# A script is a readable regular file (or a pipe): a folder or a device is
# status 2 with the reason, for a run and for --check (issue 20, repro 3).
file(MAKE_DIRECTORY "${DIR}/folder.hum")
expect(folder 2 "^$" "^humus: cannot read 'folder.hum': Is a directory\n$" ARGS folder.hum)
expect(folder_check 2 "^$" "^humus: cannot read 'folder.hum': Is a directory\n$" ARGS --check folder.hum)
expect(device 2 "^$" "^humus: cannot read '/dev/null': not a regular file\n$" ARGS /dev/null)
expect(stdin_path 0 "^#from_stdin\n$" "^$" INPUT "${DIR}/stdin.txt" ARGS /dev/stdin)
# --max-memory and --timeout hold from the first byte read: standard input
# that never ends, a script bigger than the limit, a pipe that stays silent
# (issue 34, item 2; before, /dev/zero grew to 1 GB and never stopped, and
# a 400 MB script was read whole under --max-memory 100M).
expect(read_stdin_max_memory 3 "^$" "^humus: stopped: --max-memory 8M reached while reading standard input\n$"
       INPUT /dev/zero ARGS --max-memory 8M -)
string(REPEAT "# a script bigger than --max-memory is refused before its first byte is read\n" 40000 big)
file(WRITE "${DIR}/big.hum" "${big}")
expect(read_file_max_memory 3 "^$" "^humus: stopped: --max-memory 2M reached while reading 'big.hum'\n$"
       ARGS --max-memory 2M big.hum)
# files #lines packs the lines (runtime/lines.hpp): a 20 MB file of 350,000
# lines is read under --max-memory 40M (as pairs of strings it took 2.4
# times the file: 48 MB).
string(REPEAT "a line of a file read by #lines, 57 bytes long, in ASCII\n" 350000 many_lines)
file(WRITE "${DIR}/lines.txt" "${many_lines}")
file(WRITE "${DIR}/count_lines.hum" "DEF count_beh AS \\answer.[\n  CASE answer OF\n  (#ok, lines) : [ SEND length(lines) TO println ]\n  _ : [ SEND answer TO println ]\n  END\n]\nSEND (NEW count_beh, #lines, \"lines.txt\") TO files\n")
# --max-memory also watches resident memory, which under a sanitizer holds
# its shadow and quarantine (this run: about 100 MB): not checked there.
if(NOT SANITIZE)
  expect(lines_max_memory 0 "^350000\n$" "^$" ARGS --max-memory 40M count_lines.hum)
endif()
# --check keeps no code (Interpreter::check drops each statement's once
# compiled): 60,000 definitions (1.8 MB) are checked under --max-memory 40M;
# kept, their code took 51 MB.
set(defs "")
foreach(i RANGE 1 60000)
  string(APPEND defs "DEF f${i}(x) AS add(x, ${i})\n")
endforeach()
file(WRITE "${DIR}/many_defs.hum" "${defs}SEND f60000(1) TO printn\n")
if(NOT SANITIZE)  # resident memory, as above
  expect(check_keeps_no_code 2 "^$" "^many_defs.hum:60001:19: error: 'printn' is not defined; did you mean 'print' or 'println'\\?\n"
         ARGS --check --max-memory 40M many_defs.hum)
endif()
execute_process(COMMAND sh -c "sleep 3 | exec \"$0\" --timeout 0.3 -" "${HUMUS}" WORKING_DIRECTORY "${DIR}"
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc TIMEOUT 60)
if(NOT rc EQUAL 3 OR NOT err STREQUAL "humus: stopped: --timeout 0.3 reached while reading standard input\n")
  message("FAIL read_stdin_timeout: status ${rc} (want 3)\n  stderr: [${err}]")
  math(EXPR failures "${failures} + 1")
endif()
# An IMPORT of a named pipe is refused (it hung a run and --check: issue 34,
# item 3); the command's own script may still be one (humus <(generate)).
file(MAKE_DIRECTORY "${DIR}/sub")
file(REMOVE "${DIR}/sub/fifo.hum")
execute_process(COMMAND mkfifo "${DIR}/sub/fifo.hum")
file(WRITE "${DIR}/import_fifo.hum" "IMPORT \"sub/fifo.hum\"\nSEND #after TO println\n")
set(fifo_error "cannot read module 'sub/fifo.hum': cannot read '[^']*sub/fifo.hum': a named pipe, not a regular file")
expect(import_fifo 1 "^$" "${fifo_error}" ARGS import_fifo.hum)
# --check runs no IMPORT and says nothing of modules (a missing one neither):
# it ends at once, where it hung.
expect(import_fifo_check 0 "^$" "^$" ARGS --check import_fifo.hum)
file(REMOVE "${DIR}/sub/script_fifo.hum")
execute_process(COMMAND mkfifo "${DIR}/sub/script_fifo.hum")
execute_process(COMMAND sh -c "echo 'SEND #from_fifo TO println' > sub/script_fifo.hum & exec \"$0\" sub/script_fifo.hum"
                        "${HUMUS}" WORKING_DIRECTORY "${DIR}" OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc
                        TIMEOUT 60)
if(NOT rc EQUAL 0 OR NOT out STREQUAL "#from_fifo\n")
  message("FAIL script_fifo: status ${rc} (want 0)\n  stdout: [${out}]\n  stderr: [${err}]")
  math(EXPR failures "${failures} + 1")
endif()
expect(file_and_eval 2 "^$" "give either a FILE or -e CODE, not both" ARGS -e "SEND 1 TO println" ok.hum)
expect(unknown_option 2 "^$" "--bogus" ARGS --bogus ok.hum)
# --lsp reads its documents from the editor: a FILE or -e CODE with it is a usage error.
expect(lsp_with_file 2 "^$" "^humus: --lsp takes no FILE or -e CODE: the editor sends the documents\n$" ARGS --lsp ok.hum)
expect(lsp_with_eval 2 "^$" "^humus: --lsp takes no FILE or -e CODE: the editor sends the documents\n$"
       ARGS --lsp -e "SEND 1 TO println")
expect(bad_threads 2 "^$" "--threads" ARGS --threads 0 ok.hum)
expect(bad_log_level 2 "^$" "--log-level" ARGS --log-level loud ok.hum)
# Option values are checked: finite, in range, with the accepted range named (issue 20, repro 2).
foreach(bad nan inf 1e10 0 -1 2s)
  expect(timeout_${bad} 2 "^$" "--timeout: SECONDS must be a number greater than 0 and at most 1e9 \\(about 31 years\\), not ${bad}\n"
         ARGS --timeout "${bad}" ok.hum)
endforeach()
expect(timeout_max 0 "^#ok, 3\n$" "^$" ARGS --timeout 1e9 ok.hum)
expect(max_memory_tiny 2 "^$" "--max-memory: BYTES must be a size from 1M to 4096T \\(like 512M or 2G\\), not 512K\n"
       ARGS --max-memory 512K ok.hum)
expect(max_memory_huge 2 "^$" "--max-memory: BYTES must be a size from 1M to 4096T" ARGS --max-memory 5000T ok.hum)
foreach(bad abc -5 1.5 1099511627777)
  expect(cycle_check_${bad} 2 "^$" "--cycle-check: N must be a whole number of actors from 0 \\(look only at the end\\) to 2\\^40, not ${bad}\n"
         ARGS --cycle-check "${bad}" ok.hum)
endforeach()
expect(cycle_check_zero 0 "^#ok, 3\n$" "^$" ARGS --cycle-check 0 ok.hum)
# Replicas of a topic's stream: 1 to 5, from the option or the environment
# (the option wins); without --cluster topics live in memory and it is unused.
foreach(bad 0 6 -1 abc 2.5)
  expect(topic_replicas_${bad} 2 "^$" "--topic-replicas: N must be a whole number of replicas from 1 to 5 \\(JetStream keeps at most 5 copies of a stream\\), not ${bad}\n"
         ARGS --topic-replicas "${bad}" ok.hum)
endforeach()
expect(topic_replicas_ok 0 "^#ok, 3\n$" "^$" ARGS --topic-replicas 3 ok.hum)
set(ENV{HUMUS_TOPIC_REPLICAS} 9)
expect(topic_replicas_env 2 "^$" "^humus: HUMUS_TOPIC_REPLICAS: N must be a whole number of replicas from 1 to 5 \\(JetStream keeps at most 5 copies of a stream\\), not 9\n$"
       ARGS ok.hum)
expect(topic_replicas_env_overridden 0 "^#ok, 3\n$" "^$" ARGS --topic-replicas 2 ok.hum)
unset(ENV{HUMUS_TOPIC_REPLICAS})
# How much of a value diagnostics show (issue 20, repro 6; the defaults are tests/errors/diag_bounded).
file(WRITE "${DIR}/big_message.hum" "CREATE a WITH \\m.[ THROW m ]\nSEND (1, 2, 3, 4, 5) TO a\n")
expect(show_elements 1 "^$" "THROW 1, 2, \\.\\.\\. \\(3 more\\)\nCREATE a WITH [^\n]*\n +\\^\n  while handling message: 1, 2, \\.\\.\\. \\(3 more\\)\n$"
       ARGS --show-elements 2 big_message.hum)
expect(show_bytes 1 "^$" "THROW 1, 2, 3, \\.\\.\\. \\(2 more\\)\n" ARGS --show-bytes 7 big_message.hum)
expect(show_all 1 "^$" "THROW 1, 2, 3, 4, 5\n" ARGS --show-elements 0 --show-bytes 0 big_message.hum)
expect(show_negative 2 "^$" "--show-elements: Value -1 not in range" ARGS --show-elements -1 big_message.hum)
# IMPORT reads modules only, and --sandbox only standard-library ones (issue 20, repro 7).
expect(import_environ 1 "^$"
       "^<-e>:1:1: runtime error: IMPORT \"/proc/self/environ\": not a module: IMPORT takes a standard-library name \\(\"queue\"\\) or a relative path to a \\.hum file in or below the script's folder\nIMPORT \"/proc/self/environ\"\n\\^\n$"
       ARGS -e "IMPORT \"/proc/self/environ\"")
expect(sandbox_stdlib 0 "^#ok\n$" "^$" ARGS --sandbox -e "IMPORT \"queue\"\nSEND #ok TO println")
expect(sandbox_path 1 "^$" "^<-e>:1:1: runtime error: IMPORT \"ok.hum\": file access is disabled \\(--sandbox\\)"
       ARGS --sandbox -e "IMPORT \"ok.hum\"")
expect(threads_2 0 "^#ok, 3\n$" "^$" ARGS --threads 2 ok.hum)
# Worker threads: one per core unless asked; --seed alone means one (repeatable runs).
cmake_host_system_information(RESULT cores QUERY NUMBER_OF_LOGICAL_CORES)
expect(threads_default 0 "^#ok, 3\n$" "on ${cores} worker threads" ARGS --log-level info ok.hum)
expect(threads_seed 0 "^#ok, 3\n$" "on 1 worker threads" ARGS --log-level info --seed 7 ok.hum)
expect(threads_seed_explicit 0 "^#ok, 3\n$" "on 3 worker threads" ARGS --log-level info --seed 7 --threads 3 ok.hum)
expect(trace 0 "^#ok, 3\n$" "trace: println@1 <- #ok, 3" ARGS --trace ok.hum)
expect(trace_text 0 "^#ok, 3\n$" "trace: println@1 <- #ok, 3" ARGS --trace=text ok.hum)
# --trace=json: one object per event (docs/trace.schema.json; the schema test checks every field),
# actors with their CREATE names (println@1 is "name":"println").
expect(trace_json 0 "^#ok, 3\n$"
       "^{\"event\":1,[^\n]*\"actor\":null,\"statement\":{\"file\":\"ok.hum\",\"line\":1,\"column\":1},\"sent\":\\[{\"id\":1,\"to\":1,\"to_name\":\"println\",\"message\":\"#ok, 3\"}\\][^\n]*\n{\"event\":2,[^\n]*\"actor\":1,\"name\":\"println\",\"behavior\":\"println\",\"message_id\":1,\"from\":null,\"message\":\"#ok, 3\"[^\n]*\"outcome\":\"committed\"}\n$"
       ARGS --trace=json ok.hum)
expect(trace_json_failed 1 "^$" "runtime.hum:1:20: runtime error.*\"outcome\":\"failed\",\"error\":{\"message\":\"THROW #boom\",\"file\":\"runtime.hum\",\"line\":1,\"column\":20}}\n$"
       ARGS --trace=json runtime.hum)
file(REMOVE "${DIR}/trace.jsonl" "${DIR}/run.svg")
expect(trace_file 0 "^#ok, 3\n$" "^$" ARGS --trace=json --trace-file trace.jsonl ok.hum)
file(READ "${DIR}/trace.jsonl" jsonl)
if(NOT jsonl MATCHES "^{\"event\":1,.*\n{\"event\":2,.*\"outcome\":\"committed\"}\n$")
  message("FAIL trace_file: trace.jsonl is [${jsonl}]")
  math(EXPR failures "${failures} + 1")
endif()
expect(trace_bad_format 2 "^$" "--trace: xml not in {text,json}" ARGS --trace=xml ok.hum)
expect(trace_file_without_json 2 "^$" "^humus: --trace-file needs --trace=json\n$" ARGS --trace-file t.jsonl ok.hum)
expect(trace_file_unwritable 2 "^$" "^humus: cannot write 'no/such/dir/t.jsonl': No such file or directory\n$"
       ARGS --trace=json --trace-file no/such/dir/t.jsonl ok.hum)
# --diagram: the run's sequence diagram as SVG, also when an event failed; lifelines by CREATE name (a@4).
expect(diagram 1 "^$" "runtime error" ARGS --diagram run.svg runtime.hum)
file(READ "${DIR}/run.svg" svg)
if(NOT svg MATCHES "^<svg xmlns=\"http://www.w3.org/2000/svg\".*>a@4<.*class=\"failed\">[^<]+ THROW #boom<.*</svg>\n$")
  message("FAIL diagram: run.svg is [${svg}]")
  math(EXPR failures "${failures} + 1")
endif()
expect(diagram_unwritable 2 "^$" "^humus: cannot write 'no/such/dir/run.svg': No such file or directory\n$"
       ARGS --diagram no/such/dir/run.svg ok.hum)
# The diagram of scripts/hello.hum in the docs is the one humus draws now
# (but for the times and workers in its tooltips).
if(EXAMPLE_SVG)
  execute_process(COMMAND "${HUMUS}" --threads 1 --diagram "${DIR}/hello.svg" "${HELLO}" WORKING_DIRECTORY "${SRC}"
                  OUTPUT_QUIET RESULT_VARIABLE rc)
  file(READ "${DIR}/hello.svg" now)
  file(READ "${EXAMPLE_SVG}" committed)
  string(REGEX REPLACE "<title>[^<]*</title>" "" now "${now}")
  string(REGEX REPLACE "<title>[^<]*</title>" "" committed "${committed}")
  if(NOT rc EQUAL 0 OR NOT now STREQUAL committed)
    message("FAIL diagram_example: ${EXAMPLE_SVG} is not what humus draws for ${HELLO}; regenerate it:\n"
            "  build/humus --threads 1 --diagram docs/images/hello-diagram.svg scripts/hello.hum")
    math(EXPR failures "${failures} + 1")
  endif()
endif()

# A trace or a diagram that cannot be written in full (the program ran):
# status 1 and the reason, not a silently truncated file.
if(EXISTS /dev/full)
  expect(trace_file_full 1 "^#ok, 3\n$" "^humus: cannot write '/dev/full': No space left on device\n$"
         ARGS --trace=json --trace-file /dev/full ok.hum)
  expect(diagram_full 1 "^#ok, 3\n$" "^humus: cannot write '/dev/full': No space left on device\n$"
         ARGS --diagram /dev/full ok.hum)
endif()
# IMPORT of a folder says what it is, not "no file".
file(MAKE_DIRECTORY "${DIR}/folder.hum")
file(WRITE "${DIR}/imports_folder.hum" "IMPORT \"folder.hum\"\n")
expect(import_folder 1 "^$" "imports_folder.hum:1:1: runtime error: cannot read module 'folder.hum': cannot read '[^']*folder.hum': Is a directory\n"
       ARGS imports_folder.hum)
# A warning about a built-in actor (no place in a program) says "humus:".
expect(warn_builtin_unhandled 0 "^$" "^humus: warning: actor timer@[0-9]+ did not handle message: #junk\n$"
       ARGS -W -e "SEND #junk TO timer")

# Output that cannot be written fails the run: status 1 and one message on
# standard error (issue 20, repro 8). /dev/full fails every write with ENOSPC.
if(EXISTS /dev/full)
  execute_process(COMMAND "${HUMUS}" ok.hum WORKING_DIRECTORY "${DIR}" OUTPUT_FILE /dev/full
                  ERROR_VARIABLE err RESULT_VARIABLE rc TIMEOUT 60)
  if(NOT rc EQUAL 1 OR NOT err STREQUAL "humus: cannot write standard output: No space left on device\n")
    message("FAIL stdout_full: status ${rc} (want 1), stderr [${err}]")
    math(EXPR failures "${failures} + 1")
  endif()
  execute_process(COMMAND "${HUMUS}" runtime.hum WORKING_DIRECTORY "${DIR}" OUTPUT_VARIABLE out
                  ERROR_FILE /dev/full RESULT_VARIABLE rc TIMEOUT 60)
  if(NOT rc EQUAL 1 OR NOT out STREQUAL "")
    message("FAIL stderr_full: status ${rc} (want 1), stdout [${out}]")
    math(EXPR failures "${failures} + 1")
  endif()
  execute_process(COMMAND "${HUMUS}" -e "SEND #ok TO println" WORKING_DIRECTORY "${DIR}" OUTPUT_VARIABLE out
                  ERROR_FILE /dev/full RESULT_VARIABLE rc TIMEOUT 60)
  if(NOT rc EQUAL 0 OR NOT out STREQUAL "#ok\n")
    message("FAIL stderr_full_unused: status ${rc} (want 0: nothing was written there), stdout [${out}]")
    math(EXPR failures "${failures} + 1")
  endif()
endif()

# Under a limited address space the worker stacks shrink to fit, or the run
# stops with a clear message (issue 20, repro 5: each worker reserved 256 MB
# and the run aborted). Sanitizers reserve terabytes of shadow memory: no
# ulimit -v for them.
if(NOT SANITIZE)
  foreach(threads 1 2 8)
    expect(ulimit_v_${threads} 0 "^1\n$" "^$"
           ULIMIT_V 500000 ARGS --threads ${threads} -e "SEND 1 TO println")
  endforeach()
  # Memory running out in big-integer arithmetic fails the event (GMP
  # allocates through operator new); it aborted the process inside GMP
  # (issue 20, repro 4).
  file(WRITE "${DIR}/squares.hum" "CREATE sq WITH \\(i, n).[ SEND i TO println  SEND (add(i, 1), mul(n, n)) TO SELF ]\nSEND (0, 3) TO sq\n")
  expect(ulimit_v_gmp 1 "^0\n1\n2\n.*\n2[0-9]\n$" "^humus: runtime error in actor sq@4: out of memory\n  while handling message: 2[0-9], <an integer of [0-9]+ bits>\n$"
         ULIMIT_V 400000 ARGS --threads 1 squares.hum)
  expect(ulimit_v_threads 3 ".*" "^humus: stopped: cannot start a thread \\(4 MB stack\\): .* fewer --threads may fit\\)\n$"
         ULIMIT_V 300000 ARGS --threads 1024 -e "SEND 1 TO println")
  # Memory filled by the program's live data stops the run, on one thread
  # and two: actors that each make two more, a message flood that doubles,
  # a BECOME that keeps growing a list (issue 34, repros R01-R03). They
  # aborted (status 134): reporting the error allocated, mimalloc's aligned
  # new aborted, a worker's first free of a pair registered a thread_local
  # destructor. About a second each under 400 MB.
  file(WRITE "${DIR}/oom_actors.hum" "DEF beh AS \\m.[\n  SEND m TO NEW beh\n  SEND m TO NEW beh\n]\nSEND 0 TO NEW beh\n")
  file(WRITE "${DIR}/oom_flood.hum" "CREATE s WITH \\m.[ SEND m TO SELF SEND m TO SELF ]\nSEND 0 TO s\n")
  file(WRITE "${DIR}/oom_become.hum" "DEF beh(acc) AS \\n.[ BECOME beh((n, acc)) SEND add(n, 1) TO SELF ]\nCREATE a WITH beh(NIL)\nSEND 0 TO a\n")
  foreach(program oom_actors oom_flood oom_become)
    foreach(threads 1 2)
      expect(ulimit_v_${program}_${threads} 3 ".*" "^humus: stopped: out of memory\n$"
             ULIMIT_V 400000 ARGS --threads ${threads} ${program}.hum)
    endforeach()
  endforeach()
endif()

# --stats: the cycle collector's line. Pairs of actors that hold each other
# are found and freed as the program runs (looks from 1,000 live actors on;
# 100,000 pairs, so that the collector's thread gets its turns on a busy machine).
file(WRITE "${DIR}/cycles.hum" "\
CREATE rings WITH \\k.[
  CREATE a WITH \\m.[ SEND m TO b ]
  CREATE b WITH \\m.[ SEND m TO a ]
  IF $k = 0 [ SEND #done TO println ] ELSE [ SEND sub(k, 1) TO SELF ]
]
SEND 100000 TO rings
")
expect(stats_cycles 0 "^#done\n$"
       "^humus: stats: [0-9]+ events, 0 unhandled, 0 errors, [0-9]+ actors\nhumus: stats: cycles: [1-9][0-9]* collections, [1-9][0-9]+ actors collected, [0-9]+ actors live; pauses [0-9.]+ ms in all, [0-9.]+ ms the longest; [0-9]+ put off for a busy event\n$"
       ARGS --threads 1 --cycle-check 1000 --stats cycles.hum)
# A look asked for during one long event (10,000 actors made, then about
# 0.3 s of looping) is put off, and not made after: the live actors grew
# more than twofold while it waited.
file(WRITE "${DIR}/busy.hum" "\
DEF link(prev) AS \\c.[ SEND c TO prev ]
DEF make(i, prev) AS IF $i = 0 prev ELSE make(sub(i, 1), NEW link(prev))
DEF spin(n) AS IF $n = 0 #spun ELSE spin(sub(n, 1))
SEND #go TO NEW \\_.[
  LET chain = $make(10000, println)
  BECOME \\m.[ SEND m TO chain ]
  SEND spin(50000000) TO println
]
")
expect(stats_put_off 0 "^#spun\n$"
       "humus: stats: cycles: 0 collections, 0 actors collected, [0-9]+ actors live; pauses 0.000 ms in all, 0.000 ms the longest; [1-9][0-9]* put off for a busy event\n$"
       ARGS --threads 1 --cycle-check 1000 --stats busy.hum)

# --stats: the worker governor's line. Two long events on two workers: the
# governor starts with one worker, and the benched one, finding too few
# events to measure while an actor waits its turn, lets every worker run (a
# change of the count). One long event with nobody waiting changes nothing,
# so no such line; nor with --fixed-threads, which has no governor.
file(WRITE "${DIR}/long_event.hum" "DEF spin(n) AS IF $n = 0 #spun ELSE spin(sub(n, 1))\nSEND #go TO NEW \\_.[ SEND spin(60000000) TO println ]\n")
file(WRITE "${DIR}/long_events.hum" "DEF spin(n) AS IF $n = 0 #spun ELSE spin(sub(n, 1))\nDEF spinner AS \\_.[ SEND spin(40000000) TO println ]\nSEND #go TO NEW spinner\nSEND #go TO NEW spinner\n")
expect(stats_governor 0 "^#spun\n#spun\n$"
       "\nhumus: stats: workers: 2 running at the end; the governor changed the count 1 times\n$"
       ARGS --threads 2 --stats long_events.hum)
expect(stats_governor_one_event 0 "^#spun\n$" "^humus: stats: [0-9]+ events, 0 unhandled, 0 errors, [0-9]+ actors\n$"
       ARGS --threads 2 --stats long_event.hum)
expect(stats_fixed_threads 0 "^#spun\n$" "^humus: stats: [0-9]+ events, 0 unhandled, 0 errors, [0-9]+ actors\n$"
       ARGS --threads 2 --fixed-threads --stats long_event.hum)
# The governor's probes: a chain of 300,000 short events is long enough for
# it to try two workers at least once, and the line says for how long.
file(WRITE "${DIR}/countdown.hum" "DEF down AS \\n.[ IF $n = 0 [ SEND #done TO println ] ELSE [ SEND sub(n, 1) TO SELF ] ]\nSEND 300000 TO NEW down\n")
expect(stats_governor_probes 0 "^#done\n$"
       "\nhumus: stats: governor: probes ran another count for [0-9]+\\.[0-9] ms in all; window [1-9][0-9]* ms\n$"
       ARGS --threads 2 --stats countdown.hum)

# --stats: the back-pressure line. A producer looping through a ticker
# floods a slow consumer on two fixed workers, so it is held back
# (runtime/dispatcher.hpp, "Muting"); one worker holds nobody back, so no
# such line.
file(WRITE "${DIR}/flood.hum" "\
DEF spin(n) AS IF $n = 0 0 ELSE spin(sub(n, 1))
DEF consumer(count) AS \\k.[ IF $add(k, spin(300)) = 20000 [ SEND (#consumed, k) TO println ] ELSE [ BECOME consumer(k) ] ]
CREATE con WITH consumer(0)
DEF producer(k) AS \\ticker.[ SEND k TO con  IF $k = 20000 [] ELSE [ BECOME producer(add(k, 1))  SEND SELF TO ticker ] ]
CREATE ticker WITH \\p.[ SEND ticker TO p ]
SEND ticker TO NEW producer(1)
")
expect(stats_back_pressure 0 "^#consumed, 20000\n$"
       "\nhumus: stats: back-pressure: senders held back [1-9][0-9]* times\n$"
       ARGS --threads 2 --fixed-threads --stats flood.hum)
expect(stats_no_back_pressure_one_worker 0 "^#consumed, 20000\n$" "^humus: stats: [0-9]+ events, 0 unhandled, 0 errors, [0-9]+ actors\n$"
       ARGS --threads 1 --stats flood.hum)

if(failures GREATER 0)
  message(FATAL_ERROR "${failures} humus command checks failed")
endif()
