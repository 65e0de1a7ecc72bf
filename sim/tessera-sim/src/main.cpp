// tessera-sim: renders YAML scenes through the Tessera GPU (ARCHITECTURE.md 6;
// docs/tessera-sim.md). Subcommands:
//   run [SCENE.yaml] ...   the scene's frames through the driver on the RTL (or reference)
//                          device: stats.json, frame PNGs, summary, optional FST waveform
//   policy ...             a sensor trace through the driver's binning policy
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <unistd.h>

#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <map>
#include <set>

#include "tessera/driver/error.hpp"
#include "tessera/driver/policy.hpp"
#include "tessera/sim/energy.hpp"
#include "tessera/sim/frame_pictures.hpp"
#ifdef TESSERA_HAVE_REF_RENDER
#include "tessera/sim/ref_frame_renderer.hpp"
#endif
#include "tessera/sim/scene.hpp"
#include "tessera/sim/scene_runner.hpp"
#include "tessera/sim/texture.hpp"

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;
using namespace tessera::sim;

namespace {

// slices[k].cycles: where the slice's cycles went, one activity per cycle (they add up to the
// frame's cycles; docs/tessera-sim.md "stats.json").
json slice_cycles_json(const SliceFrameStats& f) {
  json c = json::object();
  for (std::size_t a = 0; a < kSliceActivities.size(); ++a) c[kSliceActivities[a]] = f.cycles[a];
  return c;
}

// The slice's memory waits (cycles.memory_wait) by cause: the read waits a prefetch can shorten
// (texel misses, tile loads) and the rest, the write side.
json memory_wait_causes_json(const SliceFrameStats& f) {
  const uint64_t reads = f.texel_wait_cycles + f.load_wait_cycles;
  return json{{"texel", f.texel_wait_cycles}, {"tile_load", f.load_wait_cycles},
              {"write_side", f.cycles[2] - std::min(f.cycles[2], reads)}};
}


const std::string kSourceDir = TESSERA_SOURCE_DIR;

// A usage or input error: printed as "tessera-sim: error: ...", exit code 1.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// --throttle off | source | cap:N (docs/tessera-sim.md "Tessellation"): the slices' HS launch
// throttle (GEOM.TESS_THROTTLE); the other tessellation-stage registers keep their resets.
tessera::driver::TessellationState throttle_state(const std::string& option, const std::string& x) {
  using tessera::driver::ThrottleMode;
  tessera::driver::TessellationState t;
  if (x == "off") {
    t.throttle = ThrottleMode::Off;
  } else if (x == "source") {
    t.throttle = ThrottleMode::Source;
  } else if (x.rfind("cap:", 0) == 0) {
    const std::string n = x.substr(4);
    const uint32_t max_cap = tessera::driver::TessellationState::kMaxCap;
    if (n.empty() || n.size() > 3 || n.find_first_not_of("0123456789") != std::string::npos || std::stoul(n) < 1 ||
        std::stoul(n) > max_cap)
      throw UsageError(fmt::format("{}: '{}': the cap must be a whole number of thread groups in 1..{} (cap:N)", option,
                                   x, max_cap));
    t.throttle = ThrottleMode::Cap;
    t.cap = static_cast<uint32_t>(std::stoul(n));
  } else {
    throw UsageError(fmt::format("{}: '{}' is not one of off, source, cap:N", option, x));
  }
  return t;
}

// --tess-stage KEY=V,... (docs/tessera-sim.md "Tessellation"): the rest of the slices'
// tessellation stage, for architecture studies: tg (patches per thread group), slots (shader
// slots per slice), hs_base, hs_per_patch (HS cycles), ds_wave (DS cycles per 32-vertex wave),
// rate (the throttle's R). The driver range-checks the values (encode_state).
void apply_tess_stage(const std::string& option, const std::string& text, tessera::driver::TessellationState& t) {
  if (text.empty()) return;
  std::string item;
  for (char c : text + ",") {
    if (c != ',') {
      item += c;
      continue;
    }
    const std::size_t eq = item.find('=');
    const std::string key = item.substr(0, eq), val = eq == std::string::npos ? "" : item.substr(eq + 1);
    if (eq == std::string::npos || val.empty() || val.size() > 6 || val.find_first_not_of("0123456789") != std::string::npos)
      throw UsageError(fmt::format("{}: '{}' is not KEY=N (keys: tg, slots, hs_base, hs_per_patch, ds_wave, rate, hold)",
                                   option, item));
    const auto v = static_cast<uint32_t>(std::stoul(val));
    if (key == "tg") t.thread_group = v;
    else if (key == "slots") t.slots = v;
    else if (key == "hs_base") t.hs_base = v;
    else if (key == "hs_per_patch") t.hs_per_patch = v;
    else if (key == "ds_wave") t.ds_wave = v;
    else if (key == "rate") t.rate = v;
    else if (key == "hold" && v <= 1) t.hold_until_consumed = v == 1;
    else
      throw UsageError(fmt::format("{}: unknown key '{}' or value out of range (keys: tg, slots, hs_base, hs_per_patch, "
                                   "ds_wave, rate, hold 0|1)", option, key));
    item.clear();
  }
  try {
    tessera::driver::PipelineState probe;
    probe.tess = t;
    tessera::driver::encode_state(probe, 16, 16);
  } catch (const std::exception& e) {
    throw UsageError(fmt::format("{} '{}': {}", option, text, e.what()));
  }
}

struct RunArgs {
  std::string scene;
  std::optional<uint32_t> frames;
  uint32_t slices = 4;
  std::optional<uint32_t> slc_ways;
  std::string mode = "pbb";
  std::string policy = kSourceDir + "/driver/config/policy.yaml";
  std::string sensor_trace;
  std::optional<uint32_t> width, height;
  uint64_t seed = 1;
  std::string out = "tessera-out";
  std::string trace;
  uint64_t trace_start = 0;
  std::optional<uint64_t> trace_end;
  std::string backend = "rtl";
  std::string energy = kSourceDir + "/sim/tessera-sim/config/energy.yaml";
  uint32_t bin_size = 32;
  std::string distribution = "round-robin";
  uint32_t subbatch = tessera::driver::kDefaultSubbatch;
  std::string lrz = "on";
  std::string throttle = "source";
  std::string tess_stage;
  std::string prefetch = "off", prefetch_tune;
  std::string texture_layout = "linear";
  uint32_t memory_mib = static_cast<uint32_t>(kDefaultGpuMemoryBytes >> 20);
  bool no_render = false;
  bool heatmaps = false;
  std::string timeline;
  bool quiet = false;
  bool json = false;
};

// SIGINT / SIGTERM: the handler only sets these; the simulation checks the flag (GpuSim every
// few thousand cycles, the runner between frames), unwinds, removes its staging folder and
// then dies of the same signal.
std::atomic<bool> g_cancel{false};
volatile std::sig_atomic_t g_signal = 0;
extern "C" void on_signal(int sig) {
  g_signal = sig;
  g_cancel.store(true);
}

struct Cancelled : std::runtime_error {
  Cancelled() : std::runtime_error("interrupted") {}
};
void check_cancel() {
  if (g_cancel.load()) throw Cancelled();
}

// True if s is well-formed UTF-8 (JSON strings must be): no stray continuation bytes, no
// truncated sequence, no overlong form, no surrogate, nothing above U+10FFFF.
bool valid_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t n = 0;
    uint32_t cp = 0;
    if ((c & 0xE0) == 0xC0) {
      n = 1, cp = c & 0x1Fu;
    } else if ((c & 0xF0) == 0xE0) {
      n = 2, cp = c & 0x0Fu;
    } else if ((c & 0xF8) == 0xF0) {
      n = 3, cp = c & 0x07u;
    } else {
      return false;
    }
    if (i + n >= s.size()) return false;
    for (std::size_t k = 1; k <= n; ++k) {
      const auto cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3Fu);
    }
    const uint32_t min_cp = n == 1 ? 0x80 : n == 2 ? 0x800 : 0x10000;
    if (cp < min_cp || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += n + 1;
  }
  return true;
}
void require_utf8(std::string_view s, std::string_view what) {
  if (!valid_utf8(s))
    throw UsageError(fmt::format("{} is not valid UTF-8, so it cannot go into stats.json: rename it", what));
}

// Can we create a file in dir? Checked with a probe file, which is removed again.
void require_writable_dir(const fs::path& dir, std::string_view option) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) throw UsageError(fmt::format("{}: the folder '{}' does not exist", option, dir.string()));
  if (!fs::is_directory(dir, ec)) throw UsageError(fmt::format("{}: '{}' is not a folder", option, dir.string()));
  const fs::path probe = dir / fmt::format(".tessera-sim-probe-{}", ::getpid());
  std::FILE* f = std::fopen(probe.c_str(), "w");
  if (!f) throw UsageError(fmt::format("{}: cannot write into the folder '{}': {}", option, dir.string(), std::strerror(errno)));
  std::fclose(f);
  fs::remove(probe, ec);
}

// Results are written into a hidden folder inside DIR and moved into DIR only when the run
// succeeded; a failed or interrupted run removes it, so no partial file is ever presented as a
// result. DIR/.tessera-sim-files lists what the last run wrote: a new run replaces or removes
// only those files and refuses to overwrite a file it did not write.
class Staging {
 public:
  static constexpr const char* kManifest = ".tessera-sim-files";

  explicit Staging(const fs::path& dir) : dir_(dir) {
    std::error_code ec;
    fs::create_directories(dir_, ec);
    if (ec || !fs::is_directory(dir_)) throw UsageError(fmt::format("--out: cannot create the folder '{}': {}", dir_.string(), ec.message()));
    require_writable_dir(dir_, "--out");
    remove_stale_partials();
    tmp_ = dir_ / fmt::format(".tessera-sim-partial-{}", ::getpid());
    fs::remove_all(tmp_, ec);
    fs::create_directories(tmp_, ec);
    if (ec) throw UsageError(fmt::format("--out: cannot write into '{}': {}", dir_.string(), ec.message()));
    std::ifstream m(dir_ / kManifest);
    for (std::string line; std::getline(m, line);)
      if (!line.empty()) previous_.insert(line);
  }
  ~Staging() {
    std::error_code ec;
    fs::remove_all(tmp_, ec);
  }
  Staging(const Staging&) = delete;
  Staging& operator=(const Staging&) = delete;

  fs::path tmp(const std::string& name) const { return tmp_ / name; }
  const fs::path& tmp_dir() const { return tmp_; }
  // Refuses, before anything is simulated, to overwrite a file in DIR that tessera-sim did not write.
  void check_overwrite(const std::vector<std::string>& names) const {
    std::error_code ec;
    for (const std::string& n : names)
      if (fs::exists(dir_ / n, ec) && !previous_.count(n))
        throw UsageError(fmt::format("--out {}: '{}' exists and was not written by tessera-sim (it is not in {}); "
                                     "remove it or choose another folder",
                                     dir_.string(), n, kManifest));
  }
  // Removes what the previous run wrote, moves the staged files in, records them.
  void commit(const std::vector<std::pair<fs::path, fs::path>>& moves) {
    std::error_code ec;
    for (const std::string& n : previous_) {
      const fs::path p = dir_ / n;
      if (n.find('/') == std::string::npos && n != kManifest && fs::is_regular_file(p, ec)) fs::remove(p, ec);
    }
    std::ofstream m(tmp_ / kManifest);
    for (const auto& [from, to] : moves) {
      fs::rename(from, to, ec);
      if (ec) {  // another file system (--trace elsewhere)
        fs::copy_file(from, to, fs::copy_options::overwrite_existing, ec);
        if (ec) throw std::runtime_error(fmt::format("cannot move '{}' to '{}': {}", from.string(), to.string(), ec.message()));
      }
      if (to.parent_path() == dir_) m << to.filename().string() << "\n";
    }
    m.close();
    fs::rename(tmp_ / kManifest, dir_ / kManifest, ec);
  }

 private:
  // Staging folders of runs that were killed (their process is gone).
  void remove_stale_partials() {
    std::error_code ec;
    const std::string prefix = ".tessera-sim-partial-";
    for (const auto& e : fs::directory_iterator(dir_, ec)) {
      const std::string n = e.path().filename().string();
      if (n.rfind(prefix, 0) != 0) continue;
      const long pid = std::strtol(n.c_str() + prefix.size(), nullptr, 10);
      if (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) fs::remove_all(e.path(), ec);
    }
  }

  fs::path dir_, tmp_;
  std::set<std::string> previous_;
};

json slc_json(const std::optional<SlcCounters>& s) {
  // Both backends write every key; null where the backend has no SLC (issue 20 item 6).
  if (!s)
    return json{{"reads", nullptr}, {"writes", nullptr}, {"hits", nullptr}, {"misses", nullptr},
                {"hit_rate", nullptr}, {"fills", nullptr}, {"writebacks", nullptr}};
  const uint64_t acc = s->hits + s->misses;
  return json{{"reads", s->reads},           {"writes", s->writes},         {"hits", s->hits},
              {"misses", s->misses},         {"hit_rate", acc ? static_cast<double>(s->hits) / acc : 0.0},
              {"fills", s->fills},           {"writebacks", s->writebacks}};
}

struct Totals {
  FrameStats sum;
  bool have_dram = false, have_slc = false;
  double wall = 0;
};

