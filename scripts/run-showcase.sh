#!/usr/bin/env bash
# `make showcase`: the parts underneath tessera-sim, one figure each: the command processor's
# firmware on the RTL, the host driver on both backends, a bare-metal program under cp-run, the
# memory system's traffic, the SLC's figures and the per-block synthesis summary. Needs the
# whole build (make build) and make synth; `make run` is the main job alone.
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
out="$build/showcase"
rm -rf "$out"; mkdir -p "$out"
seed=${RANDOM_SEED:-1}
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
echo "Logs, waveforms and JUnit results: $out/"
