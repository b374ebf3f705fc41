# Runs one libFuzzer target for a bounded time (ctest's fuzz.npy and fuzz.args; cmake -P).
#   -DFUZZER=exe -DNEW_CORPUS=dir -DSEED_CORPUS=dir -DARTIFACTS=dir -DSECONDS=n [-DDICT=file]
# New inputs go to NEW_CORPUS (a build folder, the first corpus directory: libFuzzer writes only
# there); SEED_CORPUS, the corpus in the repository, is only read. A crash, a sanitizer report, a
# leak, an input slower than 10 s or a process above 2 GiB fails the run, and the reproducer
# libFuzzer wrote to ARTIFACTS is named at the end of the output.
foreach(v FUZZER NEW_CORPUS SEED_CORPUS ARTIFACTS SECONDS)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "run_fuzz.cmake: -D${v}=... is required")
  endif()
endforeach()
file(MAKE_DIRECTORY ${NEW_CORPUS} ${ARTIFACTS})
file(GLOB before LIST_DIRECTORIES false ${ARTIFACTS}/*)

set(args -max_total_time=${SECONDS} -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
         -artifact_prefix=${ARTIFACTS}/)
if(DEFINED DICT AND EXISTS ${DICT})
  list(APPEND args -dict=${DICT})
endif()
string(REPLACE ";" " " shown "${FUZZER};${args};${NEW_CORPUS};${SEED_CORPUS}")
message(STATUS "${shown}")
execute_process(COMMAND ${FUZZER} ${args} ${NEW_CORPUS} ${SEED_CORPUS} RESULT_VARIABLE rc)

if(NOT rc EQUAL 0)
  file(GLOB after LIST_DIRECTORIES false ${ARTIFACTS}/*)
  if(before)
    list(REMOVE_ITEM after ${before})
  endif()
  if(NOT after)
    set(after "(none written; see the output above)")
  endif()
  string(REPLACE ";" "\n  " after "${after}")
  message(FATAL_ERROR "${FUZZER} failed (exit ${rc}). Reproducer:\n  ${after}\n"
                      "Replay it with: ${FUZZER} <reproducer>")
endif()
