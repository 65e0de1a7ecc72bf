# tessera_add_test(NAME <test> TARGET <exe> [HARNESS] [ARGS ...])
#
# Registers an executable with CTest. Every test writes a JUnit file into
# ${TESSERA_RESULTS_DIR}: harness benches through cocotb's COCOTB_RESULTS_FILE, plain
# GoogleTest executables through GTEST_OUTPUT. scripts/run-tests.sh sums them into the
# cocotb-style summary and the closing "N passed, N failed" line.
function(tessera_add_test)
  cmake_parse_arguments(T "HARNESS" "NAME;TARGET" "ARGS;LABELS" ${ARGN})
  if(T_HARNESS)
    set(_env "COCOTB_RESULTS_FILE=${TESSERA_RESULTS_DIR}/${T_NAME}.xml")
  else()
    set(_env "GTEST_OUTPUT=xml:${TESSERA_RESULTS_DIR}/${T_NAME}.xml")
  endif()
  add_test(NAME ${T_NAME} COMMAND ${T_TARGET} ${T_ARGS} WORKING_DIRECTORY ${CMAKE_BINARY_DIR})
  set_tests_properties(${T_NAME} PROPERTIES ENVIRONMENT "${_env}" LABELS "${T_LABELS}")
endfunction()
