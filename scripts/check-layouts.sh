#!/usr/bin/env bash
# Repository check: no hand-written bit offsets of the layouts spec/ describes (CONVENTIONS.md,
# "One description"; issue 15 item 2). The memory-protocol request/response, the statistics
# block, the vertex and screen vertex, the raster input item, the CP pipeline command, the
# geometry triangle record and store read request, and the packet payloads are generated from
# spec/layouts.yaml and spec/packets.yaml (docs/spec-generator.md, "Layouts"); RTL, benches,
# sim/ and the driver use the generated names. Each rule below is one way such a
# layout used to be (or could again be) typed by hand; a hit names the file, the line and what
# to use instead.
#
#   scripts/check-layouts.sh [ROOT]      check the tree (default: this script's repository)
#   scripts/check-layouts.sh --self-test every rule must fire on its own example line
#
# Run by the CTest test layouts_not_hand_written (spec/CMakeLists.txt), so `make test` fails
# when one comes back. The rules name the known layouts' old spellings; they cannot prove that
# no new hand layout exists, which review still has to catch.
set -euo pipefail

# rule: "<extended regex>~<globs, space separated>~<what to use instead>~<example that must hit>"
rules=(
  'data\[[0-9]+ ?\* ?32 ?\+ ?[0-9]+ ?\+:~*.sv~a RENDERPASS_BEGIN (or other packet) argument by hand: use tessera_spec_pkg::ts_pkt_<packet>_t~cload_q <= in_i.data[4*32 + 0 +: 2];'
  '(\[|\+ ?)(108|88) ?(\+:|,) ?20~*.sv *.hpp *.cpp~a screen-vertex x/y offset: use TS_SVTX_X_LSB / tessera::layout::Svtx~v.x = sx20(b.get(base + 108, 20));'
  '\[256 ?\+ ?(64|32|16|0) ?\+:~*.sv~a screen-vertex attribute offset: use TS_SVTX_<F>_LSB~a0 = v[256 + 64 +: 24];'
  'STAT_N~*.sv *.hpp *.cpp~the statistics block by word number: use tessera_spec_pkg::TS_SLICE_STATS_<F>_LSB / tessera::layout::SliceStats~.cnt_tris_o(stat_o[(s*STAT_N + 0)*32 +: 32]),'
  '\* ?20 ?\* ?32~*.sv~the statistics block size by hand: use tessera_spec_pkg::TS_SLICE_STATS_W~localparam int unsigned StatW = NUM_SLICES * 20 * 32,'
  'kTris ?= ?0~*.hpp *.cpp~statistics word numbers by hand: read them off tessera::layout::SliceStats::Pos~enum Word : unsigned { kTris = 0, kBins,'
  '\} ?(mem_req_t|mem_rsp_t|svtx_t|rin_t|pipe_cmd_t|tri_t|rd_req_t);~*.sv~a generated layout typed as a struct by hand: `include the <package>_layouts.svh fragment~} mem_req_t;'
  'namespace (req_off|rsp_off)~*.hpp *.cpp~memory-protocol offsets by hand: use tessera::layout::MemReq / MemRsp~namespace req_off {'
  'k(Req|Rsp)W ?= ?2 ?\+~*.hpp *.cpp~memory-protocol widths by hand: use tessera::layout::MemReq::kBits~inline constexpr unsigned kReqW = 2 + kAddrW;'
  '(get|set)\((384|416|432),~*.hpp *.cpp~raster input item offsets by hand: use tessera::layout::Rin::Pos~r.kind = static_cast<unsigned>(b.get(432, 3));'
  'dw\[[2-7]\] ?(>> ?[0-9]+\)? ?)?& ?0x~*.cpp *.hpp~a RENDERPASS_BEGIN payload field by hand: use tessera::layout::RenderpassBeginPayload~rp.width = dw[2] & 0xFFF;'
  '(get|set)\((256|260|266|269), ?[3468]\b~*.hpp *.cpp~a CP pipeline command field by hand: use tessera::layout::PipeCmd (tessera_cp_pkg::pipe_cmd_t)~b.set(269, 8, c.opcode);'
  '8 ?\+ ?3 ?\+ ?6 ?\+ ?4\b~*.sv *.hpp *.cpp~the CP pipeline command width by hand: use tessera_cp_pkg::PIPE_CMD_W / tessera::layout::PipeCmd::kBits~inline constexpr unsigned kCmdW = 8 + 3 + 6 + 4 + 256;'
  '(get|set)\((64, ?3|56, ?8|48, ?8|32, ?16)\b~*.hpp *.cpp~a geometry triangle record (tri_t) field by hand: use tessera::layout::Tri~const unsigned src = static_cast<unsigned>(b.get(64, 3));'
  '3 ?\+ ?8 ?\+ ?8 ?\+ ?16 ?\+ ?32|RdReqW ?= ?3 ?\+ ?8~*.hpp *.cpp~the tri_t / rd_req_t width by hand: use tessera::layout::Tri::kBits / RdReq::kBits~inline constexpr unsigned kTriW = 3 + 8 + 8 + 16 + 32;'
  '<< ?8\) ?\| ?entry|rd_req_o\) ?& ?0x~*.hpp *.cpp~a parameter-store read request {src, entry} by hand: use tessera::layout::RdReq~unsigned rd_addr() const { return (src << 8) | entry; }'
  '(get|set)\((0, ?8|8, ?3),~*.hpp *.cpp~a parameter-store read request field by hand: use tessera::layout::RdReq~b.set(8, 3, x.unread.front().src);'
  'TS_GEOM_VTX_DW[0-3]_[A-Z]+_GET~*.hpp *.cpp~the memory vertex read through register field macros: use tessera::layout::Vertex~v.z = TS_GEOM_VTX_DW1_Z_GET(d1);'
  '\* ?32 ?\+ ?(tessera_spec_pkg::)?TS_GEOM_VTX_DW~*.sv~the memory vertex decoded with register field positions: use tessera_spec_pkg::TS_VERTEX_<F>_LSB~vs_in.z = vx_chunk[1*32 + tessera_spec_pkg::TS_GEOM_VTX_DW1_Z_LSB +: 24];'
)
# Where each rule looks: the code that must use the generated layouts. build/ (the generated
# files themselves) and the generator's own tests are not scanned.
dirs=(rtl tb sim driver)

