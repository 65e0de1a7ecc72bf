# Cross-compiling bare-metal RV32IM programs (CP firmware, CP core instruction tests) with
# Debian's riscv64-unknown-elf-gcc, inside the host CMake build.
#
# Why not a second CMake project with a toolchain file: the images are inputs of host targets
# (Verilated ROM images, benches), so they live in the same build graph; a few custom commands
# are simpler than an ExternalProject and keep `make` one build.
#
# ISA flags: `-march=rv32im -mabi=ilp32 -misa-spec=2.2`. With ISA spec 2.2 the CSR
# instructions are part of I, so the assembler accepts csrr/csrw without `_zicsr`, and GCC 12
# still selects the rv32im/ilp32 multilib (libgcc); `-march=rv32im_zicsr` would silently fall
# back to the rv64 libgcc.
#
# tessera_riscv_executable(<name>
#     SOURCES <.c/.S files...>
#     LINKER_SCRIPT <file.ld>
#     [INCLUDE_DIRS <dirs...>] [DEFINES <defs...>] [DEPENDS <targets/files...>]
#     [OPT <-O2|-Os...>] [ROM_BYTES <n>])
# Produces in ${CMAKE_CURRENT_BINARY_DIR}: <name>.elf, <name>.dis (disassembly),
# <name>.hex ($readmemh 32-bit words; `@` addresses in words) of the .text*, .rodata* and
# .init* sections (put the .data load image in an .init* section),
# <name>.size (berkeley size) and a custom target <name>. Variables set in the caller's scope:
# <name>_ELF, <name>_HEX. With ROM_BYTES, the build fails if the text+rodata+data image
# outgrows it.

find_program(TESSERA_RISCV_CC riscv64-unknown-elf-gcc REQUIRED)
find_program(TESSERA_RISCV_OBJCOPY riscv64-unknown-elf-objcopy REQUIRED)
find_program(TESSERA_RISCV_OBJDUMP riscv64-unknown-elf-objdump REQUIRED)
find_program(TESSERA_RISCV_SIZE riscv64-unknown-elf-size REQUIRED)

set(TESSERA_RISCV_ARCH_FLAGS -march=rv32im -mabi=ilp32 -misa-spec=2.2)

function(tessera_riscv_executable name)
  cmake_parse_arguments(RV "" "LINKER_SCRIPT;OPT;ROM_BYTES"
                        "SOURCES;INCLUDE_DIRS;DEFINES;DEPENDS" ${ARGN})
  if(NOT RV_LINKER_SCRIPT)
    message(FATAL_ERROR "tessera_riscv_executable(${name}): LINKER_SCRIPT is required")
  endif()
  if(NOT RV_OPT)
    set(RV_OPT -O2)
  endif()
  set(out ${CMAKE_CURRENT_BINARY_DIR})
  set(objs)
  foreach(src IN LISTS RV_SOURCES)
    get_filename_component(abs ${src} ABSOLUTE)
    get_filename_component(base ${src} NAME)
    set(obj ${out}/${name}.objs/${base}.o)
    set(incs)
    foreach(d IN LISTS RV_INCLUDE_DIRS)
      list(APPEND incs -I${d})
    endforeach()
    set(defs)
    foreach(d IN LISTS RV_DEFINES)
      list(APPEND defs -D${d})
    endforeach()
    add_custom_command(
      OUTPUT ${obj}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${out}/${name}.objs
      COMMAND ${TESSERA_RISCV_CC} ${TESSERA_RISCV_ARCH_FLAGS} ${RV_OPT} -g
              -std=c11 -ffreestanding -fno-builtin -nostdlib -ffunction-sections -fdata-sections
              -Wall -Wextra -Werror ${incs} ${defs} -MD -MF ${obj}.d -c ${abs} -o ${obj}
      DEPFILE ${obj}.d
      DEPENDS ${abs} ${RV_DEPENDS}
      COMMENT "RISC-V CC ${name}: ${base}"
      VERBATIM)
    list(APPEND objs ${obj})
  endforeach()
  get_filename_component(ld ${RV_LINKER_SCRIPT} ABSOLUTE)
  set(elf ${out}/${name}.elf)
  set(check)
  if(RV_ROM_BYTES)
    set(check COMMAND ${CMAKE_COMMAND} -DSIZE_TOOL=${TESSERA_RISCV_SIZE} -DELF=${elf}
                      -DLIMIT=${RV_ROM_BYTES} -DNAME=${name}
                      -P ${PROJECT_SOURCE_DIR}/cmake/riscv-size-check.cmake)
  endif()
  add_custom_command(
    OUTPUT ${elf} ${out}/${name}.hex ${out}/${name}.dis ${out}/${name}.size
    COMMAND ${TESSERA_RISCV_CC} ${TESSERA_RISCV_ARCH_FLAGS} -nostdlib -nostartfiles -static
            -Wl,--gc-sections -Wl,-T,${ld} -Wl,-Map,${out}/${name}.map ${objs} -lgcc -o ${elf}
    COMMAND ${TESSERA_RISCV_OBJDUMP} -d -S ${elf} > ${out}/${name}.dis
    COMMAND ${TESSERA_RISCV_SIZE} ${elf} > ${out}/${name}.size
    COMMAND ${TESSERA_RISCV_OBJCOPY} -O verilog --verilog-data-width=4
            --only-section=.text* --only-section=.rodata* --only-section=.init*
            ${elf} ${out}/${name}.hex
    ${check}
    DEPENDS ${objs} ${ld}
    COMMENT "RISC-V LD ${name}.elf"
    VERBATIM)
  add_custom_target(${name} ALL DEPENDS ${elf})
  set(${name}_ELF ${elf} PARENT_SCOPE)
  set(${name}_HEX ${out}/${name}.hex PARENT_SCOPE)
endfunction()
