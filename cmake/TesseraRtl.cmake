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
#                                  workarounds, or +define+TESSERA_FAST_ARITH for prim_add as
#                                  `+`; say why in a comment at the call)
#     [SYNTH]                      also synthesize this configuration in `make synth`
#     [SYNTH_FULL])                synthesize it only in `make regress` (target synth_full):
#                                  for configurations whose Yosys run takes minutes
#     [SYNTH_CHECK])               as SYNTH_FULL, and `make synth` (so `make test`) runs the
#                                  structural checks alone (synth.sh --check-only): no latches,
#                                  drivers, loops or warnings, without the figures
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

# Verilator splits a model into many small C++ files, and every file re-parses verilated.h and
# the model's headers: about 1.4 s of a clean build per file, 9 files for the smallest model
# (13 s to compile a 1-line FIFO; issue 15 item 7). The model is compiled instead as a few
# "unity" translation units that #include the generated files, grouped up to
# TESSERA_UNITY_BYTES of source each, as Verilator's own Makefile does with its __ALL.cpp:
#   - a model whose generated code is small is one unit, at -O2;
#   - otherwise the evaluation code (Verilator's "fast" classes) is grouped at -O2, and the
#     code that runs once per model or only while an FST is being written (constructors, the
#     initial settle, trace set-up, full and incremental dumps) at -O0. Tracing is off unless
#     WAVES=1, so the dump code's speed costs nothing in a normal run.
# -O2 comes with -fno-gcse: GCC's RTL global CSE pass is half of the compile time of Verilator's
# huge evaluation functions (gpu_n4's largest unit: 13.9 s at -O2, 6.9 s without GCSE, 16.4 s
# without tree PRE instead) and buys little there: the demo frame on gpu_n4 took 5 % more CPU
# time (19.6 s against 18.5 s, two runs each), where -O1 halved the simulation speed.
# And with -fno-tree-slp-vectorize: GCC 12 vectorizes straight-line code at -O2, which was 38 %
# of the compile of gpu_n4's slowest unit (20.1 s -> 10.5 s without it) and changed nothing
# measurable in the demo's simulation time (11.84 s against 11.82 s, best of three).
# And with --param=sccvn-max-alias-queries-per-access=10 (GCC's default: 1000): value numbering
# walks the alias chains of Verilator's long store sequences to vlSelf, and that walk was 59 %
# of gpu_n4's largest unit (-ftime-report "alias stmt walking": 11.8 s -> 4.2 s with the cap).
# The GPU models and the raster slice compiled in about 9 min -> 4m52 of CPU; the demo on
# gpu_n4 took 14.0-14.7 s of CPU against 14.8-15.1 s before, bench_raster_perf 2.7 s both ways.
# The file list is the one verilate() read at configure time; when Verilator's output files
# change, verilate() re-runs CMake, which regroups them.
set(TESSERA_UNITY_BYTES 1000000 CACHE STRING "Bytes of Verilator-generated C++ per unity translation unit")

# Every unity unit starts by parsing verilated.h and verilated_fst_c.h: 1.2 s of GCC's time
# per unit, 340 units in a clean build (a 48-bit adder's only unit: 2.2 s, of which 0.6 s is its
# own code). The two headers are precompiled once per optimisation flavour of the units (the
# flags of a precompiled header must match the unit's) into build/vpch/<flavour>/, and each unit
# includes tessera_verilated_pch.h first. If a .gch does not match a unit's flags, GCC warns
# (-Winvalid-pch) and parses the real header: the precompiled header only ever saves time,
# never changes what is compiled. ccache sees the headers' text (GCC's -E ignores .gch files),
# so it caches the units as before.
set(TESSERA_UNITY_FLAGS_O2 -O2 -fno-gcse -fno-tree-slp-vectorize --param=sccvn-max-alias-queries-per-access=10)
set(TESSERA_UNITY_FLAGS_O0 -O0)
set(TESSERA_UNITY_DEFINES -DTESSERA_MODEL_TRACE_FST=1 -DVM_COVERAGE=0 -DVM_SC=0 -DVM_TRACE=1
    -DVM_TRACE_FST=1 -DVM_TRACE_VCD=0)