// The energy model's inputs from a frame's (or a run's) statistics (docs/tessera-sim.md "Energy").
EnergyInputs energy_inputs(const FrameStats& st) {
  EnergyInputs in;
  if (st.dram_read_bytes) in.dram_bytes = static_cast<double>(*st.dram_read_bytes + *st.dram_write_bytes);
  if (st.slc) in.slc_accesses = static_cast<double>(st.slc->reads + st.slc->writes);
  if (!st.slices.empty()) {
    // GMEM (the RB tile buffer, and the slices' GMEM of two-level binning): a depth read and a
    // write per fragment, 16 pixels per tile line moved in or out of the tile buffer through
    // memory, and per line a tile load or store moves through GMEM twice that (the GMEM line
    // and the tile buffer's; a write-back's memory write is in line_writes already)
    // (docs/tessera-sim.md "Energy").
    // CCHE: every hit, miss, writeback and fill touches its data array once (one line).
    double gmem = 0, busy = 0, cche = 0;
    for (const SliceFrameStats& f : st.slices) {
      cche += static_cast<double>(f.cche_hits + f.cche_misses + f.cche_writebacks + f.cche_fills);
      gmem += 2.0 * static_cast<double>(f.fragments) + 16.0 * static_cast<double>(f.line_reads + f.line_writes) +
              32.0 * static_cast<double>(f.gmem_reads + f.gmem_writes);
      busy += static_cast<double>(f.busy_cycles);
    }
    in.gmem_accesses = gmem;
    in.cche_accesses = cche;
    in.active_slice_cycles = busy;
  }
  return in;
}

// --prefetch-tune KEY=N,... (docs/prefetcher.md "Registers"): GEOM.PF_CFG and PF_ADAPT; the
// driver range-checks the values (CommandBuffer::set_prefetch).
void apply_prefetch_tune(const std::string& option, const std::string& text, tessera::driver::PrefetchConfig& c) {
  if (text.empty()) return;
  std::string item;
  for (char ch : text + ",") {
    if (ch != ',') {
      item += ch;
      continue;
    }
    const std::size_t eq = item.find('=');
    const std::string key = item.substr(0, eq), val = eq == std::string::npos ? "" : item.substr(eq + 1);
    static constexpr const char* kKeys =
        "threshold, max_lines, entries, kinds, window, slots, lookahead, blocks, hit_high, hit_low";
    if (eq == std::string::npos || val.empty() || val.size() > 4 || val.find_first_not_of("0123456789") != std::string::npos)
      throw UsageError(fmt::format("{}: '{}' is not KEY=N (keys: {})", option, item, kKeys));
    const auto v = static_cast<uint32_t>(std::stoul(val));
    if (key == "threshold") c.threshold = v;
    else if (key == "max_lines") c.max_lines = v;
    else if (key == "entries") c.entries = v;
    else if (key == "kinds") c.kinds = v;
    else if (key == "window") c.window_lines = v;
    else if (key == "slots") c.history_slots = v;
    else if (key == "lookahead") {
      if (v > 1) throw UsageError(fmt::format("{}: lookahead = {} is not 0 or 1", option, v));
      c.lookahead = v != 0;
    } else if (key == "blocks") {
      if (v > 1) throw UsageError(fmt::format("{}: blocks = {} is not 0 or 1", option, v));
      c.blocks = v != 0;
    }
    else if (key == "hit_high") c.hit_high = v;
    else if (key == "hit_low") c.hit_low = v;
    else throw UsageError(fmt::format("{}: unknown key '{}' (keys: {})", option, key, kKeys));
    item.clear();
  }
  try {
    tessera::driver::check_prefetch_config(c);
  } catch (const std::exception& e) {
    throw UsageError(fmt::format("{} '{}': {}", option, text, e.what()));
  }
}

// --texture-layout linear | tiled (docs/raster.md "Texture layout"): true for tiled
bool texture_layout_tiled(const std::string& option, const std::string& x) {
  if (x == "linear" || x == "tiled") return x == "tiled";
  throw UsageError(fmt::format("{}: '{}' is not one of linear, tiled", option, x));
}

// The PF_CFG.kinds a --prefetch-tune leaves (its reset without `kinds=`).
unsigned tune_kinds(const std::string& tune) {
  tessera::driver::PrefetchConfig c;
  apply_prefetch_tune("--prefetch-tune", tune, c);
  return c.kinds;
}

// --prefetch off | on | adaptive | ideal[:N[/G]] | ideal-bus[:N[/G]] (docs/prefetcher.md).
// `ideal` is not a prefetcher mode but its bound: the prefetcher off and the DRAM answering the
// reads of the kinds it may fetch at once (RunConfig::ideal_prefetch, "The bound"); `ideal:N`
// the same for N % of those lines (RunConfig::ideal_percent), the bound of a prefetcher
// covering N %; `ideal:N/G` N % of the texture lines and G % of the target lines
// (RunConfig::ideal_target_percent); `ideal-bus` the same bounds with the bus time paid
// (RunConfig::ideal_pays_bus): a perfect prefetch that moves its data like any read.
struct IdealBound {
  unsigned percent = 100;        // the textures' share (and the targets' without /G)
  unsigned target_percent = 0;   // the targets' share; 0: percent
  bool pays_bus = false;
  // the bound's curve of coverage is drawn from these alone: one share for every line, free
  bool uniform_free() const { return !pays_bus && (target_percent == 0 || target_percent == percent); }
  bool whole() const { return uniform_free() && percent == 100; }
  // what the bench's line says is read at once: "the data of", "N % of the lines of", ...
  std::string describe() const {
    if (target_percent && target_percent != percent)
      return fmt::format("{} % of the texture lines and {} % of the target lines of", percent, target_percent);
    return percent == 100 ? std::string("the data of") : fmt::format("{} % of the lines of", percent);
  }
};
bool prefetch_ideal(const std::string& x) {
  return x == "ideal" || x.rfind("ideal:", 0) == 0 || x == "ideal-bus" || x.rfind("ideal-bus:", 0) == 0;
}
IdealBound ideal_bound(const std::string& option, const std::string& x) {
  IdealBound b;
  b.pays_bus = x.rfind("ideal-bus", 0) == 0;
  const std::size_t head = b.pays_bus ? 9 : 5;  // "ideal-bus" / "ideal"
  if (x.size() == head) return b;
  const auto bad = [&] {
    return UsageError(fmt::format("{}: '{}': the shares must be whole percentages of the lines in 1..100 "
                                  "(ideal:N, or ideal:N/G for the textures' N and the targets' G; ideal-bus the same)",
                                  option, x));
  };
  const auto share = [&](const std::string& n) {
    if (n.empty() || n.size() > 3 || n.find_first_not_of("0123456789") != std::string::npos || std::stoul(n) < 1 ||
        std::stoul(n) > 100)
      throw bad();
    return static_cast<unsigned>(std::stoul(n));
  };
  const std::string spec = x.substr(head + 1);  // after the ':'
  const std::size_t slash = spec.find('/');
  b.percent = share(spec.substr(0, slash));
  if (slash != std::string::npos) b.target_percent = share(spec.substr(slash + 1));
  return b;
}
void apply_ideal_bound(const std::string& option, const std::string& x, RunConfig& rc) {
  rc.ideal_prefetch = prefetch_ideal(x);
  if (!rc.ideal_prefetch) return;
  const IdealBound b = ideal_bound(option, x);
  rc.ideal_percent = b.percent;
  rc.ideal_target_percent = b.target_percent;
  rc.ideal_pays_bus = b.pays_bus;
}
tessera::driver::PrefetchMode prefetch_mode(const std::string& option, const std::string& x) {
  if (prefetch_ideal(x)) {
    ideal_bound(option, x);
    return tessera::driver::PrefetchMode::Off;
  }
  if (const auto m = tessera::driver::parse_prefetch_mode(x)) return *m;
  throw UsageError(fmt::format("{}: '{}' is not one of off, on, adaptive, ideal, ideal:N, ideal:N/G, ideal-bus[:N[/G]]",
                               option, x));
}

// stats.json "prefetch" (docs/tessera-sim.md "stats.json"): null keys without the RTL.
// accuracy = lines used / lines filled; coverage = demand misses avoided / demand misses
// without the prefetcher on the same frames, which only a bench that ran both knows
// (demand_misses_off).
json prefetch_json(const std::optional<PrefetchFrameStats>& p, const std::optional<std::pair<uint64_t, uint64_t>>& misses_off_on) {
  if (!p)
    return json{{"mode", nullptr}, {"tiles_similar", nullptr}, {"tiles_dissimilar", nullptr},
                {"tiles_no_history", nullptr}, {"lines_requested", nullptr}, {"lines_filled", nullptr},
                {"lines_dropped", nullptr}, {"lines_used", nullptr}, {"lines_evicted_unused", nullptr},
                {"accuracy", nullptr}, {"coverage", nullptr}, {"threshold", nullptr},
                {"events_dropped", nullptr}, {"reads_untracked", nullptr}};
  json cov = nullptr;
  if (misses_off_on && misses_off_on->first)
    cov = (static_cast<double>(misses_off_on->first) - static_cast<double>(misses_off_on->second)) /
          static_cast<double>(misses_off_on->first);
  return json{{"mode", p->mode},
              {"tiles_similar", p->tiles_similar},
              {"tiles_dissimilar", p->tiles_dissimilar},
              {"tiles_no_history", p->tiles_no_history},
              {"lines_requested", p->lines_requested},
              {"lines_filled", p->lines_filled},
              {"lines_dropped", p->lines_dropped},
              {"lines_used", p->lines_used},
              {"lines_evicted_unused", p->lines_evicted_unused},
              {"accuracy", p->lines_filled ? json(static_cast<double>(p->lines_used) / p->lines_filled) : json(nullptr)},
              {"coverage", cov},
              {"threshold", p->threshold},
              {"events_dropped", p->events_dropped},
              {"reads_untracked", p->reads_untracked}};
}

