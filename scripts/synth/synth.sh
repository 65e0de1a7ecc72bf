#!/usr/bin/env bash
# Synthesize one Tessera RTL model configuration with Yosys and check it against the
# committed baseline. Called by tessera_rtl_model(... SYNTH) (cmake/TesseraRtl.cmake) for
# `make synth`; also usable by hand. See docs/lint-and-synthesis.md.
#
#   synth.sh --name NAME --top MODULE --sources a.sv,b.sv [--params P=V,Q=W]
#            [--incdirs d1,d2] --out DIR --baseline DIR [--yosys BIN] [--sdc FILE]
#            [--check-only]
#
# Flow (generic, technology independent):
#   read_verilog -sv -DSYNTHESIS, hierarchy -check (with -chparam), proc,
#   fail on latches, flatten, fail on multiple/missing drivers (check -assert),
#   synth -lut 6 up to `fine` (memories stay $mem_v2 cells: memory -nomap),
#   techmap, abc -lut 6, check -assert, stat, ltp -noff over the LUTs.
# With --check-only the flow stops after the first check -assert: the structural checks (no
# latches, no multiple or missing drivers, no combinational loops, no Yosys warnings) without
# the figures, for configurations whose full run takes minutes (SYNTH_FULL): `make synth`
# checks them this way, `make synth-full` synthesizes them. Writes DIR/NAME.check.
# Writes DIR/NAME.rpt (key: value lines) and DIR/NAME.log (the full Yosys log), and
# regenerates DIR/summary.txt. The report is moved into place only when every check
# passed, so a failed block is rebuilt by the next `make synth`.
#
# Environment:
#   SYNTH_MARGIN_PCT  growth allowed over the baseline per metric, percent (default 10)
#   SYNTH_SLACK_ABS   extra absolute growth allowed for luts/ffs/cells_total (default 2)
#   SYNTH_ACCEPT=1    do not compare with the baseline (used by update-baseline.sh)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
name="" top="" sources="" params="" incdirs="" out="" baseline="" yosys="yosys"
check_only=0
sdc="$here/../../constraints/tessera.sdc"

die() { echo "synth.sh: $*" >&2; exit 2; }

while [[ $# -gt 0 ]]; do
  case "$1" in
    --name)     name=$2; shift 2 ;;
    --top)      top=$2; shift 2 ;;
    --sources)  sources=$2; shift 2 ;;
    --params)   params=$2; shift 2 ;;
    --incdirs)  incdirs=$2; shift 2 ;;
    --out)      out=$2; shift 2 ;;
    --baseline) baseline=$2; shift 2 ;;
    --yosys)    yosys=$2; shift 2 ;;
    --sdc)      sdc=$2; shift 2 ;;
    --check-only) check_only=1; shift ;;
    -h|--help)  sed -n '2,26p' "$0"; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
[[ -n $name && -n $top && -n $sources && -n $out && -n $baseline ]] \
  || die "--name, --top, --sources, --out and --baseline are required"
command -v "$yosys" >/dev/null 2>&1 || die "yosys not found: $yosys"
[[ -f $sdc ]] || die "constraints file not found: $sdc"

margin_pct=${SYNTH_MARGIN_PCT:-10}
slack_abs=${SYNTH_SLACK_ABS:-2}
[[ $margin_pct =~ ^[0-9]+([.][0-9]+)?$ ]] || die "SYNTH_MARGIN_PCT must be a number"
[[ $slack_abs =~ ^[0-9]+$ ]] || die "SYNTH_SLACK_ABS must be a whole number"

IFS=, read -r -a src_list <<< "$sources"
IFS=, read -r -a inc_list <<< "$incdirs"
IFS=, read -r -a par_list <<< "$params"

mkdir -p "$out"
if (( check_only )); then
  rpt="$out/$name.check"
  log="$out/$name.check.log"
  rm -f "$rpt"
else
  rpt="$out/$name.rpt"
  log="$out/$name.log"
  rm -f "$rpt" "$out/$name.rpt.rejected"   # never leave a stale report behind
fi
work=$(mktemp -d "$out/.synth-$name.XXXXXX")
trap 'rm -rf "$work"' EXIT

