#!/usr/bin/env bash
# Lint (verilator -Wall --assert, with the crossbar's waivers) and the full synthesis checks
# (scripts/synth/synth.sh with SYNTH_ACCEPT=1: latches, drivers, loops, Yosys warnings, the
# LUT-depth budget) for mem_xbar parameterisations beyond the three built models
# (rtl/xbar/CMakeLists.txt). Needs only verilator and yosys; a few minutes on 2 cores.
#   rtl/xbar/xbar-sweep.sh [OUT_DIR]      (default /tmp/tessera-xbar-sweep)
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
common="$root/rtl/common"
# tessera_mem_pkg `includes its generated layouts (spec/layouts.yaml): the build's generated dir.
gen=${2:-$root/build/generated}
out=${1:-/tmp/tessera-xbar-sweep}
verilator=${VERILATOR:-verilator}
yosys=${YOSYS:-yosys}
mkdir -p "$out"

srcs=("$root/rtl/mem/tessera_mem_pkg.sv" "$common/prim_fifo_sync.sv" "$common/prim_spill_reg.sv"
      "$common/prim_rr_arb.sv" "$common/prim_rr_arb_tree.sv" "$common/prim_sat_counter.sv"
      "$here/mem_xbar.sv")
# Each: parameters P=V,Q=W (lint and synthesis), or lint: prefix for lint only (large
# configurations whose synthesis would only repeat the others at length).
configs=(
  "N_CLIENTS=2,MAX_OUTSTANDING=1"
  "N_CLIENTS=3,MAX_OUTSTANDING=2,RSP_SPILL=1"
  "N_CLIENTS=5,MAX_OUTSTANDING=3,REQ_SPILL=0,CNT_W=16"
  "N_CLIENTS=8,MAX_OUTSTANDING=2,REQ_SPILL=0,RSP_SPILL=1"
  "N_CLIENTS=9,MAX_OUTSTANDING=1"
  "N_CLIENTS=16,MAX_OUTSTANDING=2"
  "lint:N_CLIENTS=32,MAX_OUTSTANDING=256,CNT_W=64"
  "lint:N_CLIENTS=32,MAX_OUTSTANDING=1,REQ_SPILL=0,RSP_SPILL=1,CNT_W=1"
)

pass=0 failed=()
for cfg in "${configs[@]}"; do
  lint_only=0
  if [[ $cfg == lint:* ]]; then lint_only=1; cfg=${cfg#lint:}; fi
  gargs=()
  IFS=, read -r -a plist <<< "$cfg"
  for p in "${plist[@]}"; do gargs+=("-G$p"); done
  if ! "$verilator" --lint-only -Wall --assert -I"$common" -I"$gen" --top-module mem_xbar "${gargs[@]}" \
       "$common/common.vlt" "$here/xbar.vlt" "${srcs[@]}" > "$out/lint.txt" 2>&1; then
    echo "FAIL lint  $cfg"; sed 's/^/    /' "$out/lint.txt" | head -20
    failed+=("lint $cfg"); continue
  fi
  if [[ $lint_only == 1 ]]; then
    pass=$((pass + 1)); echo "ok   $cfg  (lint only)"; continue
  fi
  sname="xbar_$(tr ',=' '__' <<< "$cfg" | tr -cd 'A-Za-z0-9_')"
  src_csv=$(IFS=,; echo "${srcs[*]}")
  if ! SYNTH_ACCEPT=1 "$root/scripts/synth/synth.sh" --name "$sname" --top mem_xbar --sources "$src_csv" \
       --params "$cfg" --incdirs "$common,$gen" --out "$out" --baseline "$out/none" \
       --yosys "$yosys" > "$out/synth.txt" 2>&1; then
    echo "FAIL synth $cfg"; sed 's/^/    /' "$out/synth.txt" | head -20
    failed+=("synth $cfg"); continue
  fi
  pass=$((pass + 1))
  echo "ok   $cfg  ($(grep -o 'luts.*' "$out/synth.txt" | tail -1))"
done

echo "xbar sweep: $pass passed, ${#failed[@]} failed"
[[ ${#failed[@]} -eq 0 ]]