json frame_json(const FrameStats& st, const RunArgs& a, const EnergyConfig& ecfg, const std::string& reason, bool total,
                uint32_t frames) {
  json j;
  if (total) {
    j["frames"] = frames;
  } else {
    j["frame"] = st.frame;
  }
  j["binning_mode"] = st.binning_mode;
  j["policy_reason"] = reason.empty() ? json(nullptr) : json(reason);
  if (st.two_level) {
    auto opt = [](const std::optional<uint64_t>& v) { return v ? json(*v) : json(nullptr); };
    const TwoLevelFrameStats& t = *st.two_level;
    j["two_level"] = json{{"passes", t.passes},
                          {"coarse_bins", t.coarse_bins},
                          {"replays", t.replays},
                          {"visibility_pass_cycles", t.visibility_pass_cycles},
                          {"primitives_skipped", opt(t.primitives_skipped)},
                          {"primitives_recorded", opt(t.primitives_recorded)},
                          {"gmem_load_bytes", opt(t.gmem_load_bytes)},
                          {"gmem_store_bytes", opt(t.gmem_store_bytes)}};
  } else {
    j["two_level"] = nullptr;
  }
  j["cycles"] = st.cycles;
  j["wall_seconds"] = st.wall_seconds;
  j["sim_cycles_per_second"] = st.wall_seconds > 0 ? st.cycles / st.wall_seconds : 0.0;
  if (st.dram_read_bytes)
    j["dram"] = json{{"read_bytes", *st.dram_read_bytes}, {"write_bytes", *st.dram_write_bytes}};
  else
    j["dram"] = json{{"read_bytes", nullptr}, {"write_bytes", nullptr}};
  j["slc"] = slc_json(st.slc);
  json d{{"deletes", st.dsid_deletes}};
  if (st.slc) {
    d["deleted_dirty_lines"] = st.slc->deleted_dirty;
    d["deleted_clean_lines"] = st.slc->deleted_clean;
    d["dram_write_bytes_saved"] = st.slc->deleted_dirty * 64;
  } else {
    d["deleted_dirty_lines"] = nullptr;   // in the RTL's key order
    d["deleted_clean_lines"] = nullptr;
    d["dram_write_bytes_saved"] = nullptr;
  }
  j["dsid"] = d;
  j["geometry"] = json{{"passes", st.passes},
                       {"draws", st.draws},
                       {"triangles_in", st.clip.triangles_in},
                       {"triangles_out", st.clip.triangles_out},
                       {"triangles_clipped", st.clip.clipped},
                       {"triangles_rejected", st.clip.rejected},
                       {"patches_in", st.clip.patches_in},
                       {"patches_out", st.clip.patches_out},
                       {"patches_rejected", st.clip.patches_rejected},
                       {"vertices", st.vertices},
                       {"vertex_bytes", st.vertex_bytes},
                       {"index_bytes", st.index_bytes},
                       {"tf_bytes", st.tf_bytes}};
  // What the GPU's tessellators did (rtl: GEOM TESS_* registers; ref: the reference pipeline).
  if (st.tess)
    j["tessellation"] = json{{"patches", st.tess->patches},
                             {"thread_groups", st.tess->thread_groups},
                             {"triangles_out", st.tess->triangles},
                             {"isoline_segments", st.tess->isoline_segments}};
  else
    j["tessellation"] = json{{"patches", nullptr}, {"thread_groups", nullptr}, {"triangles_out", nullptr},
                             {"isoline_segments", nullptr}};
  // The slices' HS launch throttle (rtl: GEOM TESS_HS_LATENCY, TESS_*_STALL, TESS_INFLIGHT;
  // summed over the slices; the reference pipeline has no timing: null).
  {
    json thr{{"mode", a.throttle}};
    if (st.throttle) {
      const uint64_t tgs = st.tess ? st.tess->thread_groups : 0;
      thr["in_flight_histogram"] = st.throttle->in_flight;
      thr["hs_stall_cycles"] = st.throttle->hs_stall_cycles;
      thr["ds_stall_cycles"] = st.throttle->ds_stall_cycles;
      thr["average_hs_latency"] =
          tgs ? json(static_cast<double>(st.throttle->hs_latency_sum) / static_cast<double>(tgs)) : json(nullptr);
    } else {
      thr["in_flight_histogram"] = nullptr;
      thr["hs_stall_cycles"] = nullptr;
      thr["ds_stall_cycles"] = nullptr;
      thr["average_hs_latency"] = nullptr;
    }
    j["throttle"] = thr;
  }
  j["prefetch"] = prefetch_json(st.prefetch, std::nullopt);
  j["commands"] = json{{"command_dwords", st.command_dwords}, {"pipe_commands", st.pipe_commands}};
  j["upload"] = json{{"bytes", st.upload_bytes}, {"cycles", st.upload_cycles}, {"wall_seconds", st.upload_seconds}};
  json slices = json::array();
  for (uint32_t s = 0; s < a.slices; ++s) {
    if (s < st.slices.size()) {
      const SliceFrameStats& f = st.slices[s];
      slices.push_back(json{{"slice", s},
                            {"primitives", f.triangles},
                            {"bins", f.bins},
                            {"bin_primitives", f.bin_primitives},
                            {"quads", f.quads},
                            {"fragments", f.fragments},
                            {"fragments_passed", f.fragments_passed},
                            {"line_reads", f.line_reads},
                            {"line_writes", f.line_writes},
                            {"texel_hits", f.texel_hits},
                            {"texel_misses", f.texel_misses},
                            {"cche_hits", f.cche_hits},
                            {"cche_misses", f.cche_misses},
                            {"cche_writebacks", f.cche_writebacks},
                            {"cche_fills", f.cche_fills},
                            {"lrz_rejected_blocks", f.lrz_rejected_blocks},
                            {"lrz_rejected_quads", f.lrz_rejected_quads},
                            {"quads_hidden", f.quads_hidden},
                            {"gmem_line_reads", f.gmem_reads},
                            {"gmem_line_writes", f.gmem_writes},
                            {"busy_cycles", f.busy_cycles},
                            {"cycles", slice_cycles_json(f)},
                            {"memory_wait_causes", memory_wait_causes_json(f)}});
    } else {
      // Not measured by this backend (the reference renders all slices as one): every key,
      // each null, so the two backends' files have the same shape.
      json c = json::object();
      for (const char* k : kSliceActivities) c[k] = nullptr;
      json x{{"slice", s}};
      for (const char* k : {"primitives", "bins", "bin_primitives", "quads", "fragments", "fragments_passed", "line_reads",
                            "line_writes", "texel_hits", "texel_misses", "cche_hits", "cche_misses", "cche_writebacks",
                            "cche_fills", "lrz_rejected_blocks", "lrz_rejected_quads", "quads_hidden", "gmem_line_reads",
                            "gmem_line_writes", "busy_cycles"})
        x[k] = nullptr;
      x["cycles"] = c;
      x["memory_wait_causes"] = json{{"texel", nullptr}, {"tile_load", nullptr}, {"write_side", nullptr}};
      slices.push_back(x);
    }
  }
  j["slices"] = slices;
  if (!total) {
    auto opt = [](const std::optional<uint64_t>& v) { return v ? json(*v) : json(nullptr); };
    json passes = json::array();
    for (std::size_t p = 0; p < st.pass_stats.size(); ++p) {
      const PassFrameStats& ps = st.pass_stats[p];
      passes.push_back(json{{"pass", p},
                            {"name", ps.name},
                            {"target", ps.target},
                            {"width", ps.width},
                            {"height", ps.height},
                            {"draws", ps.draws},
                            {"triangles_in", ps.clip.triangles_in},
                            {"triangles_out", ps.clip.triangles_out},
                            {"triangles_clipped", ps.clip.clipped},
                            {"triangles_rejected", ps.clip.rejected},
                            {"pipe_commands", ps.pipe_commands},
                            {"begin_cycle", opt(ps.begin_cycle)},
                            {"end_cycle", opt(ps.end_cycle)},
                            {"bins", opt(ps.bins)},
                            {"bin_primitives", opt(ps.bin_primitives)}});
    }
    j["passes"] = passes;
    json draws = json::array();
    for (std::size_t d = 0; d < st.draw_stats.size(); ++d) {
      const DrawFrameStats& ds = st.draw_stats[d];
      draws.push_back(json{{"draw", d},
                           {"pass", ds.pass},
                           {"label", ds.label},
                           {"indices", ds.indices},
                           {"triangles_in", ds.clip.triangles_in},
                           {"triangles_out", ds.clip.triangles_out},
                           {"triangles_clipped", ds.clip.clipped},
                           {"triangles_rejected", ds.clip.rejected},
                           {"issue_cycle", opt(ds.issue_cycle)}});
    }
    j["draws"] = draws;
  }
  const EnergyInputs in = energy_inputs(st);
  const EnergyEstimate e = estimate_energy(ecfg, in);
  auto opt = [](const std::optional<double>& v) { return v ? json(*v) : json(nullptr); };
  // No measured term at all (the reference backend): the total is unknown, not 0 pJ.
  const bool any_term = e.dram_pj || e.slc_pj || e.cche_pj || e.gmem_pj || e.slice_pj;
  j["energy"] = json{{"total_pj", any_term ? json(e.total_pj) : json(nullptr)}, {"dram_pj", opt(e.dram_pj)},   {"slc_pj", opt(e.slc_pj)}, {"cche_pj", opt(e.cche_pj)},
                     {"gmem_pj", opt(e.gmem_pj)}, {"slice_pj", opt(e.slice_pj)}, {"missing_terms", e.missing}};
  return j;
}

void add(FrameStats& s, const FrameStats& f) {
  s.cycles += f.cycles;
  if (f.two_level) {
    TwoLevelFrameStats& t = s.two_level ? *s.two_level : s.two_level.emplace();
    auto sum = [&](std::optional<uint64_t>& a, const std::optional<uint64_t>& b, bool first) {
      a = first ? b : (a && b ? std::optional<uint64_t>(*a + *b) : std::nullopt);
    };
    const bool first = t.passes == 0 && t.replays == 0;
    t.passes += f.two_level->passes;
    t.coarse_bins += f.two_level->coarse_bins;
    t.replays += f.two_level->replays;
    t.visibility_pass_cycles += f.two_level->visibility_pass_cycles;
    sum(t.primitives_skipped, f.two_level->primitives_skipped, first);
    sum(t.primitives_recorded, f.two_level->primitives_recorded, first);
    sum(t.gmem_load_bytes, f.two_level->gmem_load_bytes, first);
    sum(t.gmem_store_bytes, f.two_level->gmem_store_bytes, first);
  }
  s.wall_seconds += f.wall_seconds;
  if (f.dram_read_bytes) {
    s.dram_read_bytes = s.dram_read_bytes.value_or(0) + *f.dram_read_bytes;
    s.dram_write_bytes = s.dram_write_bytes.value_or(0) + *f.dram_write_bytes;
  }
  if (f.slc) {
    SlcCounters c = s.slc.value_or(SlcCounters{});
    c.reads += f.slc->reads;
    c.writes += f.slc->writes;
    c.hits += f.slc->hits;
    c.misses += f.slc->misses;
    c.fills += f.slc->fills;
    c.writebacks += f.slc->writebacks;
    c.deleted_dirty += f.slc->deleted_dirty;
    c.deleted_clean += f.slc->deleted_clean;
    c.prefetches += f.slc->prefetches;
    c.prefetch_fills += f.slc->prefetch_fills;
    c.prefetch_used += f.slc->prefetch_used;
    c.prefetch_unused += f.slc->prefetch_unused;
    c.prefetch_dropped += f.slc->prefetch_dropped;
    s.slc = c;
  }
  if (f.prefetch) {
    PrefetchFrameStats& p = s.prefetch ? *s.prefetch : s.prefetch.emplace();
    p.mode = f.prefetch->mode;
    p.tiles_similar += f.prefetch->tiles_similar;
    p.tiles_dissimilar += f.prefetch->tiles_dissimilar;
    p.tiles_no_history += f.prefetch->tiles_no_history;
    p.tiles_no_room += f.prefetch->tiles_no_room;
    p.lines_requested += f.prefetch->lines_requested;
    p.lines_filled += f.prefetch->lines_filled;
    p.lines_dropped += f.prefetch->lines_dropped;
    p.lines_used += f.prefetch->lines_used;
    p.lines_evicted_unused += f.prefetch->lines_evicted_unused;
    p.events_dropped += f.prefetch->events_dropped;
    p.reads_untracked += f.prefetch->reads_untracked;
    p.threshold = f.prefetch->threshold;
  }
  s.passes += f.passes;
  s.draws += f.draws;
  s.dsid_deletes += f.dsid_deletes;
  s.clip += f.clip;
  s.vertices += f.vertices;
  s.vertex_bytes += f.vertex_bytes;
  s.index_bytes += f.index_bytes;
  s.tf_bytes += f.tf_bytes;
  if (f.tess) {
    TessCounters t = s.tess.value_or(TessCounters{});
    t.patches += f.tess->patches;
    t.triangles += f.tess->triangles;
    t.isoline_segments += f.tess->isoline_segments;
    t.thread_groups += f.tess->thread_groups;
    s.tess = t;
  }
  if (f.throttle) {
    ThrottleCounters t = s.throttle.value_or(ThrottleCounters{});
    t.hs_latency_sum += f.throttle->hs_latency_sum;
    t.hs_stall_cycles += f.throttle->hs_stall_cycles;
    t.ds_stall_cycles += f.throttle->ds_stall_cycles;
    for (std::size_t k = 0; k < t.in_flight.size(); ++k) t.in_flight[k] += f.throttle->in_flight[k];
    s.throttle = t;
  }
  s.command_dwords += f.command_dwords;
  s.upload_bytes += f.upload_bytes;
  s.upload_cycles += f.upload_cycles;
  s.upload_seconds += f.upload_seconds;
  s.pipe_commands += f.pipe_commands;
  if (s.slices.size() < f.slices.size()) s.slices.resize(f.slices.size());
  for (std::size_t i = 0; i < f.slices.size(); ++i) {
    SliceFrameStats& t = s.slices[i];
    const SliceFrameStats& x = f.slices[i];
    t.triangles += x.triangles;
    t.bins += x.bins;
    t.bin_primitives += x.bin_primitives;
    t.quads += x.quads;
    t.fragments += x.fragments;
    t.fragments_passed += x.fragments_passed;
    t.line_reads += x.line_reads;
    t.line_writes += x.line_writes;
    t.texel_hits += x.texel_hits;
    t.texel_misses += x.texel_misses;
    t.cche_hits += x.cche_hits;
    t.cche_misses += x.cche_misses;
    t.cche_writebacks += x.cche_writebacks;
    t.cche_fills += x.cche_fills;
    t.lrz_rejected_blocks += x.lrz_rejected_blocks;
    t.lrz_rejected_quads += x.lrz_rejected_quads;
    t.quads_hidden += x.quads_hidden;
    t.gmem_reads += x.gmem_reads;
    t.gmem_writes += x.gmem_writes;
    t.texel_wait_cycles += x.texel_wait_cycles;
    t.load_wait_cycles += x.load_wait_cycles;
    t.busy_cycles += x.busy_cycles;
    for (std::size_t a = 0; a < x.cycles.size(); ++a) t.cycles[a] += x.cycles[a];
  }
}

std::string si(double v) {
  if (v >= 1e9) return fmt::format("{:.2f}G", v / 1e9);
  if (v >= 1e6) return fmt::format("{:.2f}M", v / 1e6);
  if (v >= 1e3) return fmt::format("{:.1f}k", v / 1e3);
  return fmt::format("{:.0f}", v);
}
std::string opt_si(const std::optional<uint64_t>& v) { return v ? si(static_cast<double>(*v)) : "-"; }

// The progress line inside a frame (a terminal only; redrawn in place with \r): the frame, its
// cycles so far, the share of its primitives the geometry front end finished, simulated cycles
// per second and the time left, estimated from that share (raster work trails the geometry, so
// the estimate is low until the share approaches 100 %).
std::string progress_line(const FrameProgress& p, double wall_seconds, uint32_t frames) {
  const double share = p.prims_total ? static_cast<double>(p.prims_finished) / static_cast<double>(p.prims_total) : 0.0;
  const double rate = wall_seconds > 0 ? static_cast<double>(p.cycles) / wall_seconds : 0.0;
  std::string left = "?";
  if (share >= 0.02 && share < 1.0 && wall_seconds > 0.2) left = fmt::format("{:.0f} s", wall_seconds * (1 - share) / share);
  else if (share >= 1.0) left = "finishing";
  return fmt::format("\rframe {}/{}  {} cycles  {:5.1f}% of primitives  {} cycles/s  left: {}     ", p.frame + 1, frames,
                     si(static_cast<double>(p.cycles)), 100.0 * std::min(share, 1.0), si(rate), left);
}

