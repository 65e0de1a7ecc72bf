#!/usr/bin/env bash
# `make run`: the main job, tessera-sim, on its built-in demo scene, then figures of the parts
# that exist underneath it. Pictures come from the reference backend until the geometry and
# raster slices are part of the RTL GPU top (docs/tessera-sim.md, "What works today").
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
out="$build/demo"
rm -rf "$out"; mkdir -p "$out"
seed=${RANDOM_SEED:-1}
cat <<MSG
== Tessera demonstration ==
tessera-sim renders the demo scene (scenes/demo/demo.yaml): the driver records each frame as
command buffers, the command processor's firmware executes them, and the reference slices
draw the pixels. The same command stream then runs on the RTL GPU (CP + firmware + memory
system + DRAM model) for cycles, DRAM bytes and SLC figures; the RTL's geometry and raster
slices are tested on their own and join the GPU top next.

MSG
echo "== tessera-sim run --backend ref: the demo scene, 4 frames =="
"$build/tessera-sim" run --backend ref --frames 4 --seed "$seed" --out "$out/frames"
echo
echo "== tessera-sim run --backend rtl --no-render: the same frames on the RTL GPU =="
"$build/tessera-sim" run --backend rtl --no-render --frames 2 --seed "$seed" --out "$out/rtl" \
  --trace "$out/tessera-sim-rtl.fst" --trace-start 0 --trace-end 20000
echo
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
echo "Pictures: $out/frames/frame_*.png   statistics: $out/frames/stats.json, $out/rtl/stats.json"
echo "Waveforms (open with gtkwave):"
ls -1 "$out"/*.fst | sed 's/^/  /'
echo "Logs and JUnit results: $out/"
