# Included by fuzz/CMakeLists.txt when the top-level (g++) build adds fuzz/: configures fuzz/ as
# its own clang build tree in ${CMAKE_BINARY_DIR}/fuzz (at configure time, as spec/ bootstraps
# tessera-specgen), builds it with `all` (target `fuzz`), and registers the CTest entries:
#
#   fuzz_<t>             make test: TESSERA_FUZZ_RUNS executions from the corpus, seed 1
#   fuzz_<t>_regressions make test: replay every input kept in fuzz/regressions/<t>/
#   fuzz_<t>_open        disabled: inputs of findings not fixed yet (fuzz/open/<t>/), registered
#                        only while that folder holds files; enable by moving them to regressions/
#   fuzz_<t>_1m          make regress (label regress): 1,000,000 executions
#
# docs/fuzzing.md describes the targets, the corpora and how to keep a finding.

set(_fuzz_src ${CMAKE_CURRENT_SOURCE_DIR})
set(_fuzz_bin ${CMAKE_BINARY_DIR}/fuzz)
set(TESSERA_FUZZ_RUNS 2000 CACHE STRING "Executions of each fuzzer in make test (fixed seed)")
set(TESSERA_FUZZ_SECONDS 20 CACHE STRING "Upper bound on the seconds each fuzzer runs in make test")
set(TESSERA_FUZZ_REGRESS_RUNS 1000000 CACHE STRING "Executions of each fuzzer in make regress")

find_program(TESSERA_FUZZ_CC NAMES clang clang-14)
find_program(TESSERA_FUZZ_CXX NAMES clang++ clang++-14)

set(_fuzz_problem "")
if(NOT TESSERA_FUZZ_CC OR NOT TESSERA_FUZZ_CXX)
  set(_fuzz_problem "clang/clang++ not found: install the Debian packages clang and libclang-rt-dev (scripts/bootstrap.sh)")
elseif(NOT EXISTS ${_fuzz_bin}/CMakeCache.txt)
  set(_args -S ${_fuzz_src} -B ${_fuzz_bin} -G ${CMAKE_GENERATOR}
    -DCMAKE_C_COMPILER=${TESSERA_FUZZ_CC} -DCMAKE_CXX_COMPILER=${TESSERA_FUZZ_CXX}
    -DTESSERA_GEN_DIR=${TESSERA_GEN_DIR})
  if(CMAKE_MAKE_PROGRAM)
    list(APPEND _args -DCMAKE_MAKE_PROGRAM=${CMAKE_MAKE_PROGRAM})
  endif()
  if(CMAKE_CXX_COMPILER_LAUNCHER)
    list(APPEND _args -DCMAKE_C_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER}
                      -DCMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER})
  endif()
  message(STATUS "fuzz: configuring the clang fuzz build in ${_fuzz_bin}")
  execute_process(COMMAND ${CMAKE_COMMAND} ${_args}
    RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
  if(NOT _rc EQUAL 0)
    file(REMOVE ${_fuzz_bin}/CMakeCache.txt)  # retry from scratch next time
    string(REGEX MATCH "fuzz/: [^\n]*" _why "${_out}")
    if(NOT _why)
      set(_why "see: cmake -S fuzz -B build/fuzz -DCMAKE_CXX_COMPILER=clang++")
    endif()
    set(_fuzz_problem "configuring the clang fuzz build failed: ${_why}")
    message(WARNING "fuzz: ${_fuzz_problem}\n${_out}")
  endif()
endif()

if(_fuzz_problem)
  # The build goes on without the fuzzers; make test says why they did not run.
  add_test(NAME fuzz_toolchain COMMAND sh -c "echo 'fuzz: $0' >&2; exit 1" "${_fuzz_problem}")
  return()
endif()

# Build the fuzz tree with `all`: its own ninja decides what is out of date.
add_custom_target(fuzz ALL
  COMMAND ${CMAKE_COMMAND} --build ${_fuzz_bin}
  COMMENT "fuzz: clang build of the fuzz targets in ${_fuzz_bin}"
  VERBATIM)

# <target> <max_len bytes> <timeout s per input> <CTest timeout of the 1M run, s> [flags...]
# fuzz_mesh: Assimp's OBJ importer alone costs about 2 ms a file (it fills a 4 MiB stream
# buffer), so its million runs take the longest; Assimp leaks on some malformed glTF files,
# which is not Tessera's to fix (-detect_leaks=0 there only).
set(_fuzz_targets
  "scene 8192 10 3600"
  "mesh 16384 10 14400 -detect_leaks=0"
  "policy 4096 10 3600"
  "trace 8192 10 3600"
  "cp_fw 4096 10 7200")

set(_run ${_fuzz_src}/run-fuzzer.sh)
foreach(_spec ${_fuzz_targets})
  separate_arguments(_spec)
  list(GET _spec 0 _t)
  list(GET _spec 1 _max_len)
  list(GET _spec 2 _timeout)
  list(GET _spec 3 _regress_timeout)
  set(_flags "")
  list(LENGTH _spec _n)
  if(_n GREATER 4)
    list(SUBLIST _spec 4 -1 _flags)
    string(REPLACE ";" " " _flags "${_flags}")
  endif()
  set(_env "FUZZ_BIN=${_fuzz_bin}" "FUZZ_SRC=${_fuzz_src}" "FUZZ_MAX_LEN=${_max_len}"
           "FUZZ_TIMEOUT=${_timeout}" "FUZZ_FLAGS=${_flags}")

  # make test: a fixed number of executions from a fixed seed (unless RANDOM_SEED is given), so
  # a clean checkout runs the same inputs on every machine and a CI failure reproduces here; the
  # exploration with fresh seeds is make regress's (fuzz_<t>_1m).
  add_test(NAME fuzz_${_t} COMMAND ${_run} fuzz ${_t} -runs=${TESSERA_FUZZ_RUNS}
                                   -max_total_time=${TESSERA_FUZZ_SECONDS})
  add_test(NAME fuzz_${_t}_regressions COMMAND ${_run} replay ${_t} ${_fuzz_src}/regressions/${_t})
  add_test(NAME fuzz_${_t}_1m COMMAND ${_run} fuzz ${_t} -runs=${TESSERA_FUZZ_REGRESS_RUNS})
  set_tests_properties(fuzz_${_t} PROPERTIES ENVIRONMENT "${_env};FUZZ_DEFAULT_SEED=1" LABELS fuzz)
  set_tests_properties(fuzz_${_t}_regressions PROPERTIES ENVIRONMENT "${_env}" LABELS fuzz)
  set_tests_properties(fuzz_${_t}_1m PROPERTIES ENVIRONMENT "${_env}" LABELS "fuzz;regress"
                                                TIMEOUT ${_regress_timeout})

  file(GLOB _open CONFIGURE_DEPENDS ${_fuzz_src}/open/${_t}/*)
  if(_open)
    add_test(NAME fuzz_${_t}_open COMMAND ${_run} replay ${_t} ${_fuzz_src}/open/${_t})
    # The harnesses' open-finding guards off: these inputs must fail until the finding is fixed.
    set_tests_properties(fuzz_${_t}_open PROPERTIES ENVIRONMENT "${_env};TESSERA_FUZZ_OPEN_GUARDS=0"
                                                   LABELS fuzz DISABLED ON)
  endif()
endforeach()