// The RB moves a tile row as whole 64-byte lines, so a row of any target must be whole lines:
// 16 RGBA8 pixels (docs/raster.md "RB"). The reference backend has no such limit.
void check_rtl_target_widths(const Scene& sc, const std::string& scene_path) {
  auto need16 = [](uint32_t w) { return (w + 15) / 16 * 16; };
  if (sc.width % 16 != 0)
    throw UsageError(fmt::format("screen width {}: the RTL raster slices need a target width that is a multiple of "
                                 "16 pixels (docs/raster.md \"RB\"); use --width {} or --backend ref",
                                 sc.width, need16(sc.width)));
  for (const auto& [name, t] : sc.targets)
    if (t.width % 16 != 0)
      throw UsageError(fmt::format("{}:{}:{}: targets.{}.width: {}: the RTL raster slices need a target width that "
                                   "is a multiple of 16 pixels (docs/raster.md \"RB\"), e.g. {}; or --backend ref",
                                   scene_path, t.loc.line, t.loc.column, name, t.width, need16(t.width)));
}

int cmd_run(RunArgs a) {
  // ---- check everything before anything runs ----
  const std::string scene_path = a.scene.empty() ? kSourceDir + "/scenes/demo/demo.yaml" : a.scene;
  if (!a.sensor_trace.empty() && a.mode != "auto") throw UsageError("--sensor-trace is only used with --mode auto");
  if (a.mode == "auto" && a.sensor_trace.empty()) throw UsageError("--mode auto needs --sensor-trace TRACE.csv");
  if (!a.trace.empty() && a.backend != "rtl") throw UsageError("--trace: waveforms come from the RTL; use --backend rtl");
  if ((a.trace_start != 0 || a.trace_end) && a.trace.empty() && a.timeline.empty())
    throw UsageError("--trace-start/--trace-end need --trace FILE.fst or --timeline FILE.json");
  if (a.heatmaps && a.backend != "rtl")
    throw UsageError("--heatmaps: the per-bin cycles and bytes come from the RTL slices; use --backend rtl");
  if (!a.timeline.empty() && a.backend != "rtl")
    throw UsageError("--timeline: the timeline comes from the RTL slices; use --backend rtl");
  std::string gnuplot;
  if (a.heatmaps) {
    gnuplot = find_gnuplot();
    if (gnuplot.empty())
      throw UsageError("--heatmaps: gnuplot is not installed (Debian package gnuplot-nox, in "
                       "scripts/debian-packages.txt; make run installs it)");
  }
  if (!a.timeline.empty()) {
    require_utf8(a.timeline, "--timeline");
    const fs::path tp(a.timeline);
    std::error_code ec;
    if (fs::is_directory(tp, ec))
      throw UsageError(fmt::format("--timeline {}: is a folder; give a file name such as timeline.json", a.timeline));
    require_writable_dir(tp.parent_path().empty() ? fs::path(".") : tp.parent_path(), "--timeline");
  }
  if (a.trace_end && *a.trace_end < a.trace_start)
    throw UsageError(fmt::format("--trace-end {} is before --trace-start {}", *a.trace_end, a.trace_start));
  // Output paths and JSON strings are checked before anything is simulated.
  require_utf8(scene_path, "the scene path");
  require_utf8(a.out, "--out");
  require_utf8(a.energy, "--energy");
  if (!a.trace.empty()) {
    require_utf8(a.trace, "--trace");
    const fs::path tp(a.trace);
    std::error_code ec;
    if (fs::is_directory(tp, ec)) throw UsageError(fmt::format("--trace {}: is a folder; give a file name such as trace.fst", a.trace));
    require_writable_dir(tp.parent_path().empty() ? fs::path(".") : tp.parent_path(), "--trace");
  }
  // The RTL GPU models are built with a fixed memory (gpu_top MEM_BYTES): more cannot be given.
  if (a.backend == "rtl" && (uint64_t{a.memory_mib} << 20) > kDefaultGpuMemoryBytes)
    throw UsageError(fmt::format("--memory-mib {}: the RTL GPU models have {} MiB of memory (their "
                                 "MEM_BYTES), so --backend rtl takes at most --memory-mib {}; the "
                                 "reference backend (--backend ref) takes up to 4095",
                                 a.memory_mib, kDefaultGpuMemoryBytes >> 20,
                                 kDefaultGpuMemoryBytes >> 20));
  if (a.backend == "rtl" && a.slices != 1 && a.slices != 2 && a.slices != 4)
    throw UsageError(fmt::format("--slices {}: the RTL GPU is built with 1, 2 or 4 slices (models gpu_n1, gpu_n2, "
                                 "gpu_n4); the reference backend takes any count",
                                 a.slices));
  // The RTL renders by itself; the reference device renders with the C++ reference renderer.
  std::unique_ptr<FrameRenderer> renderer;
#ifdef TESSERA_HAVE_REF_RENDER
  if (!a.no_render && a.backend == "ref") renderer = std::make_unique<RefFrameRenderer>();
#endif
  if (!a.no_render && !renderer && a.backend == "ref")
    throw UsageError(
        "no renderer is available: the reference renderer (sim/raster, tessera_ref_render) is not built in, "
        "so no frame PNG can be produced. Run with --no-render for the command stream and statistics");

  Scene sc = load_scene(scene_path);
  if (a.width) sc.width = *a.width;
  if (a.height) sc.height = *a.height;
  if (a.frames) sc.frames = *a.frames;
  if (a.backend == "rtl") check_rtl_target_widths(sc, scene_path);
  const EnergyConfig ecfg = load_energy_config(a.energy);

  std::vector<std::string> reasons(sc.frames);
  std::vector<bool> two_level(sc.frames, a.mode == "two-level");
  if (a.mode == "auto") {
    tessera::driver::BinningPolicy policy(tessera::driver::load_policy_config(a.policy));
    const auto samples = tessera::driver::load_trace_csv(a.sensor_trace);
    if (samples.empty()) throw UsageError(fmt::format("{}: the sensor trace has no samples", a.sensor_trace));
    const auto decisions = tessera::driver::replay(policy, samples);
    // Frame f is decided by sample f; past the end of the trace the last decision holds.
    for (uint32_t f = 0; f < sc.frames; ++f) {
      const auto& d = decisions[std::min<std::size_t>(f, decisions.size() - 1)];
      two_level[f] = d.two_level;
      reasons[f] = d.reason;
    }
  }
  const LoadedScene ls = load_assets(std::move(sc));
  const Scene& s = ls.scene;
  require_utf8(s.name, fmt::format("{}: the scene name", scene_path));
  // Pass names, targets and meshes label stats.json's passes and draws.
  for (const auto& ps : s.passes) {
    require_utf8(ps.name, fmt::format("{}: a pass name", scene_path));
    require_utf8(ps.target, fmt::format("{}: pass '{}': its target name", scene_path, ps.name));
    for (const auto& d : ps.draws) require_utf8(d.mesh, fmt::format("{}: pass '{}': a mesh name", scene_path, ps.name));
  }
  // Warnings reach the user with --json too (stdout carries only the JSON, so stderr), and
  // stats.json keeps them ("warnings"), so a --quiet run records them as well.
  for (const std::string& w : s.warnings) require_utf8(w, fmt::format("{}: a name in a warning", scene_path));
  if (!a.quiet)
    for (const std::string& w : s.warnings) std::fprintf(stderr, "tessera-sim: warning: %s\n", w.c_str());
  check_scene_memory(ls, uint64_t{a.memory_mib} << 20);

  Staging stage(a.out);
  const bool renders = !a.no_render && (renderer || a.backend == "rtl");
  {
    std::vector<std::string> outputs{"stats.json"};
    if (renders)
      for (uint32_t f = 0; f < s.frames; ++f) outputs.push_back(fmt::format("frame_{:04d}.png", f));
    if (a.heatmaps) {
      outputs.push_back("bins.csv");
      for (uint32_t f = 0; f < s.frames; ++f)
        for (std::size_t p = 0; p < s.passes.size(); ++p)
          for (const char* w : {"prims", "cycles", "bytes", "owner"})
            outputs.push_back(fmt::format("heat_f{:04d}_p{}_{}.png", f, p, w));
    }
    stage.check_overwrite(outputs);
  }
  RunConfig rc;
  rc.memory_bytes = uint64_t{a.memory_mib} << 20;
  rc.cancel = &g_cancel;
  rc.backend = a.backend;
  rc.slices = a.slices;
  rc.least_loaded = a.distribution == "least-loaded";
  rc.subbatch = a.subbatch;
  rc.lrz = a.lrz == "on";
  rc.slc_ways = a.slc_ways;
  rc.tess = throttle_state("--throttle", a.throttle);
  apply_tess_stage("--tess-stage", a.tess_stage, rc.tess);
  rc.prefetch.mode = prefetch_mode("--prefetch", a.prefetch);
  apply_ideal_bound("--prefetch", a.prefetch, rc);
  if (rc.ideal_prefetch && a.backend != "rtl")
    throw UsageError(fmt::format("--prefetch {}: the bound changes DRAM timing, so it needs --backend rtl", a.prefetch));
  apply_prefetch_tune("--prefetch-tune", a.prefetch_tune, rc.prefetch);
  rc.tiled_textures = texture_layout_tiled("--texture-layout", a.texture_layout);
  rc.seed = a.seed;
  rc.bin_size = a.bin_size == 16 ? tessera::driver::BinSize::Px16
                                 : (a.bin_size == 64 ? tessera::driver::BinSize::Px64 : tessera::driver::BinSize::Px32);
  if (!a.trace.empty()) {
    rc.wave_file = stage.tmp("trace.fst").string();
    rc.wave_start = a.trace_start;
    if (a.trace_end) rc.wave_end = *a.trace_end;
  }
  rc.record_slices = a.heatmaps || !a.timeline.empty();
  const bool progress = !a.quiet && !a.json;
  const bool tty = ::isatty(2);
  // Inside a frame, on a terminal: cycles, the share of the frame's primitives through the
  // geometry front end, simulation speed and the time left (docs/tessera-sim.md "Progress").
  if (progress && tty && a.backend == "rtl") {
    auto t_frame = std::make_shared<std::chrono::steady_clock::time_point>();
    auto last_cycles = std::make_shared<uint64_t>(~uint64_t{0});
    rc.progress_every = 8192;
    rc.progress = [&, t_frame, last_cycles](const FrameProgress& p) {
      if (p.cycles < *last_cycles) *t_frame = std::chrono::steady_clock::now();   // a new frame
      *last_cycles = p.cycles;
      std::fputs(progress_line(p, std::chrono::duration<double>(std::chrono::steady_clock::now() - *t_frame).count(),
                               s.frames).c_str(), stderr);
      std::fflush(stderr);
    };
  }
  if (progress)
    std::fprintf(stderr, "tessera-sim: %s: %u frame(s) of %zu triangles, %ux%u, backend %s\n", scene_path.c_str(),
                 s.frames, ls.triangles(), s.width, s.height, a.backend.c_str());

  const std::string renderer_name = !renders ? "" : renderer ? std::string(renderer->name()) : "rtl";
  SceneRunner runner(ls, rc, renderer.get());
  std::vector<std::pair<fs::path, fs::path>> moves;
  const fs::path out(a.out);
  std::vector<FrameStats> frames;
  FrameStats total;
  std::unique_ptr<TimelineWriter> timeline;
  if (!a.timeline.empty())
    timeline = std::make_unique<TimelineWriter>(stage.tmp("timeline.json"), a.slices, a.trace_start,
                                                a.trace_end.value_or(~uint64_t{0}));
  std::ofstream bins_csv;
  if (a.heatmaps) {
    bins_csv.open(stage.tmp("bins.csv"));
    if (!bins_csv) throw std::runtime_error(fmt::format("cannot write {}", stage.tmp("bins.csv").string()));
  }
  std::size_t pipe_seen = 0;
  for (uint32_t f = 0; f < s.frames; ++f) {
    check_cancel();
    runner.set_two_level(two_level[f], a.mode == "auto" ? reasons[f] : "--mode " + a.mode);
    FrameStats st = runner.run_frame(f);
    check_cancel();
    if (st.recording) {
      const std::vector<tessera::driver::PipeCommand> log = runner.pipe_log();
      if (timeline)
        timeline->add_frame(f, *st.recording,
                            std::vector<tessera::driver::PipeCommand>(log.begin() + static_cast<std::ptrdiff_t>(pipe_seen), log.end()));
      pipe_seen = log.size();
      if (a.heatmaps) {
        write_bins_csv(bins_csv, f, *st.recording, f == 0);
        std::vector<PassGrid> grids;
        for (const GpuPass& gp : runner.last_passes()) grids.push_back(PassGrid{gp.name, gp.width, gp.height, a.bin_size});
        for (const std::string& name : write_heatmaps(stage.tmp_dir(), f, *st.recording, grids, a.slices, gnuplot))
          moves.push_back({stage.tmp(name), out / name});
      }
      st.recording.reset();   // the frame's pictures are written; stats do not keep it
    }
    frames.push_back(st);
    add(total, st);
    if (renders) {
      const std::string name = fmt::format("frame_{:04d}.png", f);
      if (!write_png(stage.tmp(name).string(), s.width, s.height, runner.read_screen()))
        throw std::runtime_error(fmt::format("cannot write {}", stage.tmp(name).string()));
      moves.push_back({stage.tmp(name), out / name});
    }
    if (progress) {
      const double rate = st.wall_seconds > 0 ? st.cycles / st.wall_seconds : 0;
      std::fprintf(stderr, "%sframe %u/%u  cycles %s  %s cycles/s%s", tty ? "\r" : "", f + 1, s.frames,
                   si(static_cast<double>(st.cycles)).c_str(), si(rate).c_str(), tty ? "   " : "\n");
      std::fflush(stderr);
    }
  }
  if (progress && tty) std::fprintf(stderr, "\n");
  runner.close();  // closes the FST

  json j;
  j["tool"] = "tessera-sim";
  j["stats_version"] = 1;
  j["scene"] = json{{"file", scene_path}, {"name", s.name}, {"width", s.width}, {"height", s.height},
                    {"passes", s.passes.size()}, {"triangles_per_frame", ls.triangles()},
                    {"patches_per_frame", ls.patches()}};
  j["run"] = json{{"backend", a.backend},
                  {"frames", s.frames},
                  {"slices", a.slices},
                  {"slc_ways", a.slc_ways.value_or(s.slc_ways)},
                  {"mode", a.mode},
                  {"bin_size", a.bin_size},
                  {"distribution", a.distribution},
                  {"subbatch", a.subbatch},
                  {"lrz", a.lrz},
                  {"throttle", a.throttle},
                  {"tess_stage", a.tess_stage},
                  {"prefetch", a.prefetch},
                  {"prefetch_tune", a.prefetch_tune},
                  {"texture_layout", a.texture_layout},
                  {"seed", a.seed},
                  {"memory_bytes", rc.memory_bytes},
                  {"render", renders},
                  {"renderer", renders ? json(renderer_name) : json(nullptr)},
                  {"trace", a.trace.empty() ? json(nullptr) : json(a.trace)},
                  {"energy_config", a.energy}};
  j["warnings"] = s.warnings;
  json fj = json::array();
  for (const FrameStats& st : frames) fj.push_back(frame_json(st, a, ecfg, reasons[st.frame], false, 0));
  j["frames"] = fj;
  j["setup_upload"] = json{{"bytes", runner.setup_upload_bytes()},
                           {"cycles", runner.setup_upload_cycles()},
                           {"wall_seconds", runner.setup_upload_seconds()}};
  j["total"] = frame_json(total, a, ecfg, "", true, s.frames);
  j["total"].erase("policy_reason");

  {
    std::ofstream o(stage.tmp("stats.json"));
    o << j.dump(2) << "\n";
    if (!o) throw std::runtime_error("cannot write stats.json");
  }
  moves.push_back({stage.tmp("stats.json"), out / "stats.json"});
  if (!a.trace.empty()) moves.push_back({stage.tmp("trace.fst"), fs::path(a.trace)});
  if (a.heatmaps) {
    bins_csv.close();
    if (!bins_csv) throw std::runtime_error("cannot write bins.csv");
    moves.push_back({stage.tmp("bins.csv"), out / "bins.csv"});
  }
  if (timeline) {
    timeline->close();
    moves.push_back({stage.tmp("timeline.json"), fs::path(a.timeline)});
  }
  stage.commit(moves);

  if (a.json) {
    std::printf("%s\n", j.dump(2).c_str());
    return 0;
  }
  if (a.quiet) return 0;
  std::printf("\ntessera-sim: scene '%s', %u frame(s) %ux%u, backend %s, %u slice(s), mode %s\n\n", s.name.c_str(),
              s.frames, s.width, s.height, a.backend.c_str(), a.slices, a.mode.c_str());
  std::printf("%6s %10s %10s %9s %9s %8s %9s %9s %7s %6s %10s\n", "frame", "cycles", "cycles/s", "DRAM rd", "DRAM wr",
              "SLC hit", "del dirty", "wr saved", "tris", "draws", "energy uJ");
  auto row = [&](const std::string& label, const FrameStats& st, const json& fjson) {
    const double rate = st.wall_seconds > 0 ? st.cycles / st.wall_seconds : 0;
    const std::string hit = st.slc && (st.slc->hits + st.slc->misses)
                                ? fmt::format("{:.1f}%", 100.0 * st.slc->hits / (st.slc->hits + st.slc->misses))
                                : "-";
    const std::string energy = fjson["energy"]["total_pj"].is_null()
                                   ? std::string("-")
                                   : fmt::format("{:.2f}", fjson["energy"]["total_pj"].get<double>() / 1e6);
    std::printf("%6s %10s %10s %9s %9s %8s %9s %9s %7s %6u %10s\n", label.c_str(), si(static_cast<double>(st.cycles)).c_str(),
                si(rate).c_str(), opt_si(st.dram_read_bytes).c_str(), opt_si(st.dram_write_bytes).c_str(), hit.c_str(),
                st.slc ? si(static_cast<double>(st.slc->deleted_dirty)).c_str() : "-",
                st.slc ? (si(static_cast<double>(st.slc->deleted_dirty * 64)) + "B").c_str() : "-",
                si(static_cast<double>(st.clip.triangles_out)).c_str(), st.draws, energy.c_str());
  };
  for (std::size_t i = 0; i < frames.size(); ++i) row(std::to_string(frames[i].frame), frames[i], fj[i]);
  row("total", total, j["total"]);
  if (total.tess && total.tess->patches)
    std::printf("\ntessellation: %s patches -> %s triangles, %s isoline segments per frame (the tris column counts "
                "triangle-list triangles only)\n",
                si(static_cast<double>(total.tess->patches) / s.frames).c_str(),
                si(static_cast<double>(total.tess->triangles) / s.frames).c_str(),
                si(static_cast<double>(total.tess->isoline_segments) / s.frames).c_str());
  if (!total.slices.empty()) {
    // Where each slice's cycles went, as shares of the run's frame cycles.
    std::printf("\n%6s", "slice");
    for (const char* k : kSliceActivities) std::printf(" %11s", k);
    std::printf("   (share of the frames' cycles)\n");
    for (std::size_t i = 0; i < total.slices.size(); ++i) {
      std::printf("%6zu", i);
      for (uint64_t c : total.slices[i].cycles)
        std::printf(" %10.1f%%", total.cycles ? 100.0 * static_cast<double>(c) / static_cast<double>(total.cycles) : 0.0);
      std::printf("\n");
    }
    std::printf("\n%6s %9s %9s %10s %10s %11s %8s %9s %9s %9s\n", "slice", "tris", "bins", "fragments", "passed",
                "busy cyc", "busy", "CCHE hit", "CCHE wb", "LRZ quads");
    for (std::size_t i = 0; i < total.slices.size(); ++i) {
      const SliceFrameStats& f = total.slices[i];
      const uint64_t acc = f.cche_hits + f.cche_misses;
      std::printf("%6zu %9s %9s %10s %10s %11s %7.1f%% %8.1f%% %9s %9s\n", i, si(static_cast<double>(f.triangles)).c_str(),
                  si(static_cast<double>(f.bins)).c_str(), si(static_cast<double>(f.fragments)).c_str(),
                  si(static_cast<double>(f.fragments_passed)).c_str(), si(static_cast<double>(f.busy_cycles)).c_str(),
                  total.cycles ? 100.0 * static_cast<double>(f.busy_cycles) / static_cast<double>(total.cycles) : 0.0,
                  acc ? 100.0 * static_cast<double>(f.cche_hits) / static_cast<double>(acc) : 0.0,
                  si(static_cast<double>(f.cche_writebacks)).c_str(), si(static_cast<double>(f.lrz_rejected_quads)).c_str());
    }
  }
  std::printf("\nuploads:    set-up %s bytes in %.2f s (%s cycles); vertices and indices %s bytes per frame in %.2f s, "
              "not counted in the frame's cycles\n",
              si(static_cast<double>(runner.setup_upload_bytes())).c_str(), runner.setup_upload_seconds(),
              si(static_cast<double>(runner.setup_upload_cycles())).c_str(),
              si(static_cast<double>(total.upload_bytes) / s.frames).c_str(), total.upload_seconds / s.frames);
  std::printf("statistics: %s\n", (out / "stats.json").string().c_str());
  if (renders)
    std::printf("pictures:   %s/frame_0000.png .. frame_%04u.png (%s)\n",
                out.string().c_str(), s.frames - 1, renderer_name.c_str());
  else
    std::printf("pictures:   none (%s)\n", a.no_render ? "--no-render" : "no renderer");
  if (!a.trace.empty()) std::printf("waveform:   %s\n", a.trace.c_str());
  if (a.heatmaps)
    std::printf("heatmaps:   %s/heat_f<frame>_p<pass>_{prims,cycles,bytes,owner}.png, per-bin table %s/bins.csv\n",
                out.string().c_str(), out.string().c_str());
  if (!a.timeline.empty())
    std::printf("timeline:   %s (%llu events; open it in https://ui.perfetto.dev)\n", a.timeline.c_str(),
                static_cast<unsigned long long>(timeline ? timeline->events() : 0));
  if (!j["total"]["energy"]["missing_terms"].empty())
    std::printf("energy:     measured terms only; not measured yet: %s\n",
                fmt::format("{}", fmt::join(j["total"]["energy"]["missing_terms"].get<std::vector<std::string>>(), ", ")).c_str());
  return 0;
}

