# Tessera RTL build helpers. One call describes one model configuration; the same top, file
# list, parameters and waivers feed the verilated library, `make lint` and `make synth`, so
# the three can never disagree about what the design is.
#
# tessera_rtl_model(<name>
#     TOP <module>
#     SOURCES <sv files...>        packages first, in dependency order
#     [INCLUDE_DIRS <dirs...>]     for `include files (prim_assert.svh lives in rtl/common)
#     [PARAMS NAME=VALUE ...]      top-level parameter overrides (-G / chparam)
#     [VLT <waiver files...>]      per-block Verilator waivers (.vlt), narrow and explained
#     [BUILD_ARGS <args...>]       extra Verilator arguments for the C++ model only (tool-bug
#                                  workarounds; say which bug in a comment at the call)
#     [SYNTH]                      also synthesize this configuration in `make synth`
#     [SYNTH_FULL])                synthesize it only in `make regress` (target synth_full):
#                                  for configurations whose Yosys run takes minutes
#
# Produces: static library <name> holding class V<name> (#include "V<name>.h"), built with
# --assert and FST tracing compiled in (switched on at run time by the harness), a
# lint_<name> target attached to `lint`, and with SYNTH a synth_<name> target attached to
# `synth` that writes build/synth/<name>.rpt and checks it against the committed baseline.

set(TESSERA_RTL_COMMON_DIR ${CMAKE_SOURCE_DIR}/rtl/common)

# The Verilator runtime, compiled once with the flags every Tessera model uses (FST tracing)
# and linked by every model. verilate() would compile its own copy into each model library:
# three runtime files per model, about 45 models, 670 CPU seconds of a clean build for
# identical objects (issue 15 item 7).
find_package(Threads REQUIRED)
add_library(tessera_verilated_rt STATIC
  ${VERILATOR_ROOT}/include/verilated.cpp
  ${VERILATOR_ROOT}/include/verilated_fst_c.cpp
  ${VERILATOR_ROOT}/include/verilated_threads.cpp)
target_include_directories(tessera_verilated_rt SYSTEM PUBLIC
  ${VERILATOR_ROOT}/include ${VERILATOR_ROOT}/include/vltstd)
target_compile_definitions(tessera_verilated_rt PRIVATE VM_TRACE=1 VM_TRACE_FST=1 VM_COVERAGE=0 VM_SC=0 VM_TRACE_VCD=0)
target_link_libraries(tessera_verilated_rt PUBLIC ZLIB::ZLIB Threads::Threads)
set(TESSERA_SYNTH_SCRIPT ${CMAKE_SOURCE_DIR}/scripts/synth/synth.sh)
set(TESSERA_SYNTH_BASELINE_DIR ${CMAKE_SOURCE_DIR}/scripts/synth/baseline)