set(_vpch_gchs)
string(TOUPPER "${CMAKE_BUILD_TYPE}" _vpch_config)
separate_arguments(_vpch_base UNIX_COMMAND
  "${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_${_vpch_config}} ${CMAKE_CXX20_STANDARD_COMPILE_OPTION}")
foreach(_flavour O2 O0)
  set(_dir ${CMAKE_BINARY_DIR}/vpch/${_flavour})
  file(MAKE_DIRECTORY ${_dir})
  file(CONFIGURE OUTPUT ${_dir}/tessera_verilated_pch.h @ONLY CONTENT
    "// Generated by cmake/TesseraRtl.cmake: the Verilator headers every unity unit includes first.\n#include \"verilated.h\"\n#include \"verilated_fst_c.h\"\n")
  add_custom_command(OUTPUT ${_dir}/tessera_verilated_pch.h.gch
    COMMAND ${CMAKE_CXX_COMPILER} ${TESSERA_UNITY_DEFINES}
            -isystem ${VERILATOR_ROOT}/include -isystem ${VERILATOR_ROOT}/include/vltstd
            ${_vpch_base} ${TESSERA_UNITY_FLAGS_${_flavour}}
            -x c++-header ${_dir}/tessera_verilated_pch.h -o ${_dir}/tessera_verilated_pch.h.gch
    DEPENDS ${_dir}/tessera_verilated_pch.h ${VERILATOR_ROOT}/include/verilated.h
            ${VERILATOR_ROOT}/include/verilated_fst_c.h
    COMMENT "precompile the Verilator headers for the ${_flavour} unity units"
    VERBATIM)
  list(APPEND _vpch_gchs ${_dir}/tessera_verilated_pch.h.gch)
endforeach()
add_custom_target(tessera_verilated_pch DEPENDS ${_vpch_gchs})

function(_tessera_unity_write PATH CONTENT)
  if(EXISTS ${PATH})
    file(READ ${PATH} _old)
    if(_old STREQUAL CONTENT)
      return()
    endif()
  endif()
  file(WRITE ${PATH} "${CONTENT}")
endfunction()

# Groups FILES into units of at most TESSERA_UNITY_BYTES (a larger file is a unit of its own),
# writes them as <DIR>/<TAG>_<n>.cpp compiled with TESSERA_UNITY_FLAGS_<FLAVOUR> (O2 or O0),
# appends their paths to OUT_VAR.
function(_tessera_unity_group OUT_VAR DIR TAG FLAVOUR)
  set(_units ${${OUT_VAR}})
  set(_group)
  set(_group_bytes 0)
  set(_n 0)
  foreach(_f ${ARGN} __END__)
    if(NOT _f STREQUAL "__END__")
      file(SIZE ${_f} _bytes)
      math(EXPR _sum "${_group_bytes} + ${_bytes}")
    endif()
    if(_group AND (_f STREQUAL "__END__" OR _sum GREATER TESSERA_UNITY_BYTES))
      set(_text "// Generated by cmake/TesseraRtl.cmake: one translation unit of Verilator output.\n")
      string(APPEND _text "#include \"tessera_verilated_pch.h\"  // first, so GCC can use the .gch\n")
      foreach(_g ${_group})
        string(APPEND _text "#include \"${_g}\"\n")
      endforeach()
      set(_unit ${DIR}/${TAG}_${_n}.cpp)
      _tessera_unity_write(${_unit} "${_text}")
      list(JOIN TESSERA_UNITY_FLAGS_${FLAVOUR} " " _flags)
      set_source_files_properties(${_unit} PROPERTIES
        COMPILE_FLAGS "${_flags} -Winvalid-pch -I${CMAKE_BINARY_DIR}/vpch/${FLAVOUR}")
      list(APPEND _units ${_unit})
      math(EXPR _n "${_n} + 1")
      set(_group)
      set(_group_bytes 0)
      set(_sum ${_bytes})
    endif()
    if(NOT _f STREQUAL "__END__")
      list(APPEND _group ${_f})
      set(_group_bytes ${_sum})
    endif()
  endforeach()
  set(${OUT_VAR} ${_units} PARENT_SCOPE)
endfunction()