int cmd_policy(const std::string& policy_path, const std::string& trace_path, bool as_json) {
  tessera::driver::BinningPolicy policy(tessera::driver::load_policy_config(policy_path));
  const auto samples = tessera::driver::load_trace_csv(trace_path);
  const auto decisions = tessera::driver::replay(policy, samples);
  if (as_json) {
    json arr = json::array();
    for (const auto& d : decisions)
      arr.push_back(json{{"time_s", d.time_s}, {"mode", d.two_level ? "two-level" : "pbb"}, {"changed", d.changed},
                         {"reason", d.reason}});
    std::printf("%s\n", json{{"policy", policy_path}, {"trace", trace_path}, {"decisions", arr}}.dump(2).c_str());
    return 0;
  }
  std::printf("policy %s, trace %s: %zu samples, %llu mode change(s)\n", policy_path.c_str(), trace_path.c_str(),
              samples.size(), static_cast<unsigned long long>(policy.changes()));
  std::printf("%9s  %-9s  %-7s  %s\n", "time_s", "mode", "changed", "reason");
  for (const auto& d : decisions)
    std::printf("%9.3f  %-9s  %-7s  %s\n", d.time_s, d.two_level ? "two-level" : "pbb", d.changed ? "yes" : "", d.reason.c_str());
  return 0;
}

}  // namespace

// tessera-sim bench: the cross product of the knobs' value lists on the RTL GPU
// (docs/tessera-sim.md "Benchmarks"): per configuration frame cycles, speed-up over the same
// configuration on one slice, DRAM bytes, SLC hit rate, the busiest slice and the simulator's
// speed; a table row as each finishes, then bench.json, bench.csv and charts (gnuplot) in --out.
struct BenchArgs {
  std::string scene;
  uint32_t frames = 1;
  std::optional<uint32_t> width, height;
  bool fst = false;
  std::optional<uint32_t> slc_ways;
  std::string out = "tessera-bench";
  std::string slices = "1,2,4", mode = "pbb", bin_size = "32", distribution = "round-robin", subbatch = std::to_string(tessera::driver::kDefaultSubbatch),
              seed = "1", lrz = "on", throttle = "source", tess_stage, prefetch = "off", prefetch_tune,
              texture_layout = "linear";
};

struct BenchPoint {
  uint32_t slices = 4, bin_size = 32, subbatch = tessera::driver::kDefaultSubbatch;
  std::string mode = "pbb", distribution = "round-robin", lrz = "on";
  uint64_t seed = 1;
  std::string throttle = "source";
  std::string prefetch = "off";
  std::string label() const {
    return fmt::format("n{} {} bin{} {} sb{} lrz-{} thr-{} pf-{} seed{}", slices, mode, bin_size, distribution, subbatch,
                       lrz, throttle, prefetch, seed);
  }
  // The same configuration except the slice count: the speed-up's baseline.
  std::string group() const {
    return fmt::format("{} bin{} {} sb{} lrz-{} thr-{} pf-{} seed{}", mode, bin_size, distribution, subbatch, lrz,
                       throttle, prefetch, seed);
  }
  // The same configuration except the prefetcher: the prefetch figures' baseline.
  std::string without_prefetch() const {
    return fmt::format("n{} {} bin{} {} sb{} lrz-{} thr-{} seed{}", slices, mode, bin_size, distribution, subbatch, lrz,
                       throttle, seed);
  }
};

// A comma-separated list; every value is checked by `check` before anything runs.
std::vector<std::string> split_list(const std::string& option, const std::string& text) {
  std::vector<std::string> v;
  std::string cur;
  for (char c : text + ",") {
    if (c == ',') {
      if (cur.empty()) throw UsageError(fmt::format("{} '{}': an empty value in the list", option, text));
      v.push_back(cur);
      cur.clear();
    } else if (c != ' ') {
      cur += c;
    }
  }
  return v;
}
template <class T, class F>
std::vector<T> parse_list(const std::string& option, const std::string& text, F&& parse_one) {
  std::vector<T> out;
  for (const std::string& x : split_list(option, text)) {
    try {
      out.push_back(parse_one(x));
    } catch (const UsageError&) {
      throw;
    } catch (const std::exception&) {
      throw UsageError(fmt::format("{} '{}': '{}' is not a number", option, text, x));
    }
  }
  return out;
}
uint32_t one_of(const std::string& option, const std::string& x, std::initializer_list<uint32_t> allowed) {
  const unsigned long v = std::stoul(x);
  for (uint32_t a : allowed)
    if (v == a) return a;
  std::string list;
  for (uint32_t a : allowed) list += (list.empty() ? "" : ", ") + std::to_string(a);
  throw UsageError(fmt::format("{}: {} is not one of {}", option, x, list));
}
std::string word_of(const std::string& option, const std::string& x, std::initializer_list<const char*> allowed) {
  for (const char* a : allowed)
    if (x == a) return x;
  std::string list;
  for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
  throw UsageError(fmt::format("{}: '{}' is not one of {}", option, x, list));
}