function(tessera_rtl_model NAME)
  cmake_parse_arguments(M "SYNTH;SYNTH_FULL" "TOP" "SOURCES;INCLUDE_DIRS;PARAMS;VLT;BUILD_ARGS" ${ARGN})
  if(NOT M_TOP OR NOT M_SOURCES)
    message(FATAL_ERROR "tessera_rtl_model(${NAME}): TOP and SOURCES are required")
  endif()

  set(_abs_sources)
  foreach(_src ${M_SOURCES})
    get_filename_component(_a ${_src} ABSOLUTE)
    list(APPEND _abs_sources ${_a})
  endforeach()
  set(_abs_vlt)
  foreach(_v ${M_VLT})
    get_filename_component(_a ${_v} ABSOLUTE)
    list(APPEND _abs_vlt ${_a})
  endforeach()

  set(_common_args --top-module ${M_TOP} -I${TESSERA_RTL_COMMON_DIR} -I${TESSERA_GEN_DIR})
  foreach(_inc ${M_INCLUDE_DIRS})
    get_filename_component(_a ${_inc} ABSOLUTE)
    list(APPEND _common_args -I${_a})
  endforeach()
  set(_synth_params)
  foreach(_p ${M_PARAMS})
    list(APPEND _common_args -G${_p})
    list(APPEND _synth_params ${_p})
  endforeach()

  # --- verilated library ------------------------------------------------------------------
  # Built only when a bench or tool links it: a configuration that exists for lint or
  # synthesis costs no compile time.
  add_library(${NAME} STATIC EXCLUDE_FROM_ALL)
  verilate(${NAME}
    PREFIX V${NAME}
    TRACE_FST
    SOURCES ${_abs_vlt} ${_abs_sources}
    VERILATOR_ARGS ${_common_args}
      --assert                       # RTL assertions are part of every run
      --x-assign unique --x-initial unique   # randReset(2) then seeds X from the run's seed
      -Wno-fatal                     # warnings are `make lint`'s business, not the build's
      -O3
      ${M_BUILD_ARGS}
    # Slow code (constructors, the initial settle, trace set-up and full dumps) runs once per
    # model or per FST: -O0 compiles it in about half the time of -O1 and costs no measurable
    # simulation speed (issue 15 item 7: Verilator's C++ compile dominates make test).
    OPT_FAST -O2
    OPT_SLOW -O0)
  # The runtime comes from tessera_verilated_rt, not from a copy of its sources in every model.
  get_target_property(_model_sources ${NAME} SOURCES)
  list(FILTER _model_sources EXCLUDE REGEX "/include/verilated[a-z_]*\\.cpp$")
  set_property(TARGET ${NAME} PROPERTY SOURCES ${_model_sources})
  target_link_libraries(${NAME} PUBLIC tessera_verilated_rt ZLIB::ZLIB)
  # Generated code and Verilator's headers reach benches as system headers, so the
  # project's -Wall -Wextra -Werror applies to our code only.
  set_target_properties(${NAME} PROPERTIES SYSTEM TRUE)
  # The harness needs to know a model was built with FST tracing.
  target_compile_definitions(${NAME} PUBLIC TESSERA_MODEL_TRACE_FST=1)

  # Headers reached through `include: editing one must re-run lint and synthesis.
  set(_headers)
  foreach(_dir ${TESSERA_RTL_COMMON_DIR} ${M_INCLUDE_DIRS})
    file(GLOB _h ${_dir}/*.svh)
    list(APPEND _headers ${_h})
  endforeach()

  # --- lint ---------------------------------------------------------------------------------
  set(_stamp ${CMAKE_CURRENT_BINARY_DIR}/lint_${NAME}.stamp)
  add_custom_command(OUTPUT ${_stamp}
    COMMAND ${VERILATOR_BIN} --lint-only -Wall --assert ${_common_args} ${_abs_vlt} ${_abs_sources}
    COMMAND ${CMAKE_COMMAND} -E touch ${_stamp}
    DEPENDS ${_abs_sources} ${_abs_vlt} ${_headers}
    COMMENT "lint ${NAME} (verilator --lint-only -Wall, top ${M_TOP})"
    VERBATIM)
  add_custom_target(lint_${NAME} DEPENDS ${_stamp})
  add_dependencies(lint lint_${NAME})

  # --- synthesis ----------------------------------------------------------------------------
  if(M_SYNTH OR M_SYNTH_FULL)
    set(_rpt ${CMAKE_BINARY_DIR}/synth/${NAME}.rpt)
    set(_baseline_dep)
    if(EXISTS ${TESSERA_SYNTH_BASELINE_DIR}/${NAME}.rpt)
      set(_baseline_dep ${TESSERA_SYNTH_BASELINE_DIR}/${NAME}.rpt)
    endif()
    string(REPLACE ";" "," _params_csv "${_synth_params}")
    string(REPLACE ";" "," _sources_csv "${_abs_sources}")
    set(_incs ${TESSERA_RTL_COMMON_DIR} ${TESSERA_GEN_DIR} ${M_INCLUDE_DIRS})
    string(REPLACE ";" "," _incs_csv "${_incs}")
    add_custom_command(OUTPUT ${_rpt}
      COMMAND ${TESSERA_SYNTH_SCRIPT}
        --name ${NAME} --top ${M_TOP} --sources "${_sources_csv}"
        --params "${_params_csv}" --incdirs "${_incs_csv}"
        --out ${CMAKE_BINARY_DIR}/synth --baseline ${TESSERA_SYNTH_BASELINE_DIR}
        --yosys ${YOSYS_PROGRAM}
      DEPENDS ${_abs_sources} ${_headers} ${TESSERA_SYNTH_SCRIPT}
        ${CMAKE_SOURCE_DIR}/constraints/tessera.sdc
        ${CMAKE_SOURCE_DIR}/scripts/synth/yosys-waivers.txt
        ${_baseline_dep}
      COMMENT "synth ${NAME} (yosys, top ${M_TOP})"
      VERBATIM)
    add_custom_target(synth_${NAME} DEPENDS ${_rpt})
    if(M_SYNTH)
      add_dependencies(synth synth_${NAME})
    else()
      add_dependencies(synth_full synth_${NAME})
    endif()
  endif()
endfunction()
