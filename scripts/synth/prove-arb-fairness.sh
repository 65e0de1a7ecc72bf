#!/usr/bin/env bash
# Prove with Yosys (SAT-based temporal induction) that prim_rr_arb and prim_rr_arb_tree
# never starve a requester: one that keeps requesting is granted after at most N-1
# transfers to others, for EVERY input sequence, with and without LOCK_IN. The harness and
# the invariant are in scripts/synth/formal/arb_fairness.sv. A few seconds per configuration.
#   scripts/synth/prove-arb-fairness.sh [OUT_DIR]     (default /tmp/tessera-arb-fairness)
# Exit status 0 only if every configuration is proven.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
common=$(cd "$here/../../rtl/common" && pwd)
out=${1:-/tmp/tessera-arb-fairness}
yosys=${YOSYS:-yosys}
mkdir -p "$out"

# N TREE LOCK_IN
configs=("1 0 1" "2 0 1" "3 0 1" "5 0 1" "5 0 0" "8 0 1"
         "1 1 1" "2 1 1" "3 1 1" "5 1 1" "12 1 1" "12 1 0" "16 1 1")
failed=0
for c in "${configs[@]}"; do
  read -r n tree lock <<< "$c"
  inst=$([[ $tree == 1 ]] && echo g_tree || echo g_flat)
  name="arb_fairness_n${n}_tree${tree}_lock${lock}"
  if "$yosys" -q -l "$out/$name.log" -p "
      read_verilog -sv -DSYNTHESIS -I$common $common/prim_rr_arb.sv $common/prim_rr_arb_tree.sv
      read_verilog -sv -formal $here/formal/arb_fairness.sv
      hierarchy -check -top arb_fairness -chparam N $n -chparam TREE $tree -chparam LOCK_IN $lock
      proc; flatten
      connect -set dut_ptr $inst.dut.ptr_q
      opt_clean; async2sync; opt -fast
      sat -tempinduct -prove-asserts -set-init-zero -seq 1 -maxsteps 2 -verify" \
      > "$out/$name.out" 2>&1; then
    echo "proven  N=$n $( [[ $tree == 1 ]] && echo tree || echo flat ) LOCK_IN=$lock: wait <= $((n - 1)) transfers"
  else
    echo "FAILED  N=$n tree=$tree LOCK_IN=$lock (log: $out/$name.log)"
    failed=$((failed + 1))
  fi
done
[[ $failed -eq 0 ]] && echo "prove-arb-fairness: all ${#configs[@]} configurations proven" \
                    || echo "prove-arb-fairness: $failed configuration(s) NOT proven"
[[ $failed -eq 0 ]]
