#!/usr/bin/env bash
# Prove with Yosys (SAT) that prim_add's parallel prefix computes {co, sum} = a + b + ci for
# every input, at widths 1..20, 24, 32, 45, 48, 63..65, 74 and 80 (the RTL uses 45, 48 and
# 74, the TSE's; the small widths cover every partly filled top level).
# The large simulation models add with `+` instead of the
# prefix (TESSERA_FAST_ARITH, rtl/common/prim_add.sv), so this proof is what makes their
# adds the synthesized ones. About 0.2 s per width.
#   scripts/synth/prove-prim-add.sh [OUT_DIR]     (default /tmp/tessera-prim-add)
# Exit status 0 only if every width is proven.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
common=$(cd "$here/../../rtl/common" && pwd)
out=${1:-/tmp/tessera-prim-add}
yosys=${YOSYS:-yosys}
mkdir -p "$out"
failed=0
for w in $(seq 1 20) 24 32 45 48 63 64 65 74 80; do
  if ! "$yosys" -q -l "$out/w$w.log" -p "
      read_verilog -sv -DSYNTHESIS -I$common $common/prim_add.sv
      read_verilog -sv -formal $here/formal/prim_add_equiv.sv
      hierarchy -check -top prim_add_equiv -chparam WIDTH $w
      proc; flatten; opt_clean
      sat -prove-asserts -verify" > "$out/w$w.out" 2>&1; then
    echo "FAILED  prim_add WIDTH=$w (log: $out/w$w.log)"
    failed=$((failed + 1))
  fi
done
[[ $failed -eq 0 ]] && echo "prove-prim-add: {co, sum} == a + b + ci proven for every width listed" \
                    || echo "prove-prim-add: $failed width(s) NOT proven"
[[ $failed -eq 0 ]]