# --- summary table across blocks ---------------------------------------------------------
write_summary() {
  local tmp="$out/.summary.$$"
  {
    echo "# Tessera synthesis summary: Yosys, generic LUT6 flow; see each <block>.rpt header"
    printf '%-28s %8s %8s %12s %9s %12s %12s\n' block luts ffs memory_bits memories logic_depth cells_total
    for f in "$out"/*.rpt "$out"/*.rpt.rejected; do
      [[ -f $f ]] || continue
      local n=${f##*/}
      n=${n%.rpt}
      n=${n/.rpt.rejected/ (REJECTED)}
      awk -v n="$n" '
        !/^#/ && NF == 2 { k = $1; sub(/:$/, "", k); v[k] = $2 }
        END { printf "%-28s %8s %8s %12s %9s %12s %12s\n", n, v["luts"], v["ffs"],
              v["memory_bits"], v["memories"], v["logic_depth"], v["cells_total"] }' "$f"
    done
  } > "$tmp"
  mv "$tmp" "$out/summary.txt"
}
update_summary() {
  if command -v flock >/dev/null 2>&1; then
    ( flock 9; write_summary ) 9> "$out/.summary.lock"
  else
    write_summary
  fi
}

fail() {
  echo "synth: FAIL $name: $1" >&2
  shift
  local line
  for line in "$@"; do echo "synth:   $line" >&2; done
  echo "synth:   full log: $log" >&2
  update_summary
  exit 1
}

# --- source guard ----------------------------------------------------------------------
# Yosys 0.23 parses `some_t [N-1:0] x;` (a packed array of a typedef'd type or struct) but
# silently keeps only ONE element: the design synthesizes, and is wrong. Refuse it here.
for s in "${src_list[@]}"; do
  [[ -f $s ]] || die "source not found: $s"
done
bad=$(for s in "${src_list[@]}"; do
        sed -e 's://.*$::' "$s" \
          | grep -nE '\b[A-Za-z_][A-Za-z0-9_]*_t[[:space:]]*\[[^]]*\][[:space:]]*[A-Za-z_[]' \
          | sed "s|^|$s:|" || true
      done)
if [[ -n $bad ]]; then
  echo "$bad" > "$log"
  mapfile -t bad_lines <<< "$bad"
  fail "packed array of a typedef'd type: Yosys 0.23 keeps only one element (silently)." \
       "${bad_lines[@]}" \
       "use a flat vector, e.g. logic [N*W-1:0] x, and slice x[i*W +: W]"
fi

# --- constraints -----------------------------------------------------------------------
sdc_val() {  # sdc_val <awk pattern for the line> <field after which the value comes>
  awk -v key="$2" "$1"' { for (i = 1; i < NF; i++) if ($i == key) { print $(i+1); exit } }' "$sdc"
}
period=$(sdc_val '/^[[:space:]]*create_clock/ && /clk_i/' -period)
lut_ns=$(sdc_val '/^[[:space:]]*set[[:space:]]+tessera_lut_level_ns/' tessera_lut_level_ns)
ovh_ns=$(sdc_val '/^[[:space:]]*set[[:space:]]+tessera_seq_overhead_ns/' tessera_seq_overhead_ns)
[[ -n $period && -n $lut_ns && -n $ovh_ns ]] \
  || die "$sdc must define create_clock ... -period for clk_i, tessera_lut_level_ns and tessera_seq_overhead_ns"
budget=$(awk -v p="$period" -v o="$ovh_ns" -v l="$lut_ns" 'BEGIN { printf "%d", (p - o) / l + 1e-9 }')

# --- yosys script ----------------------------------------------------------------------
ys="$work/$name.ys"
{
  read_cmd="read_verilog -sv -DSYNTHESIS"
  for d in "${inc_list[@]}"; do [[ -n $d ]] && read_cmd+=" -I$d"; done
  for s in "${src_list[@]}"; do read_cmd+=" $s"; done
  echo "$read_cmd"
  hier="hierarchy -check -top $top"
  for p in "${par_list[@]}"; do
    [[ -z $p ]] && continue
    [[ $p == *=* ]] || die "parameter '$p' is not NAME=VALUE"
    hier+=" -chparam ${p%%=*} ${p#*=}"
  done
  echo "$hier"
  echo "proc"
  # Latches: proc_dlatch turns incompletely assigned combinational logic into $dlatch.
  echo "tee -q -o $work/latches.txt select -list t:\$dlatch t:\$adlatch t:\$dlatchsr"
  echo "select -assert-none t:\$dlatch t:\$adlatch t:\$dlatchsr"
  echo "flatten"
  echo "opt_clean"
  # Multiple (conflicting) drivers, undriven used wires, combinational loops.
  echo "check -assert"
  # --check-only ends here: the structural checks without the figures.
  if (( ! check_only )); then
    echo "synth -top $top -flatten -lut 6 -run coarse:fine"
    # synth's `fine` step would run memory_map; keep memories as \$mem_v2 cells instead.
    echo "opt -fast -full"
    echo "techmap"
    echo "opt -fast"
    echo "abc -lut 6"
    echo "opt -fast"
    echo "opt_clean -purge"
    echo "hierarchy -check"
    echo "check -assert"
    echo "tee -o $work/stat.txt stat"
    echo "tee -q -o $work/mem.txt dump t:\$mem_v2 t:\$mem"
    # Longest combinational path over the LUTs only: flops and memories excluded.
    echo "tee -o $work/ltp.txt ltp -noff t:\$lut %x"
  fi
} > "$ys"
cp "$ys" "${rpt%.rpt}.ys"