check_tree() {
  local root=$1 hits=0
  for rule in "${rules[@]}"; do
    IFS='~' read -r re globs hint _example <<<"$rule"
    local includes=()
    for g in $globs; do includes+=(--include="$g"); done
    local out
    out=$(cd "$root" && grep -rnE "${includes[@]}" -- "$re" "${dirs[@]}" 2>/dev/null || true)
    if [[ -n $out ]]; then
      while IFS= read -r line; do
        echo "$line"
        echo "    -> $hint"
        hits=$((hits + 1))
      done <<<"$out"
    fi
  done
  if ((hits > 0)); then
    echo "check-layouts: $hits hand-written layout offset(s); see docs/spec-generator.md \"Layouts\"" >&2
    return 1
  fi
  echo "check-layouts: no hand-written offsets of the described layouts in ${dirs[*]}"
}

self_test() {
  local failed=0
  for rule in "${rules[@]}"; do
    IFS='~' read -r re _globs _hint example <<<"$rule"
    if ! grep -qE -- "$re" <<<"$example"; then
      echo "check-layouts self-test: rule /$re/ does not fire on its example: $example" >&2
      failed=1
    fi
  done
  # And the tree check finds a planted offender.
  local tmp
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' RETURN
  mkdir -p "$tmp/rtl"
  echo '  assign x = in_i.data[4*32 + 8 +: 2];' >"$tmp/rtl/planted.sv"
  if check_tree "$tmp" >/dev/null 2>&1; then
    echo "check-layouts self-test: a planted offender in rtl/ was not reported" >&2
    failed=1
  fi
  ((failed == 0)) && echo "check-layouts self-test: every rule fires"
  return $failed
}

if [[ ${1:-} == --self-test ]]; then
  self_test
else
  check_tree "${1:-$(cd "$(dirname "$0")/.." && pwd)}"
fi
