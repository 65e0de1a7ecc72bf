// Pictures of a frame from its slice recording (slice_recording.hpp): per-bin heatmaps drawn
// by gnuplot, the per-bin table as CSV, and a timeline in the Chrome trace-event format that
// Perfetto opens (docs/tessera-sim.md "Heatmaps", "Timeline").
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "tessera/driver/pipe_command.hpp"
#include "tessera/sim/slice_recording.hpp"

namespace tessera::sim {

// The render target of one pass, as the heatmaps draw it.
struct PassGrid {
  std::string name;          // the scene's target name
  uint32_t width = 0, height = 0;
  uint32_t bin = 32;         // bin (tile) size in pixels
};

// One bin of one pass, summed over the visits of the pass (one per batch that touched it).
struct BinCell {
  uint64_t visits = 0, prims = 0, cycles = 0, memory_bytes = 0;
};
// The pass's bins as a row-major grid of ceil(width / bin) x ceil(height / bin) cells.
std::vector<BinCell> bin_grid(const SliceRecording& rec, unsigned pass, const PassGrid& grid);

// The per-visit table: one row per bin visit (frame, pass, slice, tile, primitives, cycles per
// activity, line requests, bytes).
void write_bins_csv(std::ostream& out, uint32_t frame, const SliceRecording& rec, bool header);

// A gnuplot single-quoted string literal of s (a quote inside is written twice).
std::string gnuplot_quote(const std::string& s);
// gnuplot's path, or an empty string when it is not installed.
std::string find_gnuplot();
// Runs gnuplot on a script; its output goes to `log`, which a failure's message quotes.
// Throws std::runtime_error naming the script.
void run_gnuplot(const std::string& gnuplot, const std::filesystem::path& script, const std::filesystem::path& log);

// Draws the heatmaps of every pass of the frame into dir with gnuplot: primitives, cycles and
// memory bytes per bin and the slice that owns each tile, each with its colour scale and a
// legend, as heat_f<frame>_p<pass>_<what>.png. Returns the file names written. Throws
// std::runtime_error naming the file when gnuplot fails.
std::vector<std::string> write_heatmaps(const std::filesystem::path& dir, uint32_t frame, const SliceRecording& rec,
                                        const std::vector<PassGrid>& passes, unsigned slices,
                                        const std::string& gnuplot);

// A timeline in the Chrome trace-event JSON format (https://ui.perfetto.dev opens it). One
// timestamp unit (shown as 1 us) is one GPU cycle. Tracks: frames; per slice its bin visits
// with their load / raster / store phases and clears, its memory stalls; per geometry slice
// the sub-batches PC_US dispatched; the CP's pipeline commands.
class TimelineWriter {
 public:
  // Events outside [window_start, window_end] (cycles) are left out.
  TimelineWriter(const std::filesystem::path& file, unsigned slices, uint64_t window_start, uint64_t window_end);
  ~TimelineWriter();
  TimelineWriter(const TimelineWriter&) = delete;
  TimelineWriter& operator=(const TimelineWriter&) = delete;
  void add_frame(uint32_t frame, const SliceRecording& rec, const std::vector<driver::PipeCommand>& commands);
  // Writes the closing bracket; throws std::runtime_error if the file could not be written.
  void close();
  uint64_t events() const { return events_; }

 private:
  void event(const std::string& json_object);
  bool in_window(uint64_t start, uint64_t end) const { return end >= w0_ && start <= w1_; }
  std::unique_ptr<std::ostream> out_;
  std::filesystem::path file_;
  unsigned slices_;
  uint64_t w0_, w1_;
  uint64_t events_ = 0;
  uint64_t next_id_ = 1;
  bool closed_ = false;
};

}  // namespace tessera::sim
