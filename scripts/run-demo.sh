#!/usr/bin/env bash
# `make run`: the main job, tessera-sim, on its built-in demo scene on the RTL GPU, checked
# against the reference backend. Nothing else: the demonstrations of the parts underneath it
# (CP, driver, cp-run, memory system, SLC figures, synthesis) are `make showcase`
# (scripts/run-showcase.sh).
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
out="$build/demo"
rm -rf "$out"; mkdir -p "$out"
seed=${RANDOM_SEED:-1}
cat <<MSG
== Tessera demonstration ==
tessera-sim renders the demo scene (scenes/demo/demo.yaml) on the RTL GPU: the driver records
each frame as command buffers, the command processor's firmware executes them, PC_US splits the
draws over the geometry slices, VPC_US hands each triangle to the raster slices whose tiles it
touches, and the raster slices bin (PBB), rasterize and write the pixels through the SLC to
the DRAM model. The same frames then run on the reference backend (the driver's reference
device + the C++ reference renderer) and the pictures are compared byte for byte.

MSG
echo "== tessera-sim run --backend rtl --slices 4: the demo scene, 2 frames, first 20000 cycles in an FST =="
"$build/tessera-sim" run --backend rtl --slices 4 --frames 2 --seed "$seed" --out "$out/frames" \
  --trace "$out/tessera-sim-rtl.fst" --trace-start 0 --trace-end 20000
echo
echo "== tessera-sim run --backend ref: the same frames from the reference renderer =="
"$build/tessera-sim" run --backend ref --frames 2 --seed "$seed" --quiet --out "$out/ref"
for f in "$out"/frames/frame_*.png; do
  if cmp -s "$f" "$out/ref/$(basename "$f")"; then
    echo "  $(basename "$f"): RTL == reference, byte for byte"
  else
    echo "  $(basename "$f"): RTL and reference DIFFER"; exit 1
  fi
done
echo
echo "Pictures (RTL): $out/frames/frame_*.png   statistics: $out/frames/stats.json (reference: $out/ref/)"
echo "Waveforms (open with gtkwave):"
ls -1 "$out"/*.fst | sed 's/^/  /'
