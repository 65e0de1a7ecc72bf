#!/usr/bin/env bash
# `make run` until the main job (tessera-sim, a later issue) exists: the most complete
# demonstration available today, and it says so.
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
out="$build/demo"
rm -rf "$out"; mkdir -p "$out"
seed=${RANDOM_SEED:-1}
cat <<MSG
== Tessera demonstration ==
tessera-sim, the scene renderer, does not exist yet (a later issue). Until it does, 'make run'
runs the parts of the GPU that exist: the command processor executing packets with its
firmware on the RTL (fed by the host driver, compared with the reference device), the CP core
running a bare-metal C program under cp-run, and the memory system: three clients through
the crossbar, the system-level cache with DSID-tagged lines and the AXI4 bridge into the C++
DRAM model, with waveforms on; then the benchmark figures and the synthesis report.

MSG
echo "== command processor: firmware on the RTL (RANDOM_SEED=$seed, WAVES=1) =="
(cd "$out" && RANDOM_SEED=$seed WAVES=1 "$build/tb/cp/test_cp_system" \
   --gtest_filter='CpSystem.EveryPacketOnOneQueue:CpSystem.BenchmarkCyclesPerPacket' > cp_system.log 2>&1) || {
  cat "$out/cp_system.log"; exit 1; }
grep -E "^\[cp\]|BENCH|PASSED" "$out/cp_system.log" | sed 's/^/  /'
echo
echo "== host driver on both backends: the same command buffers, memory and pipeline commands compared =="
(cd "$out" && RANDOM_SEED=$seed "$build/driver/driver_test" --gtest_filter='System*:Backends*' > driver_system.log 2>&1) || {
  cat "$out/driver_system.log"; exit 1; }
grep -E "^\[       OK|PASSED" "$out/driver_system.log" | sed 's/^/  /'
echo
echo "== cp-run: a bare-metal C program on the CP core =="
"$build/cp-run" "$build/tb/cp_core/cp_core_test_c_firmware.elf" 2>&1 | sed 's/^/  /'
echo
echo "== memory system: clients -> crossbar -> SLC -> AXI4 -> DRAM (RANDOM_SEED=$seed, WAVES=1) =="
(cd "$out" && RANDOM_SEED=$seed WAVES=1 COCOTB_RESULTS_FILE=mem_subsys.xml "$build/tb/mem/bench_mem_subsys" > mem_subsys.log 2>&1) || {
  cat "$out/mem_subsys.log"; exit 1; }
grep -E "cocotb.bench_mem_subsys|passed, .* failed" "$out/mem_subsys.log" | sed -E 's/^ *[0-9.]+ns INFO +cocotb.bench_mem_subsys +/  /'
echo
echo "== SLC figures (bench_slc_perf) =="
(cd "$out" && RANDOM_SEED=$seed COCOTB_RESULTS_FILE=slc_perf.xml "$build/tb/slc/bench_slc_perf" > slc_perf.log 2>&1) || {
  cat "$out/slc_perf.log"; exit 1; }
grep -E "FIGURE|^ {6,}[0-9]" "$out/slc_perf.log" | grep -v "cocotb.regression" | sed -E 's/^ *[0-9.]+ns INFO +cocotb.bench_slc_perf +FIGURE /  /' | head -60
echo
if [[ -f "$build/synth/summary.txt" ]]; then
  echo "== synthesis summary ($build/synth/summary.txt) =="
  cat "$build/synth/summary.txt"
  echo
fi
echo "Waveforms (open with gtkwave):"
ls -1 "$out"/*.fst | sed 's/^/  /'
echo "Logs and JUnit results: $out/"
