#!/usr/bin/env bash
# `make run` until the main job (tessera-sim, a later issue) exists: the most complete
# demonstration available today, and it says so.
set -euo pipefail
build=${1:-build}
out="$build/demo"
mkdir -p "$out"
cat <<MSG
== Tessera demonstration ==
tessera-sim, the scene renderer, does not exist yet (a later issue). Until it does,
'make run' runs the RTL primitive benches on the cocotb-compatible harness with waveforms
on, and shows the synthesis report of every block.
MSG
bench="$build/tb/common/bench_prim_fifo"
if [[ -x "$bench" ]]; then
  (cd "$out" && RANDOM_SEED=${RANDOM_SEED:-1} WAVES=1 COCOTB_RESULTS_FILE=results.xml "$OLDPWD/$bench")
else
  (cd "$out" && RANDOM_SEED=${RANDOM_SEED:-1} WAVES=1 COCOTB_RESULTS_FILE=results.xml "$OLDPWD/$build/tb/harness/test/harness_selftest")
fi
echo
if [[ -f "$build/synth/summary.txt" ]]; then
  echo "== synthesis summary ($build/synth/summary.txt) =="
  cat "$build/synth/summary.txt"
fi
echo
echo "Waveforms (open with gtkwave):"
ls -1 "$out"/*.fst | sed 's/^/  /'
echo "JUnit results: $out/results.xml"
