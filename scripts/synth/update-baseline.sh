#!/usr/bin/env bash
# Accept the current synthesis figures as the new baseline:
#   scripts/synth/update-baseline.sh BUILD_DIR
# Re-runs the `synth` target of BUILD_DIR with SYNTH_ACCEPT=1 (no baseline comparison, so
# blocks that grew get their report written), then copies BUILD_DIR/synth/*.rpt into
# scripts/synth/baseline/. Review `git diff scripts/synth/baseline` before committing: the
# diff is the area/depth change being accepted. Baselines whose block no longer exists are
# listed, not deleted.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=${1:?usage: update-baseline.sh BUILD_DIR}
dest="$here/baseline"

if [[ -f $build/build.ninja || -f $build/Makefile ]]; then
  SYNTH_ACCEPT=1 cmake --build "$build" --target synth -j "${JOBS:-2}"
fi

src="$build/synth"
shopt -s nullglob
reports=("$src"/*.rpt)
if [[ ${#reports[@]} -eq 0 ]]; then
  echo "update-baseline: no reports in $src (run make synth first)" >&2
  exit 1
fi
mkdir -p "$dest"
changed=0
for r in "${reports[@]}"; do
  b="$dest/$(basename "$r")"
  if [[ ! -f $b ]] || ! cmp -s "$r" "$b"; then
    cp "$r" "$b"
    echo "update-baseline: $(basename "$r" .rpt) updated"
    changed=$((changed + 1))
  fi
done
for b in "$dest"/*.rpt; do
  [[ -f $src/$(basename "$b") ]] || echo "update-baseline: note: $(basename "$b") has no report in $src (block removed? delete it by hand)"
done
echo "update-baseline: $changed baseline file(s) changed in $dest"