if ! "$yosys" -q -l "$log" -s "$ys" > "$work/stdout.txt" 2>&1; then
  details=()
  if [[ -s $work/latches.txt ]] && grep -q 'latch' "$work/latches.txt"; then
    mapfile -t details < <(grep -h "Latch inferred for signal" "$log" | sed 's/^[[:space:]]*//')
    fail "latch inferred (incomplete assignment in always_comb?)" "${details[@]}"
  fi
  mapfile -t details < <(grep -hE "conflicting drivers|multiple drivers|has no driver|found logic loop|logic loop" "$log" \
                           | sed 's/^[[:space:]]*//' | head -20)
  if [[ ${#details[@]} -gt 0 ]]; then
    fail "yosys check failed (multiple drivers / undriven wires / loops)" "${details[@]}"
  fi
  mapfile -t details < <(grep -h "ERROR" "$log" "$work/stdout.txt" | sort -u | head -5)
  fail "yosys failed" "${details[@]}"
fi

# Yosys warnings are failures too (same zero-warning policy as lint), unless waived in
# yosys-waivers.txt: "<block name glob> <extended regex on the warning>  # reason".
waivers="$here/yosys-waivers.txt"
mapfile -t warnings < <(grep -h '^Warning: ' "$log" | sort -u || true)
unwaived=()
for w in "${warnings[@]}"; do
  [[ -z $w ]] && continue
  waived=0
  if [[ -f $waivers ]]; then
    while read -r glob regex; do
      [[ -z $glob || $glob == \#* ]] && continue
      regex=${regex%%  #*}
      # shellcheck disable=SC2053  # glob match on purpose
      if [[ $name == $glob ]] && grep -qE -- "$regex" <<< "$w"; then waived=1; break; fi
    done < "$waivers"
  fi
  (( waived )) || unwaived+=("$w")
done
if [[ ${#unwaived[@]} -gt 0 ]]; then
  fail "yosys warnings (fix them, or waive narrowly in scripts/synth/yosys-waivers.txt)" \
       "${unwaived[@]}"
fi

if (( check_only )); then
  {
    echo "# Tessera synthesis check: $name (top $top, parameters ${params:-"(defaults)"})"
    echo "# $("$yosys" -V | head -1): read, hierarchy, proc, flatten, check -assert"
    echo "# no latches, no multiple or missing drivers, no combinational loops, no unwaived warnings"
    echo "# the LUT, flop and depth figures come from make synth-full (synth.sh without --check-only)"
  } > "$work/$name.check"
  mv "$work/$name.check" "$rpt"
  echo "synth: ok $name: structure checked (no latches, drivers, loops, warnings); figures in make synth-full"
  exit 0
fi

# --- metrics -------------------------------------------------------------------------------
count_cells() {  # count_cells <awk regex on the cell type>; reads the top module's stat
  awk -v re="$1" '
    /Number of cells:/ { inmod = 1; next }
    inmod && NF == 2 && $1 ~ /^\$/ { if ($1 ~ re) n += $2; next }
    inmod && NF == 0 { inmod = 0 }
    END { print n + 0 }' "$work/stat.txt"
}
# shellcheck disable=SC2016  # awk regexes in single quotes on purpose
{
  luts=$(count_cells '^\$lut$')
  ffs=$(count_cells '^\$_(DFF|DFFE|SDFF|SDFFE|SDFFCE|DFFSR|DFFSRE|ALDFF|ALDFFE|SR|DLATCH|DLATCHSR)_')
  memories=$(count_cells '^\$mem(_v2)?$')
}
cells_total=$(awk '/Number of cells:/ { n = $4 } END { print n + 0 }' "$work/stat.txt")
memory_bits=$(awk '
  /^[[:space:]]*cell \$mem/ { if (w) bits += w * s; w = 0; s = 0 }
  /parameter \\WIDTH / { w = $3 }
  /parameter \\SIZE / { s = $3 }
  END { if (w) bits += w * s; print bits + 0 }' "$work/mem.txt")
logic_depth=$(sed -n 's/.*Longest topological path.*(length=\(-\{0,1\}[0-9]*\)).*/\1/p' "$work/ltp.txt" | head -1)
[[ -n $logic_depth ]] || logic_depth=0
(( logic_depth < 0 )) && logic_depth=0
yosys_ver=$("$yosys" -V | head -1)

depth_ok="within"
(( logic_depth > budget )) && depth_ok="OVER"
params_show=${params:-"(defaults)"}

tmp_rpt="$work/$name.rpt"
{
  echo "# Tessera synthesis report: $name"
  echo "# top $top, parameters $params_show"
  echo "# tool $yosys_ver; generic flow: abc -lut 6, memories kept as cells (memory -nomap)"
  echo "# constraints $(basename "$sdc"): clk_i period $period ns; $lut_ns ns per LUT6 level, $ovh_ns ns sequencing overhead => budget $budget levels"
  echo "# logic depth $logic_depth of $budget LUT6 levels per cycle: $depth_ok budget"
  echo "luts: $luts"
  echo "ffs: $ffs"
  echo "memory_bits: $memory_bits"
  echo "memories: $memories"
  echo "logic_depth: $logic_depth"
  echo "cells_total: $cells_total"
} > "$tmp_rpt"

if [[ $depth_ok == OVER ]]; then
  echo "synth: warning $name: logic depth $logic_depth LUT6 levels exceeds the $budget-level budget for $period ns" >&2
fi

# --- baseline comparison -------------------------------------------------------------------
base_rpt="$baseline/$name.rpt"
accept_hint="to accept the new figures: make synth-baseline (or scripts/synth/update-baseline.sh <build dir>), then review and commit $base_rpt"
if [[ ${SYNTH_ACCEPT:-0} == 1 ]]; then
  echo "synth: $name: SYNTH_ACCEPT=1, baseline comparison skipped"
elif [[ ! -f $base_rpt ]]; then
  cp "$tmp_rpt" "$out/$name.rpt.rejected"
  fail "no baseline $base_rpt" "$accept_hint"
else
  base_ver=$(sed -n 's/^# tool \(Yosys [^;]*\);.*/\1/p' "$base_rpt")
  if [[ -n $base_ver && $base_ver != "$yosys_ver" ]]; then
    echo "synth: warning $name: baseline was made with $base_ver, this is $yosys_ver" >&2
  fi
  verdict=$(awk -v pct="$margin_pct" -v slack="$slack_abs" -v name="$name" '
    FNR == NR { if ($0 !~ /^#/ && NF == 2) { k = $1; sub(/:$/, "", k); base[k] = $2 } next }
    $0 !~ /^#/ && NF == 2 {
      k = $1; sub(/:$/, "", k); now = $2; seen[k] = 1
      if (!(k in base)) { print "FAIL " k " is not in the baseline"; next }
      s = (k == "luts" || k == "ffs" || k == "cells_total") ? slack : 0
      limit = base[k] * (1 + pct / 100) + s
      if (now > limit + 1e-9)
        printf "FAIL %s grew: baseline %s, now %s (limit %.1f = +%s%% + %d)\n", k, base[k], now, limit, pct, s
      else if (now < base[k] * (1 - pct / 100) - s - 1e-9)
        printf "NOTE %s shrank: baseline %s, now %s\n", k, base[k], now
    }
    END { for (k in base) if (!(k in seen)) print "FAIL " k " is in the baseline but not reported" }
  ' "$base_rpt" "$tmp_rpt")
  if grep -q '^NOTE' <<< "$verdict"; then
    grep '^NOTE' <<< "$verdict" | sed "s/^NOTE /synth: note $name: /"
    echo "synth: note $name: smaller than the baseline; $accept_hint"
  fi
  if grep -q '^FAIL' <<< "$verdict"; then
    cp "$tmp_rpt" "$out/$name.rpt.rejected"
    mapfile -t details < <(grep '^FAIL' <<< "$verdict" | sed 's/^FAIL //')
    fail "exceeds baseline (margin ${margin_pct}%, SYNTH_MARGIN_PCT)" "${details[@]}" \
         "this run: $out/$name.rpt.rejected" "$accept_hint"
  fi
fi

mv "$tmp_rpt" "$rpt"

update_summary

echo "synth: ok $name: luts $luts, ffs $ffs, memory_bits $memory_bits, logic_depth $logic_depth/$budget"
