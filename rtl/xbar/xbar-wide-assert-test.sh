#!/usr/bin/env bash
# The crossbar in the Verilator 5.006 bug window (verilator#4057; docs/mem-crossbar.md,
# "Wide signals in assertions"): builds mem_xbar with N_CLIENTS = 2 and 3 (cl_req_i of 40
# and 59 32-bit words) the way the models are built (--assert, no -fno-expand) around
# test/xbar_client_stable_tb.sv, and checks that it compiles, that a well-behaved client
# raises no assertion, and that a stalled client changing its request trips ClReqStable_M.
#   rtl/xbar/xbar-wide-assert-test.sh [OUT_DIR]      (default /tmp/tessera-xbar-wide-assert)
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
common="$root/rtl/common"
# tessera_mem_pkg `includes its generated layouts (spec/layouts.yaml): the build's generated dir.
gen=${2:-$root/build/generated}
out=${1:-/tmp/tessera-xbar-wide-assert}
verilator=${VERILATOR:-verilator}
mkdir -p "$out"

srcs=("$root/rtl/mem/tessera_mem_pkg.sv" "$common/prim_fifo_sync.sv" "$common/prim_spill_reg.sv"
      "$common/prim_rr_arb.sv" "$common/prim_rr_arb_tree.sv" "$common/prim_sat_counter.sv"
      "$here/mem_xbar.sv" "$here/test/xbar_client_stable_tb.sv")

failed=0
for n in 2 3; do
  obj="$out/n$n"
  rm -rf "$obj"
  if ! "$verilator" --binary --timing --assert -Wno-fatal -Wno-lint -Wno-style -O3 \
       -I"$common" -I"$gen" --top-module xbar_client_stable_tb -GN_CLIENTS=$n --Mdir "$obj" -j 2 \
       -CFLAGS -O1 "${srcs[@]}" > "$out/build_n$n.txt" 2>&1; then
    echo "FAIL N_CLIENTS=$n: the model does not compile (see $out/build_n$n.txt):"
    grep -m 3 "error" "$out/build_n$n.txt" | sed 's/^/    /'
    failed=$((failed + 1)); continue
  fi
  if "$obj/Vxbar_client_stable_tb" > "$out/run_n$n.txt" 2>&1 && grep -q "^PASS" "$out/run_n$n.txt"; then
    echo "ok   N_CLIENTS=$n: well-behaved clients, no assertion"
  else
    echo "FAIL N_CLIENTS=$n: an assertion fired on a well-behaved client:"
    sed 's/^/    /' "$out/run_n$n.txt" | head -5
    failed=$((failed + 1))
  fi
  # The failing run aborts ($error stops the simulation); the subshell keeps bash's
  # "Aborted" report out of the output.
  ( "$obj/Vxbar_client_stable_tb" +change > "$out/change_n$n.txt" 2>&1; true ) 2>/dev/null
  if grep -q "\[ASSUME\] ClReqStable_M" "$out/change_n$n.txt" && ! grep -q "^PASS" "$out/change_n$n.txt"; then
    echo "ok   N_CLIENTS=$n: a changed stalled request trips ClReqStable_M"
  else
    echo "FAIL N_CLIENTS=$n: a changed stalled request did not trip ClReqStable_M:"
    sed 's/^/    /' "$out/change_n$n.txt" | head -5
    failed=$((failed + 1))
  fi
done
echo "xbar wide-assert test: $failed failure(s)"
[[ $failed -eq 0 ]]
