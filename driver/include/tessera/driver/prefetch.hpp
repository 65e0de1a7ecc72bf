// The tile prefetcher as the driver sees it (docs/prefetcher.md): its mode and tuning, which a
// command buffer records (CommandBuffer::set_prefetch: GEOM.PF_RECORD, PF_CFG and PF_ADAPT by SET_REGS,
// then SET_PREFETCH with the history buffer), and its counters (Kmd::read_prefetch_counters).
// Every field position, reset and enum value comes from the generated tessera_spec.h.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string_view>

#include "tessera_spec.h"

namespace tessera::driver {

enum class PrefetchMode : uint8_t {
  Off = TS_PF_MODE_OFF,
  On = TS_PF_MODE_ON,              // fixed threshold
  Adaptive = TS_PF_MODE_ADAPTIVE,  // the threshold follows the SLC hit rate, once per frame
};
const char* to_string(PrefetchMode m);
// "off", "on", "adaptive"; nullopt for anything else
std::optional<PrefetchMode> parse_prefetch_mode(std::string_view s);

// GEOM.PF_CFG, PF_RECORD and PF_ADAPT; the defaults are the registers' resets.
struct PrefetchConfig {
  PrefetchMode mode = PrefetchMode::Off;
  uint32_t threshold = TS_GEOM_PF_CFG_THRESHOLD_RESET;   // popcount difference of a similar tile, 0..255
  uint32_t max_lines = TS_GEOM_PF_CFG_MAX_LINES_RESET;   // PREFETCHes per tile, 1..256 (256 is written as 0)
  uint32_t entries = TS_GEOM_PF_CFG_ENTRIES_RESET;       // history entries per kind, 1..4
  uint32_t kinds = TS_GEOM_PF_CFG_KINDS_RESET;           // bit 0 texture, bit 1 target
  // history lines per tile: 1 (one for the frame, prefetched at the tile's first batch) or 4, 16,
  // 64 (one per batch of the slice, mod this; docs/prefetcher.md "History per batch")
  uint32_t history_slots = 1u << (2 * TS_GEOM_PF_CFG_SLOTS_RESET);
  uint32_t window_lines = TS_GEOM_PF_CFG_WINDOW_RESET;   // tracking window, 0..255 lines
  // prefetch one bin ahead: a similar batch also prefetches the batch its slice rendered next
  // last frame (docs/prefetcher.md "Lookahead"); false is the source's prefetch by tile ID alone
  bool lookahead = TS_GEOM_PF_CFG_LOOKAHEAD_RESET != 0;
  // GEOM.PF_RECORD: record a batch's texel reads as 32-line blocks with a bitmap each, not the
  // source's {first, last} ranges (docs/prefetcher.md "Block record")
  bool blocks = TS_GEOM_PF_RECORD_FORMAT_RESET == TS_PF_RECORD_BLOCKS;
  uint32_t hit_high = TS_GEOM_PF_ADAPT_HIT_HIGH_RESET;   // percent, 0..100
  uint32_t hit_low = TS_GEOM_PF_ADAPT_HIT_LOW_RESET;     // percent, 0..100, at most hit_high
  bool operator==(const PrefetchConfig&) const = default;
};

// Every field in its register's range (DriverError naming the first that is not).
void check_prefetch_config(const PrefetchConfig& c);

// The history buffer a frame of `tiles` tiles needs: 64 bytes per tile of the frame's render
// passes and history slot, at most `cap` bytes (tiles beyond the buffer are not tracked).
inline uint32_t prefetch_history_bytes(uint64_t tiles, uint32_t history_slots, uint32_t cap = 4u << 20) {
  return static_cast<uint32_t>(std::min<uint64_t>(tiles * history_slots * 64, cap));
}

// GEOM.PF_STATUS and the PF_* counters (wrapping 32-bit values, like SlcCounters).
struct PrefetchCounters {
  uint64_t tiles_similar = 0, tiles_dissimilar = 0, tiles_no_history = 0, tiles_no_room = 0;
  uint64_t lines_requested = 0, events_dropped = 0, reads_untracked = 0;
  uint32_t threshold = 0, epoch = 0;
  PrefetchMode mode = PrefetchMode::Off;
  bool operator==(const PrefetchCounters&) const = default;
};

}  // namespace tessera::driver
