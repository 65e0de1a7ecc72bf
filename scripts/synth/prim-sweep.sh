#!/usr/bin/env bash
# Lint and synthesis-check every rtl/common primitive over a matrix of parameterisations,
# wider than the handful of configurations built as models (rtl/common/CMakeLists.txt).
# Run it after touching rtl/common:
#   scripts/synth/prim-sweep.sh [OUT_DIR]      (default /tmp/tessera-prim-sweep)
# Per configuration: verilator --lint-only -Wall (+ --assert) with rtl/common/common.vlt,
# then scripts/synth/synth.sh with SYNTH_ACCEPT=1 (latch, driver, warning and construct
# checks; no baseline). Needs only verilator and yosys; about a minute on 2 cores.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
common="$root/rtl/common"
out=${1:-/tmp/tessera-prim-sweep}
verilator=${VERILATOR:-verilator}
yosys=${YOSYS:-yosys}
mkdir -p "$out"

# top | files (besides the top's own) | parameter sets, ';'-separated, each P=V,Q=W
matrix=(
  "prim_fifo_sync||WIDTH=16,DEPTH=1;WIDTH=16,DEPTH=2;WIDTH=16,DEPTH=3;WIDTH=16,DEPTH=4;WIDTH=16,DEPTH=16;WIDTH=16,DEPTH=1,FALL_THROUGH=1;WIDTH=16,DEPTH=3,FALL_THROUGH=1;WIDTH=1,DEPTH=5,FALL_THROUGH=1;WIDTH=33,DEPTH=16,FALL_THROUGH=1"
  "prim_spill_reg||WIDTH=1;WIDTH=16;WIDTH=16,BYPASS=1"
  "prim_pipe_reg||WIDTH=1;WIDTH=16"
  "prim_rr_arb||N=1;N=2;N=3;N=5;N=8;N=5,LOCK_IN=0;N=8,WIDTH=1"
  "prim_rr_arb_tree||N=1;N=2;N=3;N=5;N=8;N=12;N=16;N=64,WIDTH=32;N=12,LOCK_IN=0"
  "prim_popcount||WIDTH=1;WIDTH=2;WIDTH=8;WIDTH=33;WIDTH=64"
  "prim_priority_enc||WIDTH=1;WIDTH=2;WIDTH=3;WIDTH=8;WIDTH=33"
  "prim_lzc|prim_priority_enc.sv|WIDTH=1;WIDTH=2;WIDTH=32;WIDTH=32,MODE=1;WIDTH=5,MODE=1;WIDTH=33,MODE=1"
  "prim_sat_counter||WIDTH=1;WIDTH=6;WIDTH=16,MAX_VAL=16'd1000,RESET_VAL=16'd5;WIDTH=33"
  "prim_ram_1p||DEPTH=1;DEPTH=3,WIDTH=8,DATA_BITS_PER_MASK=1;DEPTH=64;DEPTH=64,DATA_BITS_PER_MASK=8;DEPTH=1024,WIDTH=512,DATA_BITS_PER_MASK=8"
  "prim_ram_2p||DEPTH=1;DEPTH=3,WIDTH=8,DATA_BITS_PER_MASK=1;DEPTH=64;DEPTH=64,DATA_BITS_PER_MASK=8;DEPTH=1024,WIDTH=512,DATA_BITS_PER_MASK=8"
)

pass=0 failed=()
for row in "${matrix[@]}"; do
  IFS='|' read -r top extra sets <<< "$row"
  srcs=("$common/$top.sv")
  for e in ${extra//,/ }; do srcs+=("$common/$e"); done
  IFS=';' read -r -a psets <<< "$sets"
  for ps in "${psets[@]}"; do
    tag="$top:$ps"
    gargs=()
    IFS=, read -r -a plist <<< "$ps"
    for p in "${plist[@]}"; do gargs+=("-G$p"); done
    if ! "$verilator" --lint-only -Wall --assert -I"$common" --top-module "$top" "${gargs[@]}" \
         "$common/common.vlt" "${srcs[@]}" > "$out/lint.txt" 2>&1; then
      echo "FAIL lint  $tag"; sed 's/^/    /' "$out/lint.txt" | head -20
      failed+=("lint $tag"); continue
    fi
    sname="${top}_$(tr ',=' '__' <<< "$ps" | tr -cd 'A-Za-z0-9_')"
    src_csv=$(IFS=,; echo "${srcs[*]}")
    if ! SYNTH_ACCEPT=1 "$here/synth.sh" --name "$sname" --top "$top" --sources "$src_csv" \
         --params "$ps" --incdirs "$common" --out "$out" --baseline "$out/none" \
         --yosys "$yosys" > "$out/synth.txt" 2>&1; then
      echo "FAIL synth $tag"; sed 's/^/    /' "$out/synth.txt" | head -20
      failed+=("synth $tag"); continue
    fi
    pass=$((pass + 1))
    echo "ok   $tag  ($(grep -o 'luts.*' "$out/synth.txt" | tail -1))"
  done
done
echo "prim-sweep: $pass configuration(s) clean, ${#failed[@]} failed; summary in $out/summary.txt"
[[ ${#failed[@]} -eq 0 ]]