int cmd_bench(const BenchArgs& b) {
  // ---- every value checked before anything runs ----
  const auto slices = parse_list<uint32_t>("--slices", b.slices, [](const std::string& x) { return one_of("--slices", x, {1, 2, 4}); });
  const auto modes = parse_list<std::string>("--mode", b.mode, [](const std::string& x) {
    return word_of("--mode", x, {"pbb", "two-level"});
  });
  const auto bins = parse_list<uint32_t>("--bin-size", b.bin_size, [](const std::string& x) { return one_of("--bin-size", x, {16, 32, 64}); });
  const auto dists = parse_list<std::string>("--distribution", b.distribution, [](const std::string& x) {
    return word_of("--distribution", x, {"round-robin", "least-loaded"});
  });
  const auto subs = parse_list<uint32_t>("--subbatch", b.subbatch, [](const std::string& x) {
    const unsigned long v = std::stoul(x);
    if (v < 16 || v > 1024) throw UsageError(fmt::format("--subbatch: {} is outside 16..1024", x));
    return static_cast<uint32_t>(v);
  });
  const auto seeds = parse_list<uint64_t>("--seed", b.seed, [](const std::string& x) { return std::stoull(x); });
  const auto lrzs = parse_list<std::string>("--lrz", b.lrz, [](const std::string& x) { return word_of("--lrz", x, {"on", "off"}); });
  const auto throttles = parse_list<std::string>("--throttle", b.throttle, [](const std::string& x) {
    throttle_state("--throttle", x);
    return x;
  });
  const auto prefetches = parse_list<std::string>("--prefetch", b.prefetch, [](const std::string& x) {
    prefetch_mode("--prefetch", x);
    return x;
  });
  {
    tessera::driver::TessellationState probe;
    apply_tess_stage("--tess-stage", b.tess_stage, probe);
    tessera::driver::PrefetchConfig pf_probe;
    apply_prefetch_tune("--prefetch-tune", b.prefetch_tune, pf_probe);
    texture_layout_tiled("--texture-layout", b.texture_layout);
  }
  const std::string scene_path = b.scene.empty() ? kSourceDir + "/scenes/demo/demo.yaml" : b.scene;
  require_utf8(b.out, "--out");
  const std::string gnuplot = find_gnuplot();
  if (gnuplot.empty())
    throw UsageError("bench: gnuplot is not installed (Debian package gnuplot-nox, in scripts/debian-packages.txt)");
  Scene sc = load_scene(scene_path);
  if (b.width) sc.width = *b.width;
  if (b.height) sc.height = *b.height;
  check_rtl_target_widths(sc, scene_path);
  sc.frames = b.frames;
  const LoadedScene ls = load_assets(std::move(sc));
  const Scene& s = ls.scene;
  Staging stage(b.out);
  const std::vector<std::string> charts{"bench_cycles.png", "bench_dram.png", "bench_speed.png"};
  {
    std::vector<std::string> outputs{"bench.json", "bench.csv"};
    outputs.insert(outputs.end(), charts.begin(), charts.end());
    stage.check_overwrite(outputs);
  }
  std::vector<BenchPoint> points;
  for (uint32_t n : slices)
    for (const auto& m : modes)
      for (uint32_t bs : bins)
        for (const auto& d : dists)
          for (uint32_t sb : subs)
            for (const auto& lz : lrzs)
              for (const auto& th : throttles)
                for (uint64_t sd : seeds)
                  for (const auto& pf : prefetches) points.push_back(BenchPoint{n, bs, sb, m, d, lz, sd, th, pf});

  // Chart labels name only the knobs the sweep varies.
  auto chart_label = [&](const BenchPoint& p) {
    std::string l;
    auto add_if = [&](bool varies, const std::string& part) {
      if (varies) l += (l.empty() ? "" : " ") + part;
    };
    add_if(slices.size() > 1, fmt::format("n{}", p.slices));
    add_if(modes.size() > 1, p.mode);
    add_if(bins.size() > 1, fmt::format("bin{}", p.bin_size));
    add_if(dists.size() > 1, p.distribution);
    add_if(subs.size() > 1, fmt::format("sb{}", p.subbatch));
    add_if(lrzs.size() > 1, "lrz-" + p.lrz);
    add_if(throttles.size() > 1, "thr-" + p.throttle);
    add_if(prefetches.size() > 1, "pf-" + p.prefetch);
    add_if(seeds.size() > 1, fmt::format("seed{}", p.seed));
    return l.empty() ? p.label() : l;
  };
  std::printf("tessera-sim bench: scene '%s', %ux%u, %u frame(s), %zu triangles per frame, RTL GPU, %zu configuration(s)\n\n",
              s.name.c_str(), s.width, s.height, b.frames, ls.triangles(), points.size());
  const EnergyConfig ecfg = load_energy_config(kSourceDir + "/sim/tessera-sim/config/energy.yaml");
  std::printf("%-44s %12s %8s %10s %11s %11s %11s %8s %9s %13s %13s\n", "configuration", "cycles/frame", "speedup",
              "efficiency", "DRAM rd/fr", "DRAM wr/fr", "energy/fr", "SLC hit", "busy max", "sim cycles/s", "with FST");
  std::fflush(stdout);
  const fs::path tmp = stage.tmp("fst");
  json rows = json::array();
  std::ofstream csv(stage.tmp("bench.csv"));
  csv << "slices,mode,bin_size,distribution,subbatch,lrz,seed,frames,cycles_per_frame,speedup,efficiency,"
         "dram_read_bytes_per_frame,dram_write_bytes_per_frame,slc_hit_rate,busy_max,sim_cycles_per_second,"
         "sim_cycles_per_second_fst,throttle,tess_patches_per_frame,tess_triangles_per_frame,thread_groups_per_frame,"
         "hs_stall_cycles_per_frame,ds_stall_cycles_per_frame,average_hs_latency\n";
  std::map<std::string, double> one_slice;   // group -> cycles per frame on one slice
  std::map<std::string, FrameStats> no_prefetch;   // without_prefetch() -> the run with --prefetch off
  std::map<std::string, uint64_t> no_prefetch_first;  // ... and its frame 0's memory-wait slice-cycles
  // without_prefetch() -> {mode, memory-wait slice-cycles} of its on / adaptive runs, for the
  // share of the ideal bound's cut they reach
  std::map<std::string, std::vector<std::pair<std::string, uint64_t>>> prefetch_waits;
  // without_prefetch() -> the bound's curve: {share of the lines ideal (0 = off), memory-wait
  // slice-cycles per frame}; and the prefetcher runs' {row, waits per frame} to place on it
  std::map<std::string, std::vector<std::pair<unsigned, double>>> bound_curve;
  std::map<std::string, std::vector<std::pair<std::size_t, double>>> prefetcher_rows;
  std::ofstream dat(stage.tmp(".bench.dat"));
  for (std::size_t i = 0; i < points.size(); ++i) {
    const BenchPoint& p = points[i];
    uint64_t first_frame_wait = 0;   // memory-wait slice-cycles of frame 0 (no prefetch history yet)
    auto measure = [&](bool fst, FrameStats& total) {
      RunConfig rc;
      rc.backend = "rtl";
      rc.slices = p.slices;
      rc.seed = p.seed;
      rc.bin_size = p.bin_size == 16 ? tessera::driver::BinSize::Px16
                                     : (p.bin_size == 64 ? tessera::driver::BinSize::Px64 : tessera::driver::BinSize::Px32);
      rc.least_loaded = p.distribution == "least-loaded";
      rc.subbatch = p.subbatch;
      rc.lrz = p.lrz == "on";
      rc.slc_ways = b.slc_ways;
      rc.tess = throttle_state("--throttle", p.throttle);
      apply_tess_stage("--tess-stage", b.tess_stage, rc.tess);
      rc.prefetch.mode = prefetch_mode("--prefetch", p.prefetch);
      apply_ideal_bound("--prefetch", p.prefetch, rc);
      apply_prefetch_tune("--prefetch-tune", b.prefetch_tune, rc.prefetch);
      rc.tiled_textures = b.texture_layout == "tiled";
      rc.cancel = &g_cancel;
      if (fst) {
        fs::create_directories(tmp);
        rc.wave_file = (tmp / "bench.fst").string();
      }
      SceneRunner runner(ls, rc);
      runner.set_two_level(p.mode == "two-level", "bench --mode " + p.mode);
      for (uint32_t f = 0; f < b.frames; ++f) {
        check_cancel();
        const FrameStats frame = runner.run_frame(f);
        if (f == 0 && !fst) {
          first_frame_wait = 0;
          for (const auto& sl : frame.slices) first_frame_wait += sl.cycles[2];
        }
        add(total, frame);
      }
      runner.close();
      if (fst) fs::remove_all(tmp);
      return total.wall_seconds > 0 ? static_cast<double>(total.cycles) / total.wall_seconds : 0.0;
    };
    FrameStats t;
    const double rate = measure(false, t);
    double rate_fst = 0;
    if (b.fst) {
      FrameStats tf;
      rate_fst = measure(true, tf);
    }
    const double cyc = static_cast<double>(t.cycles) / b.frames;
    if (p.slices == 1) one_slice[p.group()] = cyc;
    const auto base = one_slice.find(p.group());
    // Speed-up and efficiency need this configuration's 1-slice run (empty / null otherwise).
    const bool has_base = base != one_slice.end();
    const double speedup = has_base ? base->second / cyc : 0.0, eff = speedup / p.slices;
    uint64_t busy_max = 0;
    for (const auto& sl : t.slices) busy_max = std::max(busy_max, sl.busy_cycles);
    const double hit = t.slc && (t.slc->hits + t.slc->misses)
                           ? static_cast<double>(t.slc->hits) / static_cast<double>(t.slc->hits + t.slc->misses)
                           : 0.0;
    const double busy = t.cycles ? static_cast<double>(busy_max) / static_cast<double>(t.cycles) : 0.0;
    const double rd = static_cast<double>(t.dram_read_bytes.value_or(0)) / b.frames;
    const double wr = static_cast<double>(t.dram_write_bytes.value_or(0)) / b.frames;
    const EnergyEstimate en = estimate_energy(ecfg, energy_inputs(t));
    const double uj = en.total_pj / 1e6 / b.frames;   // every term measured on the RTL
    std::printf("%-44s %12.0f %8s %10s %11s %11s %8.1f uJ %7.1f%% %8.0f%% %13s %13s\n", p.label().c_str(), cyc,
                has_base ? fmt::format("{:.2f}x", speedup).c_str() : "-",
                has_base ? fmt::format("{:.0f}%", 100.0 * eff).c_str() : "-", si(rd).c_str(), si(wr).c_str(), uj,
                100.0 * hit, 100.0 * busy, si(rate).c_str(), b.fst ? si(rate_fst).c_str() : "-");
    if (t.two_level)
      std::printf("%-44s   two-level: %llu coarse bins, %llu replays; GMEM read %s, written %s per frame\n", "",
                  static_cast<unsigned long long>(t.two_level->coarse_bins / b.frames),
                  static_cast<unsigned long long>(t.two_level->replays / b.frames),
                  si(static_cast<double>(t.two_level->gmem_load_bytes.value_or(0)) / b.frames).c_str(),
                  si(static_cast<double>(t.two_level->gmem_store_bytes.value_or(0)) / b.frames).c_str());
    // Tessellation (issue 18): what the slices' HS throttle did, per frame.
    const double tpatch = t.tess ? static_cast<double>(t.tess->patches) / b.frames : 0.0;
    const double ttri = t.tess ? static_cast<double>(t.tess->triangles) / b.frames : 0.0;
    const double ttg = t.tess ? static_cast<double>(t.tess->thread_groups) / b.frames : 0.0;
    const double hs_stall = t.throttle ? static_cast<double>(t.throttle->hs_stall_cycles) / b.frames : 0.0;
    const double ds_stall = t.throttle ? static_cast<double>(t.throttle->ds_stall_cycles) / b.frames : 0.0;
    const double hs_lat = t.throttle && t.tess && t.tess->thread_groups
                              ? static_cast<double>(t.throttle->hs_latency_sum) / static_cast<double>(t.tess->thread_groups)
                              : 0.0;
    if (tpatch > 0)
      std::printf("%-44s   tessellation: %s patches, %s thread groups, %s triangles; HS stall %s, DS stall %s "
                  "slice-cycles; HS latency %.0f\n",
                  "", si(tpatch).c_str(), si(ttg).c_str(), si(ttri).c_str(), si(hs_stall).c_str(), si(ds_stall).c_str(),
                  hs_lat);
    // The tile prefetcher (issue 19): its figures, against the same configuration without it.
    uint64_t mem_wait = 0, tex_wait = 0, load_wait = 0;
    for (const auto& sl : t.slices) {
      mem_wait += sl.cycles[2];   // kSliceActivities[2]: memory_wait
      tex_wait += sl.texel_wait_cycles;
      load_wait += sl.load_wait_cycles;
    }
    if (p.prefetch == "off") {
      no_prefetch[p.without_prefetch()] = t;
      no_prefetch_first[p.without_prefetch()] = first_frame_wait;
      bound_curve[p.without_prefetch()].emplace_back(0, static_cast<double>(mem_wait) / b.frames);
    } else if (prefetch_ideal(p.prefetch)) {
      // the curve is the free bound's at one share for every line; the others are printed alone
      if (const IdealBound ib = ideal_bound("--prefetch", p.prefetch); ib.uniform_free())
        bound_curve[p.without_prefetch()].emplace_back(ib.percent, static_cast<double>(mem_wait) / b.frames);
    } else {
      prefetcher_rows[p.without_prefetch()].emplace_back(rows.size(), static_cast<double>(mem_wait) / b.frames);
    }
    const auto off = no_prefetch.find(p.without_prefetch());
    json pf_row = nullptr;
    if (p.prefetch != "off" && !prefetch_ideal(p.prefetch) && t.prefetch) {
      const PrefetchFrameStats& q = *t.prefetch;
      const bool has_off = off != no_prefetch.end() && off->second.slc;
      uint64_t wait_off = 0, tex_off = 0, load_off = 0;
      if (has_off)
        for (const auto& sl : off->second.slices) {
          wait_off += sl.cycles[2];
          tex_off += sl.texel_wait_cycles;
          load_off += sl.load_wait_cycles;
        }
      const std::optional<std::pair<uint64_t, uint64_t>> misses =
          has_off && t.slc ? std::optional(std::pair{off->second.slc->misses, t.slc->misses}) : std::nullopt;
      pf_row = prefetch_json(t.prefetch, misses);
      const double acc = q.lines_filled ? 100.0 * static_cast<double>(q.lines_used) / q.lines_filled : 0.0;
      std::printf("%-44s   prefetch: tiles similar %llu, dissimilar %llu, no history %llu; lines requested %llu, "
                  "filled %llu, dropped %llu, used %llu, evicted unused %llu; accuracy %.1f%%\n",
                  "", static_cast<unsigned long long>(q.tiles_similar), static_cast<unsigned long long>(q.tiles_dissimilar),
                  static_cast<unsigned long long>(q.tiles_no_history), static_cast<unsigned long long>(q.lines_requested),
                  static_cast<unsigned long long>(q.lines_filled), static_cast<unsigned long long>(q.lines_dropped),
                  static_cast<unsigned long long>(q.lines_used), static_cast<unsigned long long>(q.lines_evicted_unused), acc);
      if (has_off) {
        const double cyc_off = static_cast<double>(off->second.cycles) / b.frames;
        const double rd_off = static_cast<double>(off->second.dram_read_bytes.value_or(0)) / b.frames;
        std::printf("%-44s   vs off: memory-wait slice-cycles %s -> %s (%+.1f%%), frame cycles %+.1f%%, SLC demand "
                    "misses %s -> %s (coverage %.1f%%), DRAM read %s per frame (the prefetcher's own: history "
                    "lines and lines it fetched unused)\n",
                    "", si(static_cast<double>(wait_off) / b.frames).c_str(), si(static_cast<double>(mem_wait) / b.frames).c_str(),
                    wait_off ? 100.0 * (static_cast<double>(mem_wait) - wait_off) / wait_off : 0.0,
                    cyc_off ? 100.0 * (cyc - cyc_off) / cyc_off : 0.0, si(static_cast<double>(misses->first)).c_str(),
                    si(static_cast<double>(misses->second)).c_str(),
                    misses->first ? 100.0 * (static_cast<double>(misses->first) - misses->second) / misses->first : 0.0,
                    ((rd >= rd_off ? "+" : "-") + si(std::abs(rd - rd_off))).c_str());
        // The same by cause: the read waits a prefetch can shorten, and the write side's.
        auto per_frame = [&](uint64_t v) { return si(static_cast<double>(v) / b.frames); };
        std::printf("%-44s   memory waits by cause, off -> on: texel %s -> %s, tile load %s -> %s, write side %s -> %s\n",
                    "", per_frame(tex_off).c_str(), per_frame(tex_wait).c_str(), per_frame(load_off).c_str(),
                    per_frame(load_wait).c_str(), per_frame(wait_off - std::min(wait_off, tex_off + load_off)).c_str(),
                    per_frame(mem_wait - std::min(mem_wait, tex_wait + load_wait)).c_str());
        pf_row["memory_wait_cycles_per_frame_off"] = static_cast<double>(wait_off) / b.frames;
        pf_row["texel_wait_cycles_per_frame_off"] = static_cast<double>(tex_off) / b.frames;
        pf_row["load_wait_cycles_per_frame_off"] = static_cast<double>(load_off) / b.frames;
        pf_row["cycles_per_frame_off"] = cyc_off;
        pf_row["dram_read_bytes_per_frame_off"] = rd_off;
      }
      pf_row["memory_wait_cycles_per_frame"] = static_cast<double>(mem_wait) / b.frames;
      pf_row["texel_wait_cycles_per_frame"] = static_cast<double>(tex_wait) / b.frames;
      pf_row["load_wait_cycles_per_frame"] = static_cast<double>(load_wait) / b.frames;
      prefetch_waits[p.without_prefetch()].emplace_back(p.prefetch, mem_wait);
    }
    // The bound (docs/prefetcher.md "The bound"): what no SLC prefetch of these kinds can beat.
    if (prefetch_ideal(p.prefetch)) {
      const IdealBound ib = ideal_bound("--prefetch", p.prefetch);
      pf_row = json{{"ideal", true}, {"ideal_percent", ib.percent},
                    {"ideal_target_percent", ib.target_percent ? ib.target_percent : ib.percent},
                    {"ideal_pays_bus", ib.pays_bus},
                    {"memory_wait_cycles_per_frame", static_cast<double>(mem_wait) / b.frames},
                    {"texel_wait_cycles_per_frame", static_cast<double>(tex_wait) / b.frames},
                    {"load_wait_cycles_per_frame", static_cast<double>(load_wait) / b.frames}};
      if (off != no_prefetch.end()) {
        uint64_t wait_off = 0, tex_off = 0, load_off = 0;
        for (const auto& sl : off->second.slices) {
          wait_off += sl.cycles[2];
          tex_off += sl.texel_wait_cycles;
          load_off += sl.load_wait_cycles;
        }
        const double cyc_off = static_cast<double>(off->second.cycles) / b.frames;
        auto per_frame = [&](uint64_t v) { return si(static_cast<double>(v) / b.frames); };
        auto pct = [](double now, double was) { return was ? 100.0 * (now - was) / was : 0.0; };
        std::printf("%-44s   ideal bound (%s PF_CFG.kinds %u read at once, %s): memory-wait slice-cycles "
                    "%s -> %s (%+.1f%%; texel %s -> %s, tile load %s -> %s), frame cycles %+.1f%%\n",
                    "", ib.describe().c_str(), tune_kinds(b.prefetch_tune),
                    ib.pays_bus ? "their bus time paid" : "no bus time", per_frame(wait_off).c_str(), per_frame(mem_wait).c_str(),
                    pct(static_cast<double>(mem_wait), static_cast<double>(wait_off)), per_frame(tex_off).c_str(),
                    per_frame(tex_wait).c_str(), per_frame(load_off).c_str(), per_frame(load_wait).c_str(),
                    pct(cyc, cyc_off));
        pf_row["memory_wait_cycles_per_frame_off"] = static_cast<double>(wait_off) / b.frames;
        pf_row["texel_wait_cycles_per_frame_off"] = static_cast<double>(tex_off) / b.frames;
        pf_row["load_wait_cycles_per_frame_off"] = static_cast<double>(load_off) / b.frames;
        pf_row["cycles_per_frame_off"] = cyc_off;
        // A prefetcher of last frame's reads has no history in frame 0, so what one could reach
        // is the bound from frame 1 on, with frame 0 as without it (the tile prefetcher's ON
        // runs are measured the same way: frame 0 in their average).
        if (b.frames > 1) {
          const double with_history =
              (static_cast<double>(no_prefetch_first[p.without_prefetch()]) +
               static_cast<double>(mem_wait - std::min(mem_wait, first_frame_wait))) / b.frames;
          std::printf("%-44s   the same from frame 1 on, frame 0 as without the prefetcher (no history yet): "
                      "memory-wait slice-cycles %s (%+.1f%%)\n",
                      "", si(with_history).c_str(), pct(with_history, static_cast<double>(wait_off) / b.frames));
          pf_row["memory_wait_cycles_per_frame_with_history"] = with_history;
        }
        // each prefetcher run of the same configuration: the share of the bound's cut it reached
        // (the whole free bound's; a partial one, ideal:N, is a point of the coverage curve)
        if (ib.whole()) {
          json share = json::object();
          const double bound_cut = static_cast<double>(wait_off) - static_cast<double>(mem_wait);
          for (const auto& [mode, w] : prefetch_waits[p.without_prefetch()]) {
            const double frac = bound_cut > 0 ? (static_cast<double>(wait_off) - static_cast<double>(w)) / bound_cut : 0.0;
            share[mode] = frac;
            std::printf("%-44s   --prefetch %s cut the memory waits by %.0f%% of the bound's cut\n", "", mode.c_str(),
                        100.0 * frac);
          }
          pf_row["share_of_bound"] = share;
        }
      }
    }
    std::fflush(stdout);
    auto opt = [&](double v) { return has_base ? json(v) : json(nullptr); };
    rows.push_back(json{{"slices", p.slices}, {"mode", p.mode}, {"bin_size", p.bin_size}, {"distribution", p.distribution},
                        {"subbatch", p.subbatch}, {"lrz", p.lrz}, {"seed", p.seed}, {"frames", b.frames},
                        {"cycles_per_frame", cyc}, {"speedup", opt(speedup)}, {"efficiency", opt(eff)},
                        {"dram_read_bytes_per_frame", rd}, {"dram_write_bytes_per_frame", wr},
                        {"energy_uj_per_frame", uj}, {"slc_hit_rate", hit},
                        {"busy_max", busy}, {"sim_cycles_per_second", rate},
                        {"sim_cycles_per_second_fst", b.fst ? json(rate_fst) : json(nullptr)},
                        {"throttle", p.throttle}, {"tess_patches_per_frame", tpatch},
                        {"tess_triangles_per_frame", ttri}, {"thread_groups_per_frame", ttg},
                        {"hs_stall_cycles_per_frame", hs_stall}, {"ds_stall_cycles_per_frame", ds_stall},
                        {"average_hs_latency", t.tess && t.tess->thread_groups ? json(hs_lat) : json(nullptr)},
                        {"prefetch_mode", p.prefetch}, {"prefetch", pf_row}});
    auto csv_opt = [&](double v) { return has_base ? fmt::format("{:.4f}", v) : std::string(); };
    csv << fmt::format("{},{},{},{},{},{},{},{},{:.1f},{},{},{:.0f},{:.0f},{:.4f},{:.4f},{:.0f},{},{},{:.0f},{:.0f},{:.0f},"
                       "{:.0f},{:.0f},{:.1f}\n",
                       p.slices, p.mode, p.bin_size, p.distribution, p.subbatch, p.lrz, p.seed, b.frames, cyc,
                       csv_opt(speedup), csv_opt(eff), rd, wr, hit, busy, rate,
                       b.fst ? fmt::format("{:.0f}", rate_fst) : "", p.throttle, tpatch, ttri, ttg, hs_stall, ds_stall,
                       hs_lat);
    dat << fmt::format("{} \"{}\" {:.1f} {:.0f} {:.0f} {:.0f}\n", i, chart_label(p), cyc, rd, wr, rate);
  }
  csv.close();
  dat.close();
  if (!csv || !dat) throw std::runtime_error("cannot write bench.csv");
  // The bound's curve of coverage (off, ideal:N, ideal; docs/prefetcher.md "Why the 30 % is out
  // of reach"): each prefetcher run placed on it, as the share of the lines a perfect prefetch
  // would have to cover for the same memory waits.
  for (auto& [group, curve] : bound_curve) {
    std::sort(curve.begin(), curve.end());
    if (curve.size() < 2 || curve.front().first != 0) continue;  // needs off and a bound
    std::string points;
    for (const auto& [pct, w] : curve)
      points += fmt::format("{}{} {}", points.empty() ? "" : ", ",
                            pct == 0 ? std::string("off") : pct == 100 ? std::string("ideal") : fmt::format("ideal:{}", pct),
                            si(w));
    std::printf("\n%s: the bound's curve, memory-wait slice-cycles per frame: %s\n", group.c_str(), points.c_str());
    for (const auto& [row, w] : prefetcher_rows[group]) {
      // the first segment the run's waits fall in, linearly; at or above off: 0; below the
      // last point: that point's share, at least
      double equiv = 0;
      bool beyond = w < curve.back().second;
      if (beyond) equiv = curve.back().first;
      for (std::size_t k = 0; k + 1 < curve.size() && !beyond; ++k) {
        const auto [p0, w0] = curve[k];
        const auto [p1, w1] = curve[k + 1];
        if (w <= w0 && w >= w1) {
          equiv = w0 > w1 ? p0 + (w0 - w) / (w0 - w1) * (p1 - p0) : p0;
          break;
        }
      }
      rows[row]["prefetch"]["bound_equivalent_percent"] = equiv;
      std::printf("  --prefetch %s: %s, what the bound gives with %s%.0f %% of the lines ideal\n",
                  rows[row]["prefetch_mode"].get<std::string>().c_str(), si(w).c_str(), beyond ? "at least " : "about ",
                  equiv);
    }
  }
  {
    std::ofstream o(stage.tmp("bench.json"));
    o << json{{"tool", "tessera-sim bench"},
              {"scene", json{{"file", scene_path}, {"name", s.name}, {"width", s.width}, {"height", s.height},
                             {"triangles_per_frame", ls.triangles()}}},
              {"frames", b.frames},
              {"knobs", json{{"slices", b.slices}, {"mode", b.mode}, {"bin_size", b.bin_size}, {"distribution", b.distribution},
                             {"subbatch", b.subbatch}, {"lrz", b.lrz}, {"seed", b.seed}, {"prefetch", b.prefetch},
                             {"texture_layout", b.texture_layout}}},
              {"runs", rows}}
             .dump(2)
      << "\n";
    if (!o) throw std::runtime_error("cannot write bench.json");
  }
  // Charts: one bar per configuration.
  {
    std::ofstream gp(stage.tmp(".bench.gp"));
    const int w = 360 + 40 * static_cast<int>(points.size());
    auto chart = [&](const std::string& file, const std::string& title, const std::string& ylabel, const std::string& using_) {
      gp << fmt::format("reset\nset terminal pngcairo size {},560 font 'sans,10'\nset output {}\n", std::max(w, 640),
                        gnuplot_quote(stage.tmp(file).string()));
      gp << fmt::format("set title {}\n", gnuplot_quote(fmt::format("{}: {}, {}x{}, {} frame(s)", title, s.name, s.width,
                                                                     s.height, b.frames)));
      gp << fmt::format("set ylabel '{}'\nset style fill solid 0.8 border -1\nset boxwidth 0.7\nset grid ytics\n", ylabel);
      gp << "set xtics rotate by -35 left font 'sans,8'\nset bmargin 12\nset yrange [0:*]\nset key top left\n";
      gp << fmt::format("plot {} {}\n", gnuplot_quote(stage.tmp(".bench.dat").string()), using_);
    };
    chart("bench_cycles.png", "Cycles per frame", "cycles", "using 1:3:xtic(2) with boxes lc rgb '#1f77b4' notitle");
    chart("bench_dram.png", "DRAM bytes per frame", "bytes",
          "using ($1-0.18):4:xtic(2) with boxes lc rgb '#2ca02c' title 'read', '' using ($1+0.18):5 with boxes lc rgb '#d62728' title 'write'");
    chart("bench_speed.png", "Simulation speed", "simulated cycles per second", "using 1:6:xtic(2) with boxes lc rgb '#9467bd' notitle");
    gp.close();
    if (!gp) throw std::runtime_error("cannot write the bench charts' gnuplot script");
    run_gnuplot(gnuplot, stage.tmp(".bench.gp"), stage.tmp(".bench.log"));
  }
  std::vector<std::pair<fs::path, fs::path>> moves{{stage.tmp("bench.json"), fs::path(b.out) / "bench.json"},
                                                    {stage.tmp("bench.csv"), fs::path(b.out) / "bench.csv"}};
  for (const std::string& c : charts) moves.push_back({stage.tmp(c), fs::path(b.out) / c});
  stage.commit(moves);
  std::printf("\nspeedup = cycles on 1 slice / cycles on K with the other knobs equal (- when 1 slice is not in the\n"
              "sweep); efficiency = speedup / K; busy max = the busiest slice's busy cycles / frame cycles; sim\n"
              "cycles/s = simulated cycles per wall-clock second of this machine (with FST: the whole run dumped).\n");
  std::printf("results:    %s/bench.json, bench.csv; charts %s/bench_cycles.png, bench_dram.png, bench_speed.png\n",
              b.out.c_str(), b.out.c_str());
  return 0;
}