function(_tessera_unity_model NAME)
  set(_vdir ${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/${NAME}.dir/V${NAME}.dir)
  set(_list ${_vdir}/V${NAME}_copy.cmake)
  if(NOT EXISTS ${_list})
    message(FATAL_ERROR "tessera_rtl_model(${NAME}): verilate() left no ${_list}")
  endif()
  include(${_list})
  set(_fast ${V${NAME}_CLASSES_FAST})
  set(_slow ${V${NAME}_CLASSES_SLOW} ${V${NAME}_SUPPORT_SLOW} ${V${NAME}_SUPPORT_FAST})
  set(_all ${_fast} ${_slow})
  set(_total 0)
  foreach(_f ${_all})
    file(SIZE ${_f} _bytes)
    math(EXPR _total "${_total} + ${_bytes}")
  endforeach()
  set(_udir ${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/${NAME}.dir/unity)
  file(MAKE_DIRECTORY ${_udir})
  file(GLOB _stale ${_udir}/*.cpp)
  set(_units)
  if(_total GREATER TESSERA_UNITY_BYTES)
    _tessera_unity_group(_units ${_udir} V${NAME}_fast O2 ${_fast})
    _tessera_unity_group(_units ${_udir} V${NAME}_slow O0 ${_slow})
  else()
    _tessera_unity_group(_units ${_udir} V${NAME}_all O2 ${_all})
  endif()
  # A unit left over from an earlier grouping would never be compiled but could confuse a reader.
  foreach(_s ${_stale})
    if(NOT _s IN_LIST _units)
      file(REMOVE ${_s})
    endif()
  endforeach()
  # The generated files stay in the target (their custom command is what runs Verilator) but
  # are compiled only through the units.
  set_source_files_properties(${_all} PROPERTIES HEADER_FILE_ONLY TRUE)
  target_sources(${NAME} PRIVATE ${_units})
  add_dependencies(${NAME} tessera_verilated_pch)
endfunction()

function(tessera_rtl_model NAME)
  cmake_parse_arguments(M "SYNTH;SYNTH_FULL;SYNTH_CHECK" "TOP" "SOURCES;INCLUDE_DIRS;PARAMS;VLT;BUILD_ARGS" ${ARGN})
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
  # TESSERA_MODELS=sim (make run's first configure, issue 20 item 8): verilate() runs Verilator
  # at configure time, one model after the other, so only the models tessera-sim links are
  # verilated; the others are empty placeholders until a configure with TESSERA_MODELS=all
  # (make build/test/regress switch to it) adds them.
  if(TESSERA_MODELS STREQUAL "sim" AND NOT NAME IN_LIST TESSERA_SIM_MODELS)
    add_library(${NAME} INTERFACE)
    return()
  endif()
  add_library(${NAME} STATIC EXCLUDE_FROM_ALL)
  # verilate() and what needs its file list run at the end of this directory, after the
  # directory's models have been verilated side by side (_tessera_verilate_directory below).
  set(_vargs ${_common_args}
      --assert                       # RTL assertions are part of every run
      --x-assign unique --x-initial unique   # randReset(2) then seeds X from the run's seed
      -Wno-fatal                     # warnings are `make lint`'s business, not the build's
      -O3
      ${M_BUILD_ARGS})
    # Optimisation is set per translation unit by _tessera_unity_model below.
  set_property(GLOBAL PROPERTY TESSERA_MODEL_${NAME}_VARGS "${_vargs}")
  set(_all_sources ${_abs_vlt} ${_abs_sources})
  set_property(GLOBAL PROPERTY TESSERA_MODEL_${NAME}_SOURCES "${_all_sources}")
  get_property(_pending DIRECTORY PROPERTY TESSERA_PENDING_MODELS)
  if(NOT _pending)
    cmake_language(DEFER CALL _tessera_verilate_directory)
  endif()
  set_property(DIRECTORY APPEND PROPERTY TESSERA_PENDING_MODELS ${NAME})
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
  if(M_SYNTH OR M_SYNTH_FULL OR M_SYNTH_CHECK)
    set(_rpt ${CMAKE_BINARY_DIR}/synth/${NAME}.rpt)
    set(_baseline_dep)
    if(EXISTS ${TESSERA_SYNTH_BASELINE_DIR}/${NAME}.rpt)
      set(_baseline_dep ${TESSERA_SYNTH_BASELINE_DIR}/${NAME}.rpt)
    endif()
    string(REPLACE ";" "," _params_csv "${_synth_params}")
    string(REPLACE ";" "," _sources_csv "${_abs_sources}")
    set(_incs ${TESSERA_RTL_COMMON_DIR} ${TESSERA_GEN_DIR} ${M_INCLUDE_DIRS})
    string(REPLACE ";" "," _incs_csv "${_incs}")
    # What the full run and the structure check (SYNTH_CHECK) share: the design and the rules.
    # (An empty list element would vanish where the list is expanded: --params only when set.)
    set(_synth_args
      --name ${NAME} --top ${M_TOP} --sources "${_sources_csv}" --incdirs "${_incs_csv}"
      --out ${CMAKE_BINARY_DIR}/synth --baseline ${TESSERA_SYNTH_BASELINE_DIR}
      --yosys ${YOSYS_PROGRAM})
    if(_params_csv)
      list(APPEND _synth_args --params "${_params_csv}")
    endif()
    set(_synth_deps ${_abs_sources} ${_headers} ${TESSERA_SYNTH_SCRIPT}
      ${CMAKE_SOURCE_DIR}/constraints/tessera.sdc
      ${CMAKE_SOURCE_DIR}/scripts/synth/yosys-waivers.txt)
    add_custom_command(OUTPUT ${_rpt}
      COMMAND ${TESSERA_SYNTH_SCRIPT} ${_synth_args}
      DEPENDS ${_synth_deps} ${_baseline_dep}
      COMMENT "synth ${NAME} (yosys, top ${M_TOP})"
      VERBATIM)
    add_custom_target(synth_${NAME} DEPENDS ${_rpt})
    if(M_SYNTH)
      add_dependencies(synth synth_${NAME})
    else()
      add_dependencies(synth_full synth_${NAME})
    endif()
    if(M_SYNTH_CHECK)
      # `make synth` (and so `make test`) still checks the structure: no latches, drivers,
      # loops or warnings, in a fraction of the full run's time.
      set(_check ${CMAKE_BINARY_DIR}/synth/${NAME}.check)
      add_custom_command(OUTPUT ${_check}
        COMMAND ${TESSERA_SYNTH_SCRIPT} --check-only ${_synth_args}
        DEPENDS ${_synth_deps}
        COMMENT "synth check ${NAME} (yosys up to check -assert, top ${M_TOP})"
        VERBATIM)
      add_custom_target(synth_check_${NAME} DEPENDS ${_check})
      add_dependencies(synth synth_check_${NAME})
    endif()
  endif()
endfunction()

# --- Verilator at configure time, a directory's models side by side --------------------------
# verilate() runs Verilator when CMake configures, to learn which files a model generates, and
# one model after the other: 70 s of a fresh configure on one core, 43 s of it rtl/gpu's three
# GPU models. tessera_rtl_model() therefore defers verilate() to the end of its directory, and
# there the directory's out-of-date models are verilated in parallel (one job per core) with
# exactly the command verilate() would run. verilate() then finds its arguments file and file
# list current and does not run Verilator again. A model whose job failed, or whose predicted
# command differs from verilate()'s, is simply verilated again by verilate() itself, which
# reports any error the usual way: the prediction can cost time, never correctness.

# The command verilate() (Verilator 5.006's verilator-config.cmake) builds for
# verilate(NAME PREFIX VNAME TRACE_FST SOURCES ... VERILATOR_ARGS ...).
function(_tessera_verilate_command NAME OUT_VAR)
  get_property(_vargs GLOBAL PROPERTY TESSERA_MODEL_${NAME}_VARGS)
  get_property(_srcs GLOBAL PROPERTY TESSERA_MODEL_${NAME}_SOURCES)
  string(TOLOWER ${CMAKE_CXX_COMPILER_ID} _compiler)
  if(_compiler STREQUAL "appleclang")
    set(_compiler clang)
  elseif(NOT _compiler MATCHES "^msvc$|^clang$")
    set(_compiler gcc)
  endif()
  set(_vdir ${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/${NAME}.dir/V${NAME}.dir)
  set(${OUT_VAR} "${VERILATOR_BIN}" --compiler ${_compiler} --prefix V${NAME} --Mdir ${_vdir}
    --make cmake --trace-fst --cc ${_vargs} ${_srcs} PARENT_SCOPE)
endfunction()

function(_tessera_verilate_directory)
  get_property(_names DIRECTORY PROPERTY TESSERA_PENDING_MODELS)
  set(_jobdir ${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/tessera_verilate)
  file(REMOVE_RECURSE ${_jobdir})
  set(_jobs)
  foreach(_name ${_names})
    _tessera_verilate_command(${_name} _cmd)
    set(_vdir ${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/${_name}.dir/V${_name}.dir)
    set(_prev)
    if(EXISTS ${_vdir}/verilator_args.txt AND EXISTS ${_vdir}/V${_name}_copy.cmake)
      file(READ ${_vdir}/verilator_args.txt _prev)
    endif()
    if(_prev STREQUAL "${_cmd}")
      continue()   # current: verilate() will not run it
    endif()
    file(MAKE_DIRECTORY ${_vdir})
    set(_line "cd '${CMAKE_CURRENT_SOURCE_DIR}' || exit 1\n")
    set(_words "")
    foreach(_a ${_cmd})
      string(REPLACE "'" "'\\''" _q "${_a}")
      string(APPEND _words " '${_q}'")
    endforeach()
    string(APPEND _line "${_words} > '${_jobdir}/${_name}.log' 2>&1\necho $? > '${_jobdir}/${_name}.rc'\n")
    file(WRITE ${_jobdir}/${_name}.sh "${_line}")
    list(APPEND _jobs ${_name})
  endforeach()
  list(LENGTH _jobs _njobs)
  if(_njobs GREATER 1)
    cmake_host_system_information(RESULT _cores QUERY NUMBER_OF_LOGICAL_CORES)
    file(RELATIVE_PATH _rel ${CMAKE_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR})
    message(STATUS "Verilating ${_njobs} models of ${_rel} side by side (${_cores} jobs)")
    set(_list)
    foreach(_name ${_jobs})
      string(APPEND _list "${_jobdir}/${_name}.sh\n")
    endforeach()
    file(WRITE ${_jobdir}/jobs.txt "${_list}")
    execute_process(COMMAND xargs -P ${_cores} -n 1 sh INPUT_FILE ${_jobdir}/jobs.txt
      RESULT_VARIABLE _unused_rc)
    foreach(_name ${_jobs})
      set(_rc 1)
      if(EXISTS ${_jobdir}/${_name}.rc)
        file(STRINGS ${_jobdir}/${_name}.rc _rc LIMIT_COUNT 1)
      endif()
      set(_vdir ${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/${_name}.dir/V${_name}.dir)
      if(_rc STREQUAL "0" AND EXISTS ${_vdir}/V${_name}.cmake)
        _tessera_verilate_command(${_name} _cmd)
        file(WRITE ${_vdir}/verilator_args.txt "${_cmd}")
        file(COPY_FILE ${_vdir}/V${_name}.cmake ${_vdir}/V${_name}_copy.cmake)
      endif()
    endforeach()
  endif()
  foreach(_name ${_names})
    _tessera_rtl_model_finish(${_name})
  endforeach()
endfunction()

# The part of tessera_rtl_model() that needs Verilator's file list.
function(_tessera_rtl_model_finish NAME)
  get_property(_vargs GLOBAL PROPERTY TESSERA_MODEL_${NAME}_VARGS)
  get_property(_srcs GLOBAL PROPERTY TESSERA_MODEL_${NAME}_SOURCES)
  verilate(${NAME}
    PREFIX V${NAME}
    TRACE_FST
    SOURCES ${_srcs}
    VERILATOR_ARGS ${_vargs})
  # The runtime comes from tessera_verilated_rt, not from a copy of its sources in every model.
  get_target_property(_model_sources ${NAME} SOURCES)
  list(FILTER _model_sources EXCLUDE REGEX "/include/verilated[a-z_]*\\.cpp$")
  set_property(TARGET ${NAME} PROPERTY SOURCES ${_model_sources})
  _tessera_unity_model(${NAME})
  target_link_libraries(${NAME} PUBLIC tessera_verilated_rt ZLIB::ZLIB)
endfunction()
