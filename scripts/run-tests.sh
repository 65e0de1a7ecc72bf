#!/usr/bin/env bash
# The regression: every CTest test (harness benches, unit tests, checks), then the summary.
# TESSERA_REGRESS=1 (make regress) runs the long variants and repeats with extra seeds.
set -uo pipefail
build=${1:-build}; shift || true
results="$build/results"
rm -rf "$results"; mkdir -p "$results"

seeds=("${RANDOM_SEED:-}")
label_args=(-LE regress)          # tests labelled `regress` run only in make regress
if [[ "${TESSERA_REGRESS:-0}" == "1" ]]; then
  seeds=("${RANDOM_SEED:-1}" 2 3)
  label_args=()
fi
jobs=${CTEST_JOBS:-$(nproc)}

status=0
summary_args=()
first=1
for seed in "${seeds[@]}"; do
  if [[ -n "$seed" ]]; then export RANDOM_SEED=$seed; echo "== regression with RANDOM_SEED=$seed"; fi
  # The fuzzers (label fuzz) explore from their corpora, not from RANDOM_SEED: their long runs
  # (1M executions each, hours for the mesh importer) run with the first seed only.
  extra=()
  if [[ $first == 0 ]]; then extra=(-LE fuzz); fi
  first=0
  # --output-junit is relative to the test directory.
  ctest --test-dir "$build" --output-on-failure --parallel "$jobs" "${label_args[@]}" "${extra[@]}" \
        --output-junit results/ctest.xml "$@" || status=1
  if [[ ${#seeds[@]} -gt 1 ]]; then
    # Keep each seed's files apart; the summary below adds them up.
    run="$results/seed-$seed"; mkdir -p "$run"
    find "$results" -maxdepth 1 -name '*.xml' -exec mv {} "$run"/ \;
    summary_args+=("$run/ctest.xml" "$run")
  else
    summary_args+=("$results/ctest.xml" "$results")
  fi
done
"$build/scripts/junit-summary" "${summary_args[@]}" || status=1
exit $status