int main(int argc, char** argv) {
  CLI::App app{"tessera-sim: renders YAML scenes through the Tessera GPU (docs/tessera-sim.md)", "tessera-sim"};
  app.require_subcommand(1);
  RunArgs a;
  CLI::App* run = app.add_subcommand("run", "Run a scene's frames through the driver on the RTL (default: the demo scene)");
  run->add_option("scene", a.scene, "Scene YAML (default: scenes/demo/demo.yaml)");
  run->add_option("--frames", a.frames, "Frames to run (default: the scene's)")->check(CLI::Range(1u, 100000u));
  run->add_option("--slices", a.slices, "Geometry/raster slices, 1..8")->check(CLI::Range(1u, 8u))->capture_default_str();
  run->add_option("--mode", a.mode, "Binning mode")->check(CLI::IsMember({"pbb", "two-level", "auto"}))->capture_default_str();
  run->add_option("--policy", a.policy, "Binning policy YAML (--mode auto)")->default_str("driver/config/policy.yaml in the source tree");
  run->add_option("--sensor-trace", a.sensor_trace, "Sensor trace CSV for the policy (--mode auto)");
  run->add_option("--width", a.width, "Screen width, 1..2048 (default: the scene's)")->check(CLI::Range(1u, 2048u));
  run->add_option("--height", a.height, "Screen height, 1..2048 (default: the scene's)")->check(CLI::Range(1u, 2048u));
  run->add_option("--seed", a.seed, "Seed of every random choice in the simulation")->capture_default_str();
  run->add_option("--out", a.out, "Output folder")->capture_default_str();
  run->add_option("--trace", a.trace, "FST waveform file (RTL backend)");
  run->add_option("--trace-start", a.trace_start, "First cycle of the waveform");
  run->add_option("--trace-end", a.trace_end, "Last cycle of the waveform");
  run->add_option("--backend", a.backend, "Device: rtl (verilated GPU) or ref (C++ reference)")
      ->check(CLI::IsMember({"rtl", "ref"}))
      ->capture_default_str();
  run->add_option("--energy", a.energy, "Energy model constants (YAML)")
      ->default_str("sim/tessera-sim/config/energy.yaml in the source tree");
  run->add_option("--memory-mib", a.memory_mib, "GPU memory in MiB (the RTL GPU has 256)")
      ->check(CLI::Range(16u, 4095u))
      ->capture_default_str();
  run->add_option("--distribution", a.distribution, "PC_US sub-batch distribution over the slices")
      ->check(CLI::IsMember({"round-robin", "least-loaded"}))
      ->capture_default_str();
  run->add_option("--slc-ways", a.slc_ways,
                  "Ways the SLC may allocate in (1, 2, 4, 8; default: the scene's gpu.slc_ways, else all)")
      ->check(CLI::IsMember({1u, 2u, 4u, 8u}));
  run->add_option("--subbatch", a.subbatch, "Primitives per PC_US sub-batch")->check(CLI::Range(16u, 1024u))->capture_default_str();
  run->add_option("--bin-size", a.bin_size, "Fine bin (tile) size in pixels")->check(CLI::IsMember({16u, 32u, 64u}))->capture_default_str();
  run->add_option("--lrz", a.lrz, "The raster slices' early depth rejection (LRZ); pictures are the same either way")
      ->check(CLI::IsMember({"on", "off"}))->capture_default_str();
  run->add_option("--throttle", a.throttle, "The slices' hull-shader launch throttle: off (greedy), source (the "
                                            "source's throttle) or cap:N (N thread groups in flight)")
      ->capture_default_str();
  run->add_option("--prefetch", a.prefetch, "The tile prefetcher: off, on (fixed threshold) or adaptive (the "
                                            "threshold follows the SLC hit rate); ideal: its bound, the prefetcher off "
                                            "and the DRAM reading the data of PF_CFG.kinds in no time; ideal:N the same "
                                            "for N % of those lines, ideal:N/G for N % of the texture lines and G % "
                                            "of the target lines; ideal-bus[:N[/G]] the same with the bus time paid; "
                                            "docs/prefetcher.md")
      ->capture_default_str();
  run->add_option("--texture-layout", a.texture_layout, "Scene textures in GPU memory: linear (rows) or tiled (4x4-texel "
                                                        "blocks in Morton order, RASTER.TEX_CTRL.tiled)")
      ->capture_default_str();
  run->add_option("--prefetch-tune", a.prefetch_tune, "The tile prefetcher's tuning, KEY=N,...: threshold, max_lines, "
                                                      "entries, kinds (1 texture, 2 target), window (lines), slots (history lines per "
                                                      "tile: 1, 4, 16, 64), lookahead (1: prefetch one bin ahead, 0: the batch about to render only), blocks (1: "
                                                      "record texel reads as 32-line blocks with a bitmap, 0: as ranges), hit_high, "
                                                      "hit_low (GEOM.PF_CFG, PF_RECORD, PF_ADAPT; default their resets)");
  run->add_option("--tess-stage", a.tess_stage, "The slices' tessellation stage, KEY=N,...: tg (patches per thread "
                                                "group), slots, hs_base, hs_per_patch, ds_wave, rate (default: the "
                                                "GEOM TESS_* resets)");
  run->add_flag("--no-render", a.no_render, "Commands and statistics only, no PNG");
  run->add_flag("--heatmaps", a.heatmaps, "Per frame and pass: PNG heatmaps of primitives, cycles and memory bytes per "
                                          "bin and the tile ownership (gnuplot), and bins.csv (RTL)");
  run->add_option("--timeline", a.timeline, "Chrome trace-event JSON of the slices' bins, stalls, sub-batches and the "
                                            "CP's commands, for Perfetto (RTL; window: --trace-start/--trace-end)");
  run->add_flag("--quiet,-q", a.quiet, "No progress and no summary");
  run->add_flag("--json", a.json, "Print stats.json on stdout instead of the summary and progress (warnings "
                                    "still go to stderr)");

  std::string pol_path = kSourceDir + "/driver/config/policy.yaml", pol_trace;
  bool pol_json = false;
  CLI::App* pol = app.add_subcommand("policy", "Replay a sensor trace through the driver's binning policy");
  pol->add_option("--policy", pol_path, "Binning policy YAML")->default_str("driver/config/policy.yaml in the source tree");
  pol->add_option("--sensor-trace", pol_trace, "Sensor trace CSV")->required();
  pol->add_flag("--json", pol_json, "Machine-readable output");

  BenchArgs ba;
  CLI::App* bench = app.add_subcommand(
      "bench", "Sweep knobs (comma-separated lists, cross product) on the RTL GPU: cycles, scaling, DRAM bytes, "
               "simulation speed; bench.json, bench.csv and charts in --out");
  bench->add_option("scene", ba.scene, "Scene YAML (default: the demo scene)");
  bench->add_option("--frames", ba.frames, "Frames per configuration")->check(CLI::Range(1u, 1000u))->capture_default_str();
  bench->add_option("--width", ba.width, "Screen width (default: the scene's)")->check(CLI::Range(16u, 2048u));
  bench->add_option("--height", ba.height, "Screen height (default: the scene's)")->check(CLI::Range(16u, 2048u));
  bench->add_option("--out", ba.out, "Output folder")->capture_default_str();
  bench->add_option("--slices", ba.slices, "Slice counts (1, 2, 4)")->capture_default_str();
  bench->add_option("--mode,--modes", ba.mode, "Binning modes (pbb, two-level)")->capture_default_str();
  bench->add_option("--bin-size", ba.bin_size, "Bin sizes (16, 32, 64)")->capture_default_str();
  bench->add_option("--distribution", ba.distribution, "PC_US distributions (round-robin, least-loaded)")->capture_default_str();
  bench->add_option("--slc-ways", ba.slc_ways,
                    "Ways the SLC may allocate in (1, 2, 4, 8; default: the scene's gpu.slc_ways, else all)")
      ->check(CLI::IsMember({1u, 2u, 4u, 8u}));
  bench->add_option("--subbatch", ba.subbatch, "Primitives per sub-batch (16..1024)")->capture_default_str();
  bench->add_option("--lrz", ba.lrz, "LRZ (on, off)")->capture_default_str();
  bench->add_option("--throttle", ba.throttle, "HS launch throttles (off, source, cap:N)")->capture_default_str();
  bench->add_option("--prefetch", ba.prefetch, "Tile prefetcher modes (off, on, adaptive, ideal, ideal:N for the bound at "
                                              "N % of the lines, ideal:N/G, ideal-bus[:N[/G]]: see run); list off first for the "
                                              "prefetch figures against it, ideal last for the share of its bound")
      ->capture_default_str();
  bench->add_option("--texture-layout", ba.texture_layout, "Scene textures in GPU memory: linear or tiled (see run)")
      ->capture_default_str();
  bench->add_option("--prefetch-tune", ba.prefetch_tune, "One prefetcher tuning for every run (KEY=N,...; see run)");
  bench->add_option("--tess-stage", ba.tess_stage, "One tessellation-stage setting for every run (KEY=N,...; see run)");
  bench->add_option("--seed", ba.seed, "Seeds")->capture_default_str();
  bench->add_flag("--fst", ba.fst, "Also measure the speed with an FST of the whole run");

  CLI11_PARSE(app, argc, argv);
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGINT, &sa, nullptr);
  ::sigaction(SIGTERM, &sa, nullptr);
  try {
    if (*run) return cmd_run(a);
    if (*bench) return cmd_bench(ba);
    if (*pol) return cmd_policy(pol_path, pol_trace, pol_json);
  } catch (const std::exception& e) {
    if (g_cancel.load() && g_signal != 0) {
      // Everything staged is gone (the stack unwound); die of the signal as the shell expects.
      std::fprintf(stderr, "tessera-sim: interrupted (signal %d): nothing written to --out\n", static_cast<int>(g_signal));
      std::signal(g_signal, SIG_DFL);
      std::raise(g_signal);
    }
    std::fprintf(stderr, "tessera-sim: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
