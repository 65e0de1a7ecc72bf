#!/usr/bin/env bash
# Checks junit-summary on fixtures in both writers' formats (cocotb-style harness files and
# GoogleTest's): per-case counting, a GoogleTest case with two <failure> elements counted
# once, skipped cases, a CTest-only test, escaped messages, the exit status, and two runs
# (regress seeds) summed.
set -uo pipefail
tool=$1
fixtures=$(cd "$(dirname "$0")/junit" && pwd)
fail() { echo "FAIL: $*"; exit 1; }

out=$("$tool" "$fixtures/ctest.xml" "$fixtures"); rc=$?
echo "$out"
[[ $rc == 1 ]] || fail "exit status $rc with failures, expected 1"
[[ "$(tail -n1 <<<"$out")" == "3 passed, 2 failed, 1 skipped" ]] || fail "closing line"
grep -q 'FAILED: bench_a :: m.t2: x < y' <<<"$out" || fail "unescaped failure message"

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/seed-1" "$tmp/seed-2"
cp "$fixtures"/*.xml "$tmp/seed-1/"; cp "$fixtures"/*.xml "$tmp/seed-2/"
out=$("$tool" "$tmp/seed-1/ctest.xml" "$tmp/seed-1" "$tmp/seed-2/ctest.xml" "$tmp/seed-2")
[[ "$(tail -n1 <<<"$out")" == "6 passed, 4 failed, 2 skipped" ]] || fail "two runs not summed: $(tail -n1 <<<"$out")"
grep -q 'seed-2: gt_b :: S.bad' <<<"$out" || fail "run name missing from failures"

"$tool" "$tmp/nothing.xml" "$tmp" >/dev/null 2>&1 && fail "missing CTest file accepted"
echo "PASS: junit-summary counts, escapes and sums correctly"
