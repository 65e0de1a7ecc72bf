#!/usr/bin/env bash
# `make run`: the main job, tessera-sim, on its built-in demo scene on the RTL GPU, checked
# against the reference backend, then figures of the parts underneath it.
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
out="$build/demo"
rm -rf "$out"; mkdir -p "$out"
seed=${RANDOM_SEED:-1}
cat <<MSG
== Tessera demonstration ==
tessera-sim renders the demo scene (scenes/demo/demo.yaml) on the RTL GPU: the driver records
each frame as command buffers, the command processor's firmware executes them, PC_US splits the
draws over the geometry slices, VPC_US hands each triangle to the raster slices whose tiles it
touches, and the raster slices bin (PBB), rasterize and write the pixels through the SLC to
the DRAM model. The same frames then run on the reference backend (the driver's reference
device + the C++ reference renderer) and the pictures are compared byte for byte.

MSG
echo "== tessera-sim run --backend rtl --slices 4: the demo scene, 2 frames, first 20000 cycles in an FST =="
"$build/tessera-sim" run --backend rtl --slices 4 --frames 2 --seed "$seed" --out "$out/frames" \
  --trace "$out/tessera-sim-rtl.fst" --trace-start 0 --trace-end 20000
echo
echo "== tessera-sim run --backend ref: the same frames from the reference renderer =="
"$build/tessera-sim" run --backend ref --frames 2 --seed "$seed" --quiet --out "$out/ref"
for f in "$out"/frames/frame_*.png; do
  if cmp -s "$f" "$out/ref/$(basename "$f")"; then
    echo "  $(basename "$f"): RTL == reference, byte for byte"
  else
    echo "  $(basename "$f"): RTL and reference DIFFER"; exit 1
  fi
done
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
echo "Pictures (RTL): $out/frames/frame_*.png   statistics: $out/frames/stats.json (reference: $out/ref/)"
echo "Waveforms (open with gtkwave):"
ls -1 "$out"/*.fst | sed 's/^/  /'
echo "Logs and JUnit results: $out/"
