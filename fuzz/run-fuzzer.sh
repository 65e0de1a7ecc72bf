#!/usr/bin/env bash
# Runs one libFuzzer target the way the CTest entries do (fuzz/main-build.cmake, docs/fuzzing.md).
#
#   run-fuzzer.sh fuzz   <target> [libFuzzer flags...]   fuzz from the corpora (e.g. -max_total_time=5)
#   run-fuzzer.sh replay <target> <folder>               run every input in <folder> once
#
# Environment (set by CTest): FUZZ_BIN (the clang build tree, build/fuzz), FUZZ_SRC (fuzz/),
# FUZZ_MAX_LEN, FUZZ_TIMEOUT, FUZZ_FLAGS (the target's extra libFuzzer flags). RANDOM_SEED,
# when set, is libFuzzer's -seed; otherwise FUZZ_DEFAULT_SEED is (make test's short runs set it,
# so that a clean checkout fuzzes the same inputs on every machine); with neither, libFuzzer
# picks one. libFuzzer prints the seed it used ("INFO: Seed:") either way.
#
# Corpora, in libFuzzer's order (new inputs are written to the first):
#   $FUZZ_BIN/work/<t>     what earlier runs found (not in git)
#   $FUZZ_BIN/seeds/<t>    the repository's real files (scenes, meshes, policies, traces) and the
#                          packet seeds written from tessera_spec.h
#   $FUZZ_SRC/corpus/<t>   hand-written seeds (in git)
#   $FUZZ_SRC/regressions/<t>  inputs of fixed findings (in git)
set -uo pipefail
mode=${1:?mode: fuzz or replay}
t=${2:?target}
shift 2
: "${FUZZ_BIN:?}" "${FUZZ_SRC:?}"
bin=$FUZZ_BIN/fuzz_$t
if [[ ! -x $bin ]]; then
  echo "run-fuzzer: $bin is not built (cmake --build build --target fuzz)" >&2
  exit 1
fi
# A target run with -detect_leaks=0 (fuzz_mesh: Assimp's own leaks) skips ASan's exit check too.
leaks=1
[[ " ${FUZZ_FLAGS:-} " == *" -detect_leaks=0 "* ]] && leaks=0
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=0:detect_leaks=$leaks}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# RSS grows slowly over a million runs (ASan quarantine, allocator caches): 4 GiB before
# libFuzzer calls it out of memory, but any single allocation over 2 GiB is a finding.
common=(-max_len="${FUZZ_MAX_LEN:-4096}" -timeout="${FUZZ_TIMEOUT:-10}" -rss_limit_mb=4096 -malloc_limit_mb=2048)
read -r -a flags <<< "${FUZZ_FLAGS:-}"
common+=("${flags[@]}")

case $mode in
  replay)
    dir=${1:?folder}
    inputs=()
    if [[ -d $dir ]]; then
      while IFS= read -r -d '' f; do inputs+=("$f"); done \
        < <(find "$dir" -maxdepth 1 -type f ! -name 'README*' ! -name '.*' -print0 | sort -z)
    fi
    if [[ ${#inputs[@]} -eq 0 ]]; then
      echo "run-fuzzer: no inputs in $dir"
      exit 0
    fi
    echo "run-fuzzer: replaying ${#inputs[@]} input(s) of $dir through fuzz_$t"
    "$bin" "${common[@]}" "${inputs[@]}"
    rc=$?
    [[ $rc -ne 0 ]] && echo "run-fuzzer: fuzz_$t fails on an input above (the last 'Running:' line)" >&2
    exit $rc
    ;;
  fuzz)
    work=$FUZZ_BIN/work/$t
    artifacts=$FUZZ_BIN/artifacts/$t
    mkdir -p "$work" "$artifacts"
    corpora=("$work")
    for d in "$FUZZ_BIN/seeds/$t" "$FUZZ_SRC/corpus/$t" "$FUZZ_SRC/regressions/$t"; do
      [[ -d $d ]] && corpora+=("$d")
    done
    extra=()
    for d in "$FUZZ_SRC/dict/$t.dict" "$FUZZ_BIN/$t.dict"; do
      [[ -f $d ]] && extra+=(-dict="$d")
    done
    seed=${RANDOM_SEED:-${FUZZ_DEFAULT_SEED:-}}
    [[ -n $seed ]] && extra+=(-seed="$seed")
    "$bin" "${common[@]}" "${extra[@]}" -print_final_stats=1 -print_funcs=0 -artifact_prefix="$artifacts/" \
      "$@" "${corpora[@]}"
    rc=$?
    if [[ $rc -ne 0 ]]; then
      echo "run-fuzzer: fuzz_$t found a failing input (the artifact named above, in $artifacts)." >&2
      echo "run-fuzzer: reproduce with: $bin <artifact>; keep it as described in docs/fuzzing.md" >&2
    fi
    exit $rc
    ;;
  *)
    echo "run-fuzzer: unknown mode '$mode' (fuzz or replay)" >&2
    exit 2
    ;;
esac
