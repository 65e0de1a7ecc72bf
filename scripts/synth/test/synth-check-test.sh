#!/usr/bin/env bash
# Self-test of scripts/synth/synth.sh: the checks `make synth` relies on must fail on the
# defects they exist for, in both the full flow and --check-only (the flow `make synth` uses
# for the SYNTH_CHECK configurations). Tiny modules, a few seconds of Yosys.
#   synth-check-test.sh <yosys>
set -euo pipefail
yosys=${1:-yosys}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
synth=$here/../synth.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/baseline"

cat > "$work/clean.sv" <<'SV'
module clean (input logic clk_i, input logic rst_ni, input logic [3:0] d_i, output logic [3:0] q_o);
  logic [3:0] q_q;
  always_ff @(posedge clk_i or negedge rst_ni) if (!rst_ni) q_q <= '0; else q_q <= d_i + 4'd1;
  assign q_o = q_q;
endmodule
SV
cat > "$work/latch.sv" <<'SV'
module latch (input logic en_i, input logic [3:0] d_i, output logic [3:0] q_o);
  always_comb if (en_i) q_o = d_i;   // no else: a latch
endmodule
SV
cat > "$work/latch_at.sv" <<'SV'
module latch_at (input logic en_i, input logic [3:0] d_i, output logic [3:0] q_o);
  always @* if (en_i) q_o = d_i;   // not always_comb: Yosys infers a $dlatch without an error
endmodule
SV
cat > "$work/multi.sv" <<'SV'
module multi (input logic a_i, input logic b_i, output logic y_o);
  assign y_o = a_i;
  assign y_o = b_i;   // a second driver
endmodule
SV

failures=0
expect() {  # expect <pass|fail> <message regex> <synth.sh args...>
  local want=$1 regex=$2
  shift 2
  local out rc=0
  out=$("$synth" --yosys "$yosys" --out "$work/out" --baseline "$work/baseline" "$@" 2>&1) || rc=$?
  if [[ $want == pass && $rc -ne 0 ]] || [[ $want == fail && $rc -eq 0 ]] \
     || ! grep -qE -- "$regex" <<< "$out"; then
    echo "FAIL: synth.sh $* : expected $want matching /$regex/, got rc=$rc:"
    sed 's/^/  | /' <<< "$out"
    failures=$((failures + 1))
  else
    echo "ok: synth.sh $* -> $want (/$regex/)"
  fi
}

for mode in "" "--check-only"; do
  # shellcheck disable=SC2086  # an empty mode is no argument
  expect fail "[Ll]atch inferred" $mode --name latch --top latch --sources "$work/latch.sv"
  # shellcheck disable=SC2086
  expect fail "[Ll]atch inferred" $mode --name latch_at --top latch_at --sources "$work/latch_at.sv"
  # shellcheck disable=SC2086
  expect fail "multiple drivers|conflicting drivers|check failed" $mode --name multi --top multi --sources "$work/multi.sv"
done
expect pass "structure checked" --check-only --name clean --top clean --sources "$work/clean.sv"
[[ -f $work/out/clean.check ]] || { echo "FAIL: --check-only wrote no clean.check"; failures=$((failures + 1)); }
[[ ! -f $work/out/clean.rpt ]] || { echo "FAIL: --check-only wrote a figures report"; failures=$((failures + 1)); }
# The full flow with no baseline refuses (and says how to accept figures).
expect fail "no baseline" --name clean --top clean --sources "$work/clean.sv"

(( failures == 0 )) || { echo "$failures synth.sh self-test case(s) failed"; exit 1; }
echo "synth.sh self-test: all cases passed"
