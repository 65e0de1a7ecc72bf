// Heatmaps, the per-bin table and the timeline of a frame (frame_pictures.hpp).
#include "tessera/sim/frame_pictures.hpp"

#include <fmt/format.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "tessera/driver/pipeline_state.hpp"
#include "tessera_spec.h"

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

namespace tessera::sim {

namespace {
constexpr const char* kActivityNames[kNumActivities] = {"idle",  "input_wait", "memory_wait", "clear",
                                                        "load",  "setup",      "raster",      "store"};
constexpr uint64_t kLineBytes = 64;

}  // namespace

std::string gnuplot_quote(const std::string& s) {
  std::string o = "'";
  for (char c : s) {
    if (c == '\'') o += "''";
    else o += c;
  }
  return o + "'";
}

void run_gnuplot(const std::string& gnuplot, const fs::path& script, const fs::path& log) {
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(fmt::format("cannot start gnuplot: {}", std::strerror(errno)));
  if (pid == 0) {
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      ::dup2(fd, 1);
      ::dup2(fd, 2);
    }
    ::execl(gnuplot.c_str(), gnuplot.c_str(), script.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::ifstream in(log);
    std::string msg((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    throw std::runtime_error(fmt::format("gnuplot failed on {} (exit {}): {}", script.string(),
                                         WIFEXITED(status) ? WEXITSTATUS(status) : -1, msg));
  }
}

std::vector<BinCell> bin_grid(const SliceRecording& rec, unsigned pass, const PassGrid& g) {
  const uint32_t cols = (g.width + g.bin - 1) / g.bin, rows = (g.height + g.bin - 1) / g.bin;
  std::vector<BinCell> cells(static_cast<std::size_t>(cols) * rows);
  for (const BinVisit& b : rec.bins) {
    if (b.pass != pass) continue;
    if (b.tx >= cols || b.ty >= rows)
      throw std::runtime_error(fmt::format("slice {} visited bin ({}, {}) in pass {}, outside its {}x{} target '{}'",
                                           b.slice, b.tx, b.ty, pass, g.width, g.height, g.name));
    BinCell& c = cells[static_cast<std::size_t>(b.ty) * cols + b.tx];
    ++c.visits;
    c.prims += b.prims;
    c.cycles += b.end - b.start;
    c.memory_bytes += (b.line_reads + b.line_writes) * kLineBytes;
  }
  return cells;
}

void write_bins_csv(std::ostream& out, uint32_t frame, const SliceRecording& rec, bool header) {
  if (header) {
    out << "frame,pass,slice,tx,ty,prims,start,end,cycles";
    for (const char* a : kActivityNames) out << ',' << a;
    out << ",line_reads,line_writes,memory_bytes\n";
  }
  for (const BinVisit& b : rec.bins) {
    out << fmt::format("{},{},{},{},{},{},{},{},{}", frame, b.pass, b.slice, b.tx, b.ty, b.prims, b.start, b.end,
                       b.end - b.start);
    for (uint64_t c : b.cycles) out << ',' << c;
    out << fmt::format(",{},{},{}\n", b.line_reads, b.line_writes, (b.line_reads + b.line_writes) * kLineBytes);
  }
}

std::string find_gnuplot() {
  for (const char* dir : {"/usr/bin", "/usr/local/bin", "/bin"}) {
    const fs::path p = fs::path(dir) / "gnuplot";
    if (::access(p.c_str(), X_OK) == 0) return p.string();
  }
  return {};
}

std::vector<std::string> write_heatmaps(const fs::path& dir, uint32_t frame, const SliceRecording& rec,
                                        const std::vector<PassGrid>& passes, unsigned slices,
                                        const std::string& gnuplot) {
  std::vector<std::string> written;
  const fs::path script = dir / fmt::format(".heat_f{:04d}.gp", frame);
  std::ofstream gp(script);
  std::vector<fs::path> data_files;
  for (unsigned p = 0; p < passes.size(); ++p) {
    const PassGrid& g = passes[p];
    const std::vector<BinCell> cells = bin_grid(rec, p, g);
    const uint32_t cols = (g.width + g.bin - 1) / g.bin, rows = (g.height + g.bin - 1) / g.bin;
    // One box per tile in the target's pixel coordinates, clipped to the target.
    const fs::path data = dir / fmt::format(".heat_f{:04d}_p{}.dat", frame, p);
    data_files.push_back(data);
    {
      std::ofstream d(data);
      d << "# x y half_w half_h prims cycles memory_bytes owner visits\n";
      for (uint32_t ty = 0; ty < rows; ++ty)
        for (uint32_t tx = 0; tx < cols; ++tx) {
          const BinCell& c = cells[static_cast<std::size_t>(ty) * cols + tx];
          const double x0 = tx * g.bin, x1 = std::min<double>((tx + 1) * g.bin, g.width);
          const double y0 = ty * g.bin, y1 = std::min<double>((ty + 1) * g.bin, g.height);
          d << fmt::format("{} {} {} {} {} {} {} {} {}\n", (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2, (y1 - y0) / 2,
                           c.prims, c.cycles, c.memory_bytes, driver::tile_owner(slices, tx, ty), c.visits);
        }
      if (!d) throw std::runtime_error(fmt::format("cannot write {}", data.string()));
    }
    // The plot area shows the target at 2x (at least 480 pixels high), the colour box beside it.
    const double scale = std::max(2.0, 480.0 / g.height);
    const int w = static_cast<int>(g.width * scale) + 260, h = static_cast<int>(g.height * scale) + 120;
    struct What {
      const char* key;
      int column;
      std::string label;
    };
    const What whats[] = {{"prims", 5, "primitives per bin (sum of the bitstreams' popcounts)"},
                          {"cycles", 6, "slice cycles per bin (bitstream record to end of store)"},
                          {"bytes", 7, "memory bytes per bin (the slice's 64-byte line requests)"},
                          {"owner", 8, "the slice that owns each tile"}};
    for (const What& wt : whats) {
      const std::string name = fmt::format("heat_f{:04d}_p{}_{}.png", frame, p, wt.key);
      gp << fmt::format("reset\nset terminal pngcairo size {},{} font 'sans,10'\nset output {}\n", w, h,
                        gnuplot_quote((dir / name).string()));
      gp << fmt::format("set title {}\n",
                        gnuplot_quote(fmt::format("frame {}, pass {} '{}' ({}x{}, {}x{} bins, {} slice{}): {}", frame, p,
                                             g.name, g.width, g.height, g.bin, g.bin, slices, slices == 1 ? "" : "s",
                                             wt.label)));
      gp << fmt::format("set xrange [0:{}]\nset yrange [{}:0]\nset size ratio -1\n", g.width, g.height);
      gp << "set xlabel 'x (pixels)'\nset ylabel 'y (pixels)'\nset style fill solid 1.0 noborder\nset tics out\n";
      if (std::string(wt.key) == "owner") {
        gp << fmt::format("set palette maxcolors {}\nset cbrange [-0.5:{}.5]\nset cbtics (", std::max(slices, 1u),
                          std::max(slices, 1u) - 1);
        for (unsigned s = 0; s < std::max(slices, 1u); ++s) gp << fmt::format("{}'slice {}' {}", s ? ", " : "", s, s);
        // One colour per slice: a palette of exactly N points, sampled at N colours.
        static constexpr const char* kColours[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728",
                                                   "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"};
        const unsigned n = std::clamp(slices, 1u, 8u);
        gp << ")\nset cblabel 'owner'\nset palette defined (";
        for (unsigned s = 0; s < std::max(n, 2u); ++s) gp << fmt::format("{}{} '{}'", s ? ", " : "", s, kColours[s % n]);
        gp << ")\n";
      } else {
        uint64_t top = 0;
        for (const BinCell& c : cells)
          top = std::max(top, wt.column == 5 ? c.prims : wt.column == 6 ? c.cycles : c.memory_bytes);
        gp << fmt::format("set palette rgbformulae 30,31,32\nset cbrange [0:{}]\nset cblabel {}\n", std::max<uint64_t>(top, 1),
                          gnuplot_quote(wt.key));
      }
      gp << fmt::format("plot {} using 1:2:3:4:{} with boxxyerror fc palette notitle\n", gnuplot_quote(data.string()),
                        wt.column);
      written.push_back(name);
    }
  }
  gp.close();
  if (!gp) throw std::runtime_error(fmt::format("cannot write {}", script.string()));
  if (!passes.empty()) run_gnuplot(gnuplot, script, dir / fmt::format(".heat_f{:04d}.log", frame));
  std::error_code ec;
  fs::remove(script, ec);
  fs::remove(dir / fmt::format(".heat_f{:04d}.log", frame), ec);
  for (const fs::path& d : data_files) fs::remove(d, ec);
  return written;
}

// ---- timeline ----------------------------------------------------------------------------

namespace {
constexpr int kPid = 1;
constexpr int kTidFrames = 0, kTidCp = 1;
int tid_slice(unsigned k) { return 10 + static_cast<int>(k) * 3; }
int tid_stalls(unsigned k) { return 11 + static_cast<int>(k) * 3; }
int tid_geom(unsigned k) { return 12 + static_cast<int>(k) * 3; }
}  // namespace

TimelineWriter::TimelineWriter(const fs::path& file, unsigned slices, uint64_t w0, uint64_t w1)
    : out_(std::make_unique<std::ofstream>(file)), file_(file), slices_(slices), w0_(w0), w1_(w1) {
  if (!*out_) throw std::runtime_error(fmt::format("--timeline: cannot write '{}': {}", file.string(), std::strerror(errno)));
  *out_ << "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"time_unit\":\"1 us on the axis = 1 GPU cycle\"},"
           "\"traceEvents\":[\n";
  auto meta = [&](int tid, const std::string& name, int order) {
    event(json{{"name", "thread_name"}, {"ph", "M"}, {"pid", kPid}, {"tid", tid}, {"args", {{"name", name}}}}.dump());
    event(json{{"name", "thread_sort_index"}, {"ph", "M"}, {"pid", kPid}, {"tid", tid}, {"args", {{"sort_index", order}}}}
              .dump());
  };
  event(json{{"name", "process_name"}, {"ph", "M"}, {"pid", kPid}, {"args", {{"name", "Tessera GPU (RTL)"}}}}.dump());
  meta(kTidFrames, "frames", 0);
  meta(kTidCp, "CP -> pipeline commands", 1);
  for (unsigned k = 0; k < slices; ++k) {
    meta(tid_geom(k), fmt::format("geometry slice {}: sub-batches", k), 2 + static_cast<int>(k) * 3);
    meta(tid_slice(k), fmt::format("raster slice {}: bins (load, raster, store), clears", k), 3 + static_cast<int>(k) * 3);
    meta(tid_stalls(k), fmt::format("raster slice {}: memory stalls", k), 4 + static_cast<int>(k) * 3);
  }
}

TimelineWriter::~TimelineWriter() = default;

void TimelineWriter::event(const std::string& obj) {
  *out_ << (events_ ? ",\n" : "") << obj;
  ++events_;
}

void TimelineWriter::add_frame(uint32_t frame, const SliceRecording& rec, const std::vector<driver::PipeCommand>& cmds) {
  auto x = [&](int tid, const std::string& name, const char* cat, uint64_t start, uint64_t end, json args) {
    if (!in_window(start, end)) return;
    event(json{{"name", name}, {"cat", cat}, {"ph", "X"}, {"ts", start}, {"dur", end - start}, {"pid", kPid}, {"tid", tid},
               {"args", std::move(args)}}
              .dump());
  };
  x(kTidFrames, fmt::format("frame {}", frame), "frame", rec.start, rec.end, json{{"frame", frame}, {"cycles", rec.end - rec.start}});
  for (const driver::PipeCommand& c : cmds) {
    if (c.cycle < w0_ || c.cycle > w1_) continue;
    json args{{"queue", c.queue}, {"dsid", c.dsid}};
    json a = json::array();
    for (uint32_t v : c.args) a.push_back(fmt::format("0x{:08x}", v));
    args["args"] = a;
    event(json{{"name", ts_pkt_name(c.opcode)}, {"cat", "command"}, {"ph", "i"}, {"s", "t"}, {"ts", c.cycle}, {"pid", kPid},
               {"tid", kTidCp}, {"args", args}}
              .dump());
  }
  for (const BinVisit& b : rec.bins) {
    json cyc = json::object();
    for (unsigned a = 0; a < kNumActivities; ++a) cyc[kActivityNames[a]] = b.cycles[a];
    x(tid_slice(b.slice), fmt::format("bin {},{}", b.tx, b.ty), "bin", b.start, b.end,
      json{{"pass", b.pass}, {"tx", b.tx}, {"ty", b.ty}, {"prims", b.prims}, {"cycles", cyc},
           {"line_reads", b.line_reads}, {"line_writes", b.line_writes}});
    if (b.raster_start > b.start) x(tid_slice(b.slice), "load", "phase", b.start, b.raster_start, json::object());
    if (b.store_start > b.raster_start) x(tid_slice(b.slice), "raster", "phase", b.raster_start, b.store_start, json::object());
    if (b.end > b.store_start) x(tid_slice(b.slice), "store", "phase", b.store_start, b.end, json::object());
  }
  for (const StallSpan& c : rec.clears) x(tid_slice(c.slice), "clear", "clear", c.start, c.end, json{{"cycles", c.cycles}});
  for (const StallSpan& s : rec.stalls)
    x(tid_stalls(s.slice), "memory stall", "stall", s.start, s.end, json{{"cycles", s.cycles}});
  // Sub-batches of one geometry slice overlap (PC_US dispatches the next before the last is
  // done), so they are async events, which may.
  for (const SubBatchSpan& sb : rec.sub_batches) {
    if (!in_window(sb.start, sb.end)) continue;
    const uint64_t id = next_id_++;
    const std::string name = fmt::format("sub-batch ({} prims)", sb.prims);
    event(json{{"name", name}, {"cat", fmt::format("geometry slice {}", sb.slice)}, {"ph", "b"}, {"id", id}, {"ts", sb.start},
               {"pid", kPid}, {"tid", tid_geom(sb.slice)}, {"args", {{"prims", sb.prims}, {"slice", sb.slice}}}}
              .dump());
    event(json{{"name", name}, {"cat", fmt::format("geometry slice {}", sb.slice)}, {"ph", "e"}, {"id", id}, {"ts", sb.end},
               {"pid", kPid}, {"tid", tid_geom(sb.slice)}}
              .dump());
  }
}

void TimelineWriter::close() {
  if (closed_) return;
  closed_ = true;
  *out_ << "\n]}\n";
  out_->flush();
  if (!*out_) throw std::runtime_error(fmt::format("--timeline: writing '{}' failed", file_.string()));
  out_.reset();
}

}  // namespace tessera::sim
