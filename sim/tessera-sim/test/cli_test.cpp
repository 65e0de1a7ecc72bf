// The tessera-sim command line: the policy subcommand, a run's outputs, and bad input giving a
// clear error naming file, line and field, a non-zero exit code and no partial results.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <pty.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tessera/sim/texture.hpp"

namespace fs = std::filesystem;

namespace {

const std::string kSrc = TESSERA_SOURCE_DIR;

struct Out {
  int code = -1;
  std::string out, err;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A fresh folder per test.
fs::path scratch() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const fs::path p = fs::temp_directory_path() / ("tessera_sim_test_" + std::to_string(::getpid())) / info->name();
  fs::remove_all(p);
  fs::create_directories(p);
  return p;
}

Out tessera_sim(const std::string& args, const fs::path& dir) {
  const fs::path o = dir / "stdout.txt", e = dir / "stderr.txt";
  const std::string cmd = std::string(TESSERA_SIM_EXE) + " " + args + " >" + o.string() + " 2>" + e.string();
  const int st = std::system(cmd.c_str());
  Out r;
  r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  r.out = slurp(o);
  r.err = slurp(e);
  return r;
}

void write(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }

// Nothing that looks like a result: no stats.json, no frame PNG, no staging folder.
void expect_no_results(const fs::path& out) {
  if (!fs::exists(out)) return;
  for (const auto& e : fs::directory_iterator(out)) ADD_FAILURE() << "left behind: " << e.path();
}

}  // namespace

// Catches: the policy subcommand not replaying the trace through the driver's policy, or not
// printing each decision with its reason.
TEST(Cli, PolicyReplaysTheSensorTrace) {
  const fs::path d = scratch();
  const Out r = tessera_sim("policy --sensor-trace " + kSrc + "/driver/test/data/thermal_trace.csv", d);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("two-level"), std::string::npos);
  EXPECT_NE(r.out.find("avg_temp"), std::string::npos);  // a reason naming the metric
  std::size_t lines = 0;
  for (char c : r.out) lines += c == '\n';
  EXPECT_EQ(lines, 80u + 2u);  // header lines + one per sample
  const Out j = tessera_sim("policy --json --sensor-trace " + kSrc + "/driver/test/data/thermal_trace.csv", d);
  ASSERT_EQ(j.code, 0);
  const auto js = nlohmann::json::parse(j.out);
  EXPECT_EQ(js["decisions"].size(), 80u);
}

// Catches: an unreadable or malformed sensor trace accepted or reported without file and line.
TEST(Cli, BadSensorTrace) {
  const fs::path d = scratch();
  Out r = tessera_sim("policy --sensor-trace " + (d / "missing.csv").string(), d);
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find((d / "missing.csv").string()), std::string::npos) << r.err;
  write(d / "bad.csv", "time_s,temp.gpu\n0.0,50\n1.0,hot\n");
  r = tessera_sim("policy --sensor-trace " + (d / "bad.csv").string(), d);
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find((d / "bad.csv").string() + ":3:5: column 'temp.gpu'"), std::string::npos) << r.err;
  r = tessera_sim("run --no-render --backend ref --mode auto --sensor-trace " + (d / "bad.csv").string() + " --out " +
                      (d / "out").string(),
                  d);
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("bad.csv:3:5"), std::string::npos) << r.err;
  expect_no_results(d / "out");
}

// Catches: a run's stats.json missing, not parsing, disagreeing with --json's output, totals
// not summing the frames, or keys the docs promise missing.
TEST(Cli, RunWritesStatsJson) {
  const fs::path d = scratch();
  const Out r = tessera_sim("run --no-render --backend ref --frames 2 --width 64 --height 48 --json --out " +
                                (d / "out").string(),
                            d);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "");  // --json: nothing but the JSON
  const auto printed = nlohmann::json::parse(r.out);
  const auto file = nlohmann::json::parse(slurp(d / "out" / "stats.json"));
  EXPECT_EQ(printed, file);
  ASSERT_EQ(file["frames"].size(), 2u);
  uint64_t cycles = 0, draws = 0;
  for (const auto& f : file["frames"]) {
    cycles += f["cycles"].get<uint64_t>();
    draws += f["geometry"]["draws"].get<uint64_t>();
    EXPECT_EQ(f["binning_mode"], "pbb");
    EXPECT_EQ(f["slices"].size(), 4u);
    EXPECT_TRUE(f["dram"]["read_bytes"].is_null());  // the reference device has no memory system
    EXPECT_TRUE(f["dram"]["write_bytes"].is_null());
  }
  EXPECT_EQ(file["total"]["cycles"].get<uint64_t>(), cycles);
  EXPECT_EQ(file["total"]["geometry"]["draws"].get<uint64_t>(), draws);
  EXPECT_EQ(file["total"]["dsid"]["deletes"].get<uint64_t>(), 2u);
  EXPECT_EQ(file["run"]["backend"], "ref");
  // The reference backend measures no energy term: the total is unknown, not 0 pJ.
  EXPECT_TRUE(file["total"]["energy"]["total_pj"].is_null()) << file["total"]["energy"];
  for (const auto& e : fs::directory_iterator(d / "out"))
    EXPECT_TRUE(e.path().filename() == "stats.json" || e.path().filename() == ".tessera-sim-files") << e.path();
  EXPECT_EQ(slurp(d / "out" / ".tessera-sim-files"), "stats.json\n");
}

// Catches: the RTL run's statistics disagreeing with the blocks' counters, or the summary and
// waveform missing. One frame on the RTL with an FST window.
TEST(Cli, RtlRunSummaryAndWaveform) {
  const fs::path d = scratch();
  const Out r = tessera_sim("run --no-render --frames 1 --width 64 --height 48 --trace " + (d / "w.fst").string() +
                                " --trace-start 0 --trace-end 2000 --out " + (d / "out").string(),
                            d);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("total"), std::string::npos);
  EXPECT_NE(r.err.find("frame 1/1"), std::string::npos);
  EXPECT_TRUE(fs::exists(d / "w.fst"));
  EXPECT_GT(fs::file_size(d / "w.fst"), 0u);
  const auto j = nlohmann::json::parse(slurp(d / "out" / "stats.json"));
  const auto& t = j["total"];
  EXPECT_EQ(t["slc"]["hits"].get<uint64_t>() + t["slc"]["misses"].get<uint64_t>(),
            t["slc"]["reads"].get<uint64_t>() + t["slc"]["writes"].get<uint64_t>());
  EXPECT_EQ(t["dram"]["read_bytes"].get<uint64_t>(), 64 * t["slc"]["fills"].get<uint64_t>());
  EXPECT_EQ(t["dram"]["write_bytes"].get<uint64_t>(), 64 * t["slc"]["writebacks"].get<uint64_t>());
  EXPECT_GT(t["energy"]["total_pj"].get<double>(), 0.0);
}

// Catches (issue 14 item 6): the DSID_DELETE saving not showing where the user looks, or an
// SLC too small for it. A demo-like frame (a pass renders into a 256x128 target, the next
// samples it, the frame deletes it): stats.json's dsid.dram_write_bytes_saved and the
// summary's "wr saved" column must show more bytes than a 128 KiB SLC (the old default) could
// hold, so only a larger SLC passes. Small screen and 1 slice: about 2 s of RTL.
TEST(Cli, RenderToTextureDeleteSavesMoreThanTheOldSlcHeld) {
  const fs::path d = scratch();
  write(d / "rt.yaml", R"(name: rt
frames: 1
target: {width: 32, height: 32}
camera: {position: [0, 0, 3], look_at: [0, 0, 0]}
meshes:
  box: {generate: cube, size: 1.0}
  quad: {generate: grid, size: 2.4, divisions: 1}
targets:
  rt: {width: 256, height: 128}
passes:
  - {name: rt, target: rt, depth: {test: off, write: false},
     draws: [{mesh: box, scale: 0.2, rotation: [30, 40, 0], lit: false}]}
  - {name: main, draws: [{mesh: quad, rotation: [90, 0, 0], texture: rt, lit: false}]}
)");
  const Out r = tessera_sim("run --backend rtl --slices 1 --no-render " + (d / "rt.yaml").string() +
                                " --out " + (d / "out").string(),
                            d);
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(slurp(d / "out" / "stats.json"));
  const auto& dsid = j["frames"][0]["dsid"];
  ASSERT_TRUE(dsid.contains("dram_write_bytes_saved")) << dsid.dump();
  const uint64_t saved = dsid["dram_write_bytes_saved"].get<uint64_t>();
  EXPECT_GT(saved, 128u << 10) << "one delete cannot drop more dirty bytes than the SLC holds";
  EXPECT_EQ(saved, 64 * dsid["deleted_dirty_lines"].get<uint64_t>());
  // The summary: a "wr saved" column, and frame 0's row showing the bytes as the summary
  // formats them (kB: saved is between 128 KiB and 1 MB here).
  EXPECT_NE(r.out.find("wr saved"), std::string::npos) << r.out;
  const std::string shown = fmt::format("{:.1f}kB", static_cast<double>(saved) / 1e3);
  const auto row = r.out.find("\n     0 ");
  ASSERT_NE(row, std::string::npos) << r.out;
  const std::string line = r.out.substr(row + 1, r.out.find('\n', row + 1) - row - 1);
  EXPECT_NE(line.find(" " + shown + " "), std::string::npos) << "frame 0's row: " << line;
}

// Catches (issue 14 item 1): the warning about a load of a never-written target dropped with
// --json (it used to be printed only with the summary). stdout must stay pure JSON, the warning
// goes to stderr and into stats.json's "warnings"; --quiet keeps it in stats.json only.
TEST(Cli, WarningsReachStderrAndStatsJsonWithJson) {
  const fs::path d = scratch();
  write(d / "acc.yaml", R"(frames: 1
target: {width: 32, height: 32}
targets: {rt: {width: 16, height: 16}}
passes:
  - {name: acc, target: rt, color_load: load, draws: [{mesh: {generate: cube, size: 0.5}}]}
  - {name: main, draws: [{mesh: {generate: cube}, texture: rt}]}
)");
  const std::string warning = (d / "acc.yaml").string() +
                              ":5:5: passes[0]: pass 'acc' loads target 'rt' before any pass of "
                              "the frame renders it";
  Out r = tessera_sim("run --backend ref --no-render --json " + (d / "acc.yaml").string() +
                          " --out " + (d / "out").string(),
                      d);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("tessera-sim: warning: " + warning), std::string::npos) << r.err;
  const auto printed = nlohmann::json::parse(r.out);  // stdout: the JSON alone
  ASSERT_EQ(printed["warnings"].size(), 1u) << printed["warnings"].dump();
  EXPECT_EQ(printed["warnings"][0].get<std::string>().rfind(warning, 0), 0u) << printed["warnings"];
  EXPECT_EQ(printed, nlohmann::json::parse(slurp(d / "out" / "stats.json")));

  r = tessera_sim("run --backend ref --no-render --quiet " + (d / "acc.yaml").string() +
                      " --out " + (d / "quiet").string(),
                  d);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(nlohmann::json::parse(slurp(d / "quiet" / "stats.json"))["warnings"].size(), 1u);
}

struct Bad {
  const char* what;
  std::string args;      // after "run --no-render --backend ref --out DIR"
  std::string scene;     // written to DIR/s.yaml when not empty
  std::string expected;  // in stderr
};

// Catches: bad input accepted, reported without file/line/field, a zero exit code, or partial
// results left in the output folder.
TEST(Cli, BadInputIsRejectedClearly) {
  const fs::path d = scratch();
  const std::string data = TESSERA_SCENE_TEST_DATA;
  const std::string s = (d / "s.yaml").string();
  const std::vector<Bad> cases = {
      {"malformed scene", s, "passes: [\n  {draws: [}\n", s + ":2:12: malformed YAML"},
      {"missing scene", (d / "none.yaml").string(), "", (d / "none.yaml").string() + ":0:0: file not found"},
      {"missing mesh", s, "passes:\n  - draws:\n      - mesh: cube.obj\n",
       s + ":3:15: passes[0].draws[0].mesh: file 'cube.obj' not found"},
      {"corrupt mesh", s, "passes:\n  - draws:\n      - mesh: " + data + "/corrupt.obj\n",
       s + ":3:15: passes[0].draws[0].mesh: file '" + data + "/corrupt.obj' is not a readable mesh"},
      {"corrupt texture", s, "passes:\n  - draws: [{mesh: {generate: cube}, texture: " + data + "/corrupt.png}]\n",
       s + ":2:47: passes[0].draws[0].texture: file '" + data + "/corrupt.png' is not a readable image"},
      {"0 slices", "--slices 0", "", "--slices: Value 0 not in range"},
      {"huge target", "--width 100000 --height 100000", "", "--width: Value 100000 not in range"},
      {"huge target in the scene", s, "target: {width: 100000, height: 100000}\npasses: []\n",
       s + ":1:17: target.width: 100000 is outside 1..2048"},
      {"auto without trace", "--mode auto", "", "--mode auto needs --sensor-trace"},
      {"trace on ref", "--trace x.fst", "", "--trace: waveforms come from the RTL"},
      {"unknown throttle", "--throttle greedy", "", "--throttle: 'greedy' is not one of off, source, cap:N"},
      {"throttle cap 0", "--throttle cap:0", "", "--throttle: 'cap:0': the cap must be a whole number of thread groups in 1..31"},
      {"throttle cap above the field", "--throttle cap:32", "", "'cap:32': the cap must be"},
      {"throttle cap not a number", "--throttle cap:x", "", "'cap:x': the cap must be"},
      {"tess-stage unknown key", "--tess-stage slots=8,warp=4", "", "--tess-stage: unknown key 'warp'"},
      {"tess-stage not a number", "--tess-stage slots=many", "", "--tess-stage: 'slots=many' is not KEY=N"},
      {"tess-stage slots out of range", "--tess-stage slots=40", "",
       "tessellation slots 40 outside 2..16 (GEOM.TESS_SHADER.slots)"},
      {"tess-stage DS latency out of range", "--tess-stage ds_wave=5000", "", "DS latency per wave 5000 outside 0..4095"},
      {"prefetch-tune unknown key", "--prefetch on --prefetch-tune slots=16,ways=2", "", "--prefetch-tune: unknown key 'ways'"},
      {"unknown prefetch mode", "--prefetch perfect", "", "--prefetch: 'perfect' is not one of off, on, adaptive, ideal"},
      {"prefetch bound on ref", "--prefetch ideal", "",
       "--prefetch ideal: the bound changes DRAM timing, so it needs --backend rtl"},
      {"partial bound on ref", "--prefetch ideal:50", "",
       "--prefetch ideal:50: the bound changes DRAM timing, so it needs --backend rtl"},
      {"partial bound of 0 %", "--prefetch ideal:0", "",
       "--prefetch: 'ideal:0': the shares must be whole percentages of the lines in 1..100 (ideal:N, or ideal:N/G "
       "for the textures' N and the targets' G; ideal-bus the same)"},
      {"partial bound above 100 %", "--prefetch ideal:101", "", "'ideal:101': the shares must be"},
      {"partial bound not a number", "--prefetch ideal:most", "", "'ideal:most': the shares must be"},
      {"targets' share missing", "--prefetch ideal:78/", "", "'ideal:78/': the shares must be"},
      {"targets' share of 0 %", "--prefetch ideal:78/0", "", "'ideal:78/0': the shares must be"},
      {"two targets' shares", "--prefetch ideal:78/100/5", "", "'ideal:78/100/5': the shares must be"},
      {"bus-paid bound above 100 %", "--prefetch ideal-bus:200", "", "'ideal-bus:200': the shares must be"},
      {"bus-paid bound without a share", "--prefetch ideal-bus:", "", "'ideal-bus:': the shares must be"},
      {"bus-paid bound on ref", "--prefetch ideal-bus:78/100", "",
       "--prefetch ideal-bus:78/100: the bound changes DRAM timing, so it needs --backend rtl"},
      {"prefetch-tune slots not a power of 4", "--prefetch on --prefetch-tune slots=8", "",
       "--prefetch-tune 'slots=8': prefetcher: history_slots = 8 is not 1, 4, 16 or 64"},
      {"prefetch-tune lookahead not a bit", "--prefetch on --prefetch-tune lookahead=2", "",
       "--prefetch-tune: lookahead = 2 is not 0 or 1"},
      {"prefetch-tune blocks not a bit", "--prefetch on --prefetch-tune blocks=3", "",
       "--prefetch-tune: blocks = 3 is not 0 or 1"},
  };
  for (const Bad& c : cases) {
    const fs::path out = d / "out";
    fs::remove_all(out);
    fs::remove(d / "s.yaml");
    if (!c.scene.empty()) write(d / "s.yaml", c.scene);
    const Out r = tessera_sim("run --no-render --backend ref --out " + out.string() + " " + c.args, d);
    EXPECT_NE(r.code, 0) << c.what;
    EXPECT_NE(r.err.find(c.expected), std::string::npos) << c.what << ": " << r.err;
    expect_no_results(out);
  }
}

#ifdef TESSERA_HAVE_REF_RENDER
// Catches: the RTL backend's pictures differing from the reference backend's (the RTL GPU
// renders them; the reference renderer renders the other), the per-slice statistics missing
// or inconsistent with the slice count, and an unsupported slice count for the RTL accepted.
TEST(Cli, RtlPicturesEqualTheReferencePictures) {
  const fs::path d = scratch();
  const std::string common = " --frames 2 --slices 2 --width 64 --height 48 --quiet";
  Out r = tessera_sim("run --backend rtl" + common + " --out " + (d / "rtl").string(), d);
  ASSERT_EQ(r.code, 0) << r.err;
  r = tessera_sim("run --backend ref" + common + " --out " + (d / "ref").string(), d);
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* n : {"frame_0000.png", "frame_0001.png"}) {
    ASSERT_TRUE(fs::exists(d / "rtl" / n)) << n;
    EXPECT_EQ(slurp(d / "rtl" / n), slurp(d / "ref" / n)) << n << " differs";
  }
  const auto j = nlohmann::json::parse(slurp(d / "rtl" / "stats.json"));
  EXPECT_EQ(j["run"]["renderer"], "rtl");
  const auto& sl = j["total"]["slices"];
  ASSERT_EQ(sl.size(), 2u);
  uint64_t frags = 0, busy = 0, texel_wait = 0, load_wait = 0;
  for (const auto& s : sl) {
    frags += s["fragments"].get<uint64_t>();
    busy = std::max(busy, s["busy_cycles"].get<uint64_t>());
    // slices[k].cycles: the eight activities, adding up to the run's cycles.
    uint64_t sum = 0;
    for (const char* k : {"idle", "input_wait", "memory_wait", "clear", "load", "setup", "raster", "store"}) {
      ASSERT_TRUE(s["cycles"].contains(k)) << k << " missing from slices[].cycles: " << s.dump();
      sum += s["cycles"][k].get<uint64_t>();
    }
    EXPECT_EQ(sum, j["total"]["cycles"].get<uint64_t>());
    // slices[k].memory_wait_causes: the memory waits split into read and write causes.
    const auto& mw = s["memory_wait_causes"];
    EXPECT_EQ(mw["texel"].get<uint64_t>() + mw["tile_load"].get<uint64_t>() + mw["write_side"].get<uint64_t>(),
              s["cycles"]["memory_wait"].get<uint64_t>())
        << s.dump();
    texel_wait += mw["texel"].get<uint64_t>();
    load_wait += mw["tile_load"].get<uint64_t>();
  }
  // the demo textures its geometry and loads tiles between batches: both read causes occur
  EXPECT_GT(texel_wait, 0u);
  EXPECT_GT(load_wait, 0u);
  EXPECT_GT(frags, 64u * 48u);  // the screen is covered, with overdraw
  EXPECT_LE(busy, j["total"]["cycles"].get<uint64_t>());
  EXPECT_TRUE(j["total"]["energy"]["missing_terms"].empty()) << j["total"]["energy"].dump();

  r = tessera_sim("run --backend rtl --slices 3 --out " + (d / "three").string(), d);
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("--slices 3: the RTL GPU is built with 1, 2 or 4 slices"), std::string::npos) << r.err;
  expect_no_results(d / "three");
  // Target widths the RTL's line-granular tile store cannot hold, on the command line and in
  // the scene, are refused before anything runs (the reference backend takes them).
  r = tessera_sim("run --backend rtl --width 100 --height 48 --out " + (d / "w100").string(), d);
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("screen width 100: the RTL raster slices need a target width that is a multiple of 16 "
                       "pixels (docs/raster.md \"RB\"); use --width 112"),
            std::string::npos)
      << r.err;
  expect_no_results(d / "w100");
  const fs::path scene = d / "odd.yaml";
  write(scene, "target: {width: 64, height: 48}\ntargets:\n  tex: {width: 40, height: 40}\n"
               "passes:\n  - {target: tex, draws: [{mesh: {generate: cube}}]}\n"
               "  - {draws: [{mesh: {generate: cube}}]}\n");
  r = tessera_sim("run --backend rtl " + scene.string() + " --out " + (d / "odd").string(), d);
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find(scene.string() + ":3:8: targets.tex.width: 40: the RTL raster slices need"), std::string::npos)
      << r.err;
  expect_no_results(d / "odd");
  r = tessera_sim("run --no-render --backend ref --frames 1 " + scene.string() + " --out " + (d / "odd_ref").string(), d);
  EXPECT_EQ(r.code, 0) << r.err;
}
#endif

#ifdef TESSERA_HAVE_REF_RENDER
// Catches: the reference backend's frames not written, of the wrong size, empty (only the clear
// color), or not animated; the previous run's frames left next to a shorter run's.
TEST(Cli, RefBackendWritesAPngPerFrame) {
  const fs::path d = scratch();
  const fs::path out = d / "out";
  Out r = tessera_sim("run --backend ref --frames 3 --width 64 --height 48 --quiet --out " + out.string(), d);
  ASSERT_EQ(r.code, 0) << r.err;
  r = tessera_sim("run --backend ref --frames 2 --width 64 --height 48 --out " + out.string(), d);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("frame_0001.png"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(out / "frame_0002.png"));  // from the first run: removed
  std::vector<tessera::sim::Texture> frames;
  for (const char* n : {"frame_0000.png", "frame_0001.png"}) {
    ASSERT_TRUE(fs::exists(out / n)) << n;
    frames.push_back(tessera::sim::load_texture_file((out / n).string()));
    EXPECT_EQ(frames.back().width, 64u);
    EXPECT_EQ(frames.back().height, 48u);
  }
  // The demo clears the screen to (0.55, 0.70, 0.90): many pixels must differ from it.
  std::size_t drawn = 0;
  for (std::size_t i = 0; i < frames[0].rgba.size(); i += 4)
    drawn += !(frames[0].rgba[i] == 140 && frames[0].rgba[i + 1] == 179 && frames[0].rgba[i + 2] == 230);
  EXPECT_GT(drawn, 64u * 48u / 4) << "too few pixels drawn";
  EXPECT_NE(frames[0].rgba, frames[1].rgba) << "the camera orbit does not show";
  const auto j = nlohmann::json::parse(slurp(out / "stats.json"));
  EXPECT_EQ(j["run"]["render"], true);
  EXPECT_EQ(j["run"]["renderer"], "tessera_ref_render");
}
#endif

// Catches (issue 14 item 7): outputs that fail only after the whole simulation, or leave files
// behind. Each case must be refused before anything is simulated (no progress line), with the
// option and the reason, exit 1, and no result in --out: --trace into a missing folder or onto
// a folder, a scene path that is not UTF-8 (it goes into stats.json).
TEST(Cli, OutputsAreCheckedBeforeSimulating) {
  const fs::path d = scratch();
  const fs::path out = d / "out";
  Out r = tessera_sim("run --no-render --frames 1 --width 64 --height 48 --trace " + (d / "no" / "w.fst").string() +
                          " --out " + out.string(), d);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("--trace: the folder '" + (d / "no").string() + "' does not exist"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("frame 1/1"), std::string::npos) << "simulated before refusing";
  expect_no_results(out);

  r = tessera_sim("run --no-render --frames 1 --width 64 --height 48 --trace " + d.string() + " --out " + out.string(), d);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("is a folder"), std::string::npos) << r.err;
  expect_no_results(out);

  const fs::path latin1 = d / "sc\xe8ne.yaml";  // "scene" with a Latin-1 e-grave: not UTF-8
  fs::copy_file(kSrc + "/scenes/demo/demo.yaml", latin1);
  r = tessera_sim("run --backend ref --no-render --frames 1 --out " + out.string() + " '" + latin1.string() + "'", d);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("the scene path is not valid UTF-8"), std::string::npos) << r.err;
  expect_no_results(out);
}

// Catches: --out removing or overwriting files tessera-sim did not write (it used to delete any
// stats.json and frame_*.png), and staging folders of killed runs staying forever.
TEST(Cli, OutRemovesOnlyWhatTesseraSimWrote) {
  const fs::path d = scratch();
  const fs::path out = d / "out";
  fs::create_directories(out);
  write(out / "frame_0000.png", "mine");
  write(out / "notes.txt", "mine too");
  Out r = tessera_sim("run --backend ref --frames 1 --width 64 --height 48 --quiet --out " + out.string(), d);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("'frame_0000.png' exists and was not written by tessera-sim"), std::string::npos) << r.err;
  EXPECT_EQ(slurp(out / "frame_0000.png"), "mine");

  fs::remove(out / "frame_0000.png");
  const fs::path stale = out / ".tessera-sim-partial-999999999";  // no such process
  fs::create_directories(stale);
  write(stale / "stats.json", "{}");
  r = tessera_sim("run --backend ref --frames 2 --width 64 --height 48 --quiet --out " + out.string(), d);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_FALSE(fs::exists(stale)) << "the killed run's staging folder stays";
  r = tessera_sim("run --backend ref --frames 1 --width 64 --height 48 --quiet --out " + out.string(), d);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(fs::exists(out / "frame_0000.png"));
  EXPECT_FALSE(fs::exists(out / "frame_0001.png")) << "the previous run's extra frame stays";
  EXPECT_EQ(slurp(out / "notes.txt"), "mine too");
}

namespace {

// An RTL run interrupted by `sig` mid-frame must die of that signal within a few seconds and
// leave --out without results or staging folder.
void expect_signal_cleans_up(int sig) {
  const fs::path d = scratch();
  const fs::path out = d / "out";
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const std::string o = out.string(), e = (d / "stderr.txt").string();
    std::freopen(e.c_str(), "w", stderr);
    ::execl(TESSERA_SIM_EXE, TESSERA_SIM_EXE, "run", "--no-render", "--frames", "4", "--out", o.c_str(), nullptr);
    ::_exit(127);
  }
  // Wait until the run has staged its folder (the simulation has started), then interrupt it.
  const auto t0 = std::chrono::steady_clock::now();
  auto staged = [&] {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(out, ec))
      if (e.path().filename().string().rfind(".tessera-sim-partial-", 0) == 0) return true;
    return false;
  };
  while (!staged() && std::chrono::steady_clock::now() - t0 < std::chrono::seconds(60))
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ASSERT_TRUE(staged()) << slurp(d / "stderr.txt");
  std::this_thread::sleep_for(std::chrono::seconds(3));  // past the device's set-up: inside frame 0
  ::kill(pid, sig);
  int st = 0;
  const auto t1 = std::chrono::steady_clock::now();
  ASSERT_EQ(::waitpid(pid, &st, 0), pid);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
  EXPECT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == sig)
      << "status " << st << ": " << slurp(d / "stderr.txt");
  EXPECT_LT(secs, 10.0) << "the run did not stop promptly";
  const std::string said = "interrupted (signal " + std::to_string(sig) + ")";
  EXPECT_NE(slurp(d / "stderr.txt").find(said), std::string::npos) << slurp(d / "stderr.txt");
  expect_no_results(out);
}

}  // namespace

// Catches: SIGINT leaving .tessera-sim-partial-<pid>/ behind, or a run that ignores it until the
// end of the simulation.
TEST(Cli, SigintCleansUpAndDiesOfTheSignal) { expect_signal_cleans_up(SIGINT); }

// Catches (issue 14 item 7): the same for SIGTERM, what `kill` and job schedulers send.
TEST(Cli, SigtermCleansUpAndDiesOfTheSignal) { expect_signal_cleans_up(SIGTERM); }

// Catches (issue 14 item 7): a scene *name* that is not UTF-8 (it goes into stats.json) found
// only when the JSON is written after every frame was simulated. It must be refused before the
// first cycle, naming the scene file, with no result in --out.
TEST(Cli, NonUtf8SceneNameIsRefusedBeforeSimulating) {
  const fs::path d = scratch();
  write(d / "s.yaml",
        "name: \"sc\xe8ne\"\nframes: 1\npasses:\n  - draws: [{mesh: {generate: cube}}]\n");
  const Out r = tessera_sim("run --backend ref --no-render " + (d / "s.yaml").string() + " --out " +
                                (d / "out").string(),
                            d);
  EXPECT_EQ(r.code, 1);
  const std::string said = (d / "s.yaml").string() + ": the scene name is not valid UTF-8";
  EXPECT_NE(r.err.find(said), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("frame 1/1"), std::string::npos) << "simulated before refusing";
  expect_no_results(d / "out");
}

// Catches (issue 14 item 7): an --out that cannot be created failing after the simulation, or
// without naming the option. Permissions do not stop root, so the folder's parent is a regular
// file: nobody can create a folder there.
TEST(Cli, UnwritableOutIsRefusedBeforeSimulating) {
  const fs::path d = scratch();
  write(d / "file", "not a folder");
  if (!fs::is_regular_file(d / "file")) GTEST_SKIP() << "cannot create a regular file in " << d;
  const fs::path out = d / "file" / "out";
  const Out r =
      tessera_sim("run --no-render --frames 1 --width 64 --height 48 --out " + out.string(), d);
  EXPECT_EQ(r.code, 1);
  const std::string said = "--out: cannot create the folder '" + out.string() + "'";
  EXPECT_NE(r.err.find(said), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("frame 1/1"), std::string::npos) << "simulated before refusing";
  EXPECT_EQ(slurp(d / "file"), "not a folder");
}

// Catches (issue 14 item 4): --memory-mib above what the RTL GPU models hold failing with the
// device's raw "RtlDevice: memory_bytes ..." instead of an error naming the option and the
// limit, before anything runs; the reference backend still takes it.
TEST(Cli, MemoryAboveTheRtlModelsIsRefusedNamingTheOption) {
  const fs::path d = scratch();
  Out r = tessera_sim("run --backend rtl --no-render --frames 1 --width 64 --height 48 "
                      "--memory-mib 512 --out " + (d / "rtl").string(),
                      d);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("tessera-sim: error: --memory-mib 512: the RTL GPU models have 256 MiB of "
                       "memory"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("RtlDevice"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("frame 1/1"), std::string::npos) << "simulated before refusing";
  expect_no_results(d / "rtl");
  r = tessera_sim("run --backend ref --no-render --frames 1 --width 64 --height 48 "
                  "--memory-mib 512 --quiet --out " + (d / "ref").string(),
                  d);
  EXPECT_EQ(r.code, 0) << r.err;
}

namespace {

// stats.json's keys in the order written: objects as "a.b", an array of objects by its first
// element as "name[k]", anything else (numbers, strings, null, arrays of strings) a leaf.
void flatten(const nlohmann::ordered_json& j, const std::string& path,
             std::vector<std::string>& out) {
  if (j.is_object()) {
    for (const auto& [k, v] : j.items()) flatten(v, path.empty() ? k : path + "." + k, out);
  } else if (j.is_array() && !j.empty() && j.front().is_object()) {
    flatten(j.front(), path + "[k]", out);
  } else {
    out.push_back(path);
  }
}

}  // namespace

// Catches (issue 14, prevention): docs/tessera-sim.md's stats.json table disagreeing with
// what tessera-sim writes: a key missing from the table, a documented key no longer written,
// or the table's order not the file's (the table says the keys appear in its order). A frame
// object's keys are compared with the rows from frames[i].frame on (written without the
// "frames[i]." prefix); `total` repeats them and is one row.
TEST(Cli, StatsJsonKeysAreDocumentedInOrder) {
  const fs::path d = scratch();
  const Out r = tessera_sim("run --backend rtl --slices 1 --no-render --frames 1 --width 32 "
                            "--height 32 --quiet --out " + (d / "out").string(),
                            d);
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::ordered_json::parse(slurp(d / "out" / "stats.json"));
  std::vector<std::string> written;
  for (const auto& [k, v] : j.items()) {
    if (k == "frames") {
      written.push_back("frames");
      flatten(v.at(0), "", written);
    } else if (k == "total") {
      written.push_back("total");
    } else {
      flatten(v, k, written);
    }
  }
  // The table: the backticked keys of the first column, from "## stats.json" to the next "## ".
  const std::string doc = slurp(kSrc + "/docs/tessera-sim.md");
  const auto from = doc.find("\n## stats.json\n");
  ASSERT_NE(from, std::string::npos);
  std::istringstream table(doc.substr(from, doc.find("\n## ", from + 1) - from));
  std::vector<std::string> documented;
  for (std::string line; std::getline(table, line);) {
    if (line.rfind("| `", 0) != 0) continue;
    const std::string cell = line.substr(2, line.find(" | ") - 2);
    for (std::size_t a = cell.find('`'); a != std::string::npos; a = cell.find('`', a + 1)) {
      const std::size_t b = cell.find('`', a + 1);
      std::string key = cell.substr(a + 1, b - a - 1);
      if (key.rfind("frames[i].", 0) == 0) key = key.substr(10);
      documented.push_back(key);
      a = b;
    }
  }
  ASSERT_FALSE(documented.empty());
  // Each written key is documented by itself or by its enclosing object's row (the longest
  // documented prefix); the rows they map to never go backwards.
  std::vector<bool> used(documented.size(), false);
  std::size_t last = 0;
  for (const std::string& w : written) {
    std::size_t best = documented.size(), best_len = 0;
    for (std::size_t i = 0; i < documented.size(); ++i) {
      const std::string& k = documented[i];
      if ((w == k || w.rfind(k + ".", 0) == 0) && k.size() >= best_len)
        best = i, best_len = k.size();
    }
    if (best == documented.size()) {
      ADD_FAILURE() << "stats.json key '" << w << "' is not in docs/tessera-sim.md's table";
      continue;
    }
    EXPECT_GE(best, last) << "'" << w << "' is written after '" << documented[last]
                          << "' but documented before it";
    last = std::max(last, best);
    used[best] = true;
  }
  for (std::size_t i = 0; i < documented.size(); ++i) {
    bool is_object = false;  // an object's own row (e.g. `slc`: null on ref) may cover nothing
    for (const std::string& k : documented) is_object |= k.rfind(documented[i] + ".", 0) == 0;
    EXPECT_TRUE(used[i] || is_object) << "documented key '" << documented[i] << "' is not written";
  }
}

// Catches: --help showing an absolute path of the build machine as a default.
TEST(Cli, HelpShowsNoBuildMachinePath) {
  const fs::path d = scratch();
  for (const char* sub : {"run", "policy"}) {
    const Out r = tessera_sim(std::string(sub) + " --help", d);
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.out.find(kSrc), std::string::npos) << sub << " --help:\n" << r.out;
  }
}

// ---- the architect's workbench (issue 20): heatmaps, the per-bin table, the timeline, progress

namespace {

// Counts the heatmap PNGs of a run and checks each is a PNG (signature and a non-empty size).
std::size_t count_pngs(const fs::path& out, const std::string& prefix) {
  std::size_t n = 0;
  for (const auto& e : fs::directory_iterator(out)) {
    const std::string name = e.path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    const std::string bytes = slurp(e.path());
    EXPECT_GT(bytes.size(), 1000u) << name;
    EXPECT_EQ(bytes.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8)) << name;
    ++n;
  }
  return n;
}

std::vector<std::map<std::string, std::string>> read_csv(const fs::path& p) {
  std::ifstream in(p);
  std::string line;
  std::vector<std::string> keys;
  std::vector<std::map<std::string, std::string>> rows;
  auto split = [](const std::string& l) {
    std::vector<std::string> f;
    std::stringstream ss(l);
    for (std::string x; std::getline(ss, x, ',');) f.push_back(x);
    if (!l.empty() && l.back() == ',') f.push_back("");   // an empty last field
    return f;
  };
  if (std::getline(in, line)) keys = split(line);
  while (std::getline(in, line)) {
    const auto f = split(line);
    EXPECT_EQ(f.size(), keys.size()) << line;
    std::map<std::string, std::string> r;
    for (std::size_t i = 0; i < keys.size() && i < f.size(); ++i) r[keys[i]] = f[i];
    rows.push_back(r);
  }
  return rows;
}

}  // namespace

// Catches: heatmaps, bins.csv or the timeline that do not add up to the run's own counters
// (a bin lost or counted twice, cycles or primitives attributed to the wrong slice, stalls
// dropped), a missing picture, or a timeline Perfetto cannot parse.
TEST(Workbench, HeatmapsBinsAndTimelineAddUpToTheCounters) {
  const fs::path d = scratch();
  const fs::path out = d / "out", tl = d / "timeline.json";
  const Out r = tessera_sim(fmt::format("run --width 96 --height 64 --frames 2 --slices 2 --heatmaps --timeline {} --out {}",
                                        tl.string(), out.string()),
                            d);
  ASSERT_EQ(r.code, 0) << r.err;
  const auto stats = nlohmann::json::parse(slurp(out / "stats.json"));
  const unsigned passes = stats["scene"]["passes"].get<unsigned>();
  ASSERT_GE(passes, 1u);
  EXPECT_EQ(count_pngs(out, "heat_f"), 2u * passes * 4u);

  const auto rows = read_csv(out / "bins.csv");
  const auto trace = nlohmann::json::parse(slurp(tl));
  ASSERT_TRUE(trace.contains("traceEvents"));
  const auto& ev = trace["traceEvents"];
  for (unsigned f = 0; f < 2; ++f)
    for (unsigned k = 0; k < 2; ++k) {
      const auto& sl = stats["frames"][f]["slices"][k];
      uint64_t bins = 0, prims = 0, reads = 0, cycles = 0, act_sum = 0;
      for (const auto& row : rows) {
        if (std::stoul(row.at("frame")) != f || std::stoul(row.at("slice")) != k) continue;
        ++bins;
        prims += std::stoull(row.at("prims"));
        reads += std::stoull(row.at("line_reads"));
        cycles += std::stoull(row.at("cycles"));
        for (const char* a : {"idle", "input_wait", "memory_wait", "clear", "load", "setup", "raster", "store"})
          act_sum += std::stoull(row.at(a));
        // Each bin's load and store fit in its activity counters.
        EXPECT_LE(std::stoull(row.at("load")), sl["cycles"]["load"].get<uint64_t>());
      }
      SCOPED_TRACE(fmt::format("frame {} slice {}", f, k));
      EXPECT_GT(bins, 0u);
      EXPECT_EQ(bins, sl["bins"].get<uint64_t>());
      EXPECT_EQ(prims, sl["bin_primitives"].get<uint64_t>());
      EXPECT_EQ(reads, sl["line_reads"].get<uint64_t>());   // tile loads and texels happen inside bins
      EXPECT_EQ(act_sum, cycles);
      EXPECT_LE(cycles, stats["frames"][f]["cycles"].get<uint64_t>());
    }
  // The timeline: per slice, as many bin events as bins rendered in the run, with the same
  // primitives; the memory stalls' cycles equal the memory_wait counters.
  for (unsigned k = 0; k < 2; ++k) {
    uint64_t bins = 0, prims = 0, stall = 0, want_bins = 0, want_prims = 0, want_stall = 0;
    for (unsigned f = 0; f < 2; ++f) {
      const auto& sl = stats["frames"][f]["slices"][k];
      want_bins += sl["bins"].get<uint64_t>();
      want_prims += sl["bin_primitives"].get<uint64_t>();
      want_stall += sl["cycles"]["memory_wait"].get<uint64_t>();
    }
    const int slice_tid = 10 + static_cast<int>(k) * 3, stall_tid = 11 + static_cast<int>(k) * 3;
    for (const auto& e : ev) {
      if (e.value("cat", "") == "bin" && e["tid"] == slice_tid) {
        ++bins;
        prims += e["args"]["prims"].get<uint64_t>();
        EXPECT_EQ(e["ph"], "X");
      }
      if (e.value("cat", "") == "stall" && e["tid"] == stall_tid) stall += e["args"]["cycles"].get<uint64_t>();
    }
    EXPECT_EQ(bins, want_bins) << "slice " << k;
    EXPECT_EQ(prims, want_prims) << "slice " << k;
    EXPECT_EQ(stall, want_stall) << "slice " << k;
  }
  // Sub-batches: every begin has its end, and PC_US dispatched every primitive of the draws.
  std::map<uint64_t, int> open;
  uint64_t sb_prims = 0, frames = 0;
  for (const auto& e : ev) {
    if (e["ph"] == "b") {
      ++open[e["id"].get<uint64_t>()];
      sb_prims += e["args"]["prims"].get<uint64_t>();
    }
    if (e["ph"] == "e") --open[e["id"].get<uint64_t>()];
    if (e.value("cat", "") == "frame") ++frames;
  }
  for (const auto& [id, n] : open) EXPECT_EQ(n, 0) << "sub-batch " << id;
  EXPECT_EQ(frames, 2u);
  EXPECT_GT(sb_prims, 0u);
  EXPECT_NE(r.out.find("timeline:"), std::string::npos);
}

// Catches: a --trace-start/--trace-end window the timeline ignores.
TEST(Workbench, TimelineKeepsToTheCycleWindow) {
  const fs::path d = scratch();
  const fs::path tl = d / "t.json";
  const Out r = tessera_sim(fmt::format("run --width 64 --height 32 --frames 1 --slices 1 --no-render --timeline {} "
                                        "--trace-start 5000 --trace-end 9000 --out {}",
                                        tl.string(), (d / "out").string()),
                            d);
  ASSERT_EQ(r.code, 0) << r.err;
  const auto trace = nlohmann::json::parse(slurp(tl));
  std::size_t timed = 0;
  for (const auto& e : trace["traceEvents"]) {
    if (e["ph"] == "M") continue;
    const uint64_t ts = e["ts"].get<uint64_t>(), dur = e.value("dur", uint64_t{0});
    if (e["ph"] != "e") {
      EXPECT_LE(ts, 9000u) << e.dump();   // an async end may lie past the window
    }
    if (e["ph"] != "e" && e["ph"] != "b") {
      EXPECT_GE(ts + dur, 5000u) << e.dump();
    }
    ++timed;
  }
  EXPECT_GT(timed, 0u);
}

// Catches: a heatmap or timeline request that cannot be honoured found only after the
// simulation (or never): each is refused before anything runs, naming the option.
TEST(Workbench, BadPicturePathsAreRefusedBeforeSimulating) {
  const fs::path d = scratch();
  const Out a = tessera_sim(fmt::format("run --backend ref --heatmaps --out {}", (d / "o1").string()), d);
  EXPECT_EQ(a.code, 1);
  EXPECT_NE(a.err.find("--heatmaps"), std::string::npos) << a.err;
  const Out b = tessera_sim(fmt::format("run --timeline {} --out {}", (d / "missing" / "t.json").string(), (d / "o2").string()), d);
  EXPECT_EQ(b.code, 1);
  EXPECT_NE(b.err.find("--timeline"), std::string::npos) << b.err;
  EXPECT_NE(b.err.find("does not exist"), std::string::npos) << b.err;
  const Out c = tessera_sim(fmt::format("run --timeline {} --out {}", d.string(), (d / "o3").string()), d);
  EXPECT_EQ(c.code, 1);
  EXPECT_NE(c.err.find("is a folder"), std::string::npos) << c.err;
  for (const char* o : {"o1", "o2", "o3"}) expect_no_results(d / o);
}

// Catches: no progress inside a frame on a terminal (the user waits a minute on a silent
// screen), or a progress line without the share of primitives, the speed or the time left.
TEST(Workbench, ProgressLineOnAPseudoTerminal) {
  const fs::path d = scratch();
  const std::string o = (d / "out").string();
  int master = -1;
  const pid_t pid = ::forkpty(&master, nullptr, nullptr, nullptr);
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::execl(TESSERA_SIM_EXE, TESSERA_SIM_EXE, "run", "--no-render", "--width", "96", "--height", "64", "--frames", "1",
            "--slices", "1", "--out", o.c_str(), nullptr);
    ::_exit(127);
  }
  std::string text;
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(master, buf, sizeof buf);
    if (n <= 0) break;   // EIO once the child is gone
    text.append(buf, static_cast<std::size_t>(n));
  }
  int st = 0;
  ASSERT_EQ(::waitpid(pid, &st, 0), pid);
  ::close(master);
  ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0) << text;
  EXPECT_NE(text.find("% of primitives"), std::string::npos) << text;
  EXPECT_NE(text.find("cycles/s  left: "), std::string::npos) << text;
  EXPECT_NE(text.find("\rframe 1/1"), std::string::npos) << text;
  // Not on a terminal: no progress line inside the frame (one line per frame, as before).
  const Out plain = tessera_sim(fmt::format("run --no-render --width 96 --height 64 --frames 1 --slices 1 --out {}", o), d);
  ASSERT_EQ(plain.code, 0) << plain.err;
  EXPECT_EQ(plain.err.find("% of primitives"), std::string::npos) << plain.err;
}

// Catches: a sweep that does not run the cross product, a speed-up against the wrong baseline,
// bench.json / bench.csv that disagree with each other, or missing charts.
TEST(Workbench, BenchSweepsTheCrossProductAndWritesJsonCsvAndCharts) {
  const fs::path d = scratch();
  const fs::path out = d / "bench";
  // A cube rather than the demo: the sweep's bookkeeping is under test, not the
  // frame, and eight RTL runs of the demo took 15 s.
  std::ofstream(d / "cube.yaml") << "target: {width: 32, height: 16}\npasses:\n  - draws:\n      - mesh: {generate: cube}\n";
  const Out r = tessera_sim(fmt::format("bench {} --slices 1,2 --lrz on,off --bin-size 16,32 --out {}",
                                        (d / "cube.yaml").string(), out.string()),
                            d);
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  const auto j = nlohmann::json::parse(slurp(out / "bench.json"));
  const auto& runs = j["runs"];
  ASSERT_EQ(runs.size(), 8u);
  std::set<std::string> seen;
  for (const auto& x : runs) {
    seen.insert(fmt::format("{} {} {}", x["slices"].get<int>(), x["lrz"].get<std::string>(), x["bin_size"].get<int>()));
    EXPECT_GT(x["cycles_per_frame"].get<double>(), 0.0);
    if (x["slices"] == 1) {
      EXPECT_DOUBLE_EQ(x["speedup"].get<double>(), 1.0);
    }
    // The speed-up is against the 1-slice run with the same other knobs.
    for (const auto& y : runs)
      if (x["slices"] == 2 && y["slices"] == 1 && y["lrz"] == x["lrz"] && y["bin_size"] == x["bin_size"]) {
        EXPECT_NEAR(x["speedup"].get<double>(), y["cycles_per_frame"].get<double>() / x["cycles_per_frame"].get<double>(), 1e-9);
      }
  }
  EXPECT_EQ(seen.size(), 8u);
  const auto rows = read_csv(out / "bench.csv");
  ASSERT_EQ(rows.size(), 8u);
  for (std::size_t i = 0; i < rows.size(); ++i)
    EXPECT_NEAR(std::stod(rows[i].at("cycles_per_frame")), runs[i]["cycles_per_frame"].get<double>(), 0.1);
  EXPECT_EQ(count_pngs(out, "bench_"), 3u);
  // One table row per configuration, printed as it finished.
  std::size_t lines = 0;
  for (std::size_t p = r.out.find("\nn"); p != std::string::npos; p = r.out.find("\nn", p + 1)) ++lines;
  EXPECT_EQ(lines, 8u) << r.out;
}

// The tile prefetcher's benchmark figures (issue 19; docs/prefetcher.md "Figures"): a prefetcher
// run's figures against the same configuration without it, and the bound, whole and at a share
// of the lines (ideal:N), with the share of its cut each prefetcher run reached. Catches: the
// share ignored (ideal:50 as good as the whole bound) or never applied (no better than off),
// figures compared against another run than the list's `off`, the share of the bound printed
// for a partial bound, and the printed figures missing; a bound with the bus time paid or with
// the targets' share apart (ideal-bus:50/100) not saving anything, taken into the curve, or
// reported as another bound; the bound "from frame 1 on" not between the bound and off.
TEST(Workbench, BenchPrintsThePrefetchFiguresAndTheBoundsCurve) {
  const fs::path d = scratch();
  const fs::path out = d / "bench";
  // The prefetch scene's floor and a box, small: the bench's bookkeeping is under test.
  std::ofstream(d / "pf.yaml") << "gpu: {slc_ways: 1}\ntarget: {width: 96, height: 64}\n"
                                  "camera: {position: [0, 3.0, 7.0], look_at: [0, 0.3, 0], fov_y: 55, near: 0.5, far: 40,\n"
                                  "         orbit: {axis: [0, 1, 0], center: [0, 0, 0], degrees_per_frame: 1.5}}\n"
                                  "textures: {tiles: " + kSrc + "/scenes/prefetch/tiles.png, dots: " + kSrc +
                                  "/scenes/prefetch/dots.png}\n"
                                  "meshes: {floor: {generate: grid, size: 12, divisions: 12}, box: {generate: cube, size: 1.4}}\n"
                                  "passes:\n  - depth: {test: less, write: true}\n    draws:\n"
                                  "      - {mesh: floor, texture: tiles}\n"
                                  "      - {mesh: box, texture: dots, position: [1.7, 0.7, -0.6]}\n";
  const Out r = tessera_sim(fmt::format("bench {} --slices 2 --frames 2 --prefetch off,on,ideal:50,ideal-bus:50/100,ideal "
                                        "--texture-layout tiled --out {}",
                                        (d / "pf.yaml").string(), out.string()),
                            d);
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  const auto j = nlohmann::json::parse(slurp(out / "bench.json"));
  const auto& runs = j["runs"];
  ASSERT_EQ(runs.size(), 5u);
  const auto& on = runs[1]["prefetch"];
  const auto& half = runs[2]["prefetch"];
  const auto& paid = runs[3]["prefetch"];
  const auto& whole = runs[4]["prefetch"];
  ASSERT_TRUE(on.is_object() && half.is_object() && paid.is_object() && whole.is_object()) << j.dump(1);
  EXPECT_TRUE(runs[0]["prefetch"].is_null()) << "off has no prefetch figures";
  EXPECT_GT(on["lines_requested"].get<double>(), 0.0) << "the prefetcher ran";
  const double off_waits = on["memory_wait_cycles_per_frame_off"].get<double>();
  EXPECT_GT(off_waits, 0.0);
  EXPECT_EQ(half["ideal_percent"], 50);
  EXPECT_EQ(whole["ideal_percent"], 100);
  for (const auto* b : {&half, &whole})
    EXPECT_DOUBLE_EQ((*b)["memory_wait_cycles_per_frame_off"].get<double>(), off_waits) << "against the list's off run";
  const double half_waits = half["memory_wait_cycles_per_frame"].get<double>();
  const double whole_waits = whole["memory_wait_cycles_per_frame"].get<double>();
  EXPECT_LT(half_waits, off_waits) << "half the lines ideal saves something";
  EXPECT_LT(whole_waits, half_waits) << "all of them save more";
  EXPECT_FALSE(half.contains("share_of_bound")) << "the share is of the whole bound's cut";
  // ideal-bus:50/100: half the texture lines and every target line, their bus time paid
  EXPECT_EQ(paid["ideal_pays_bus"], true);
  EXPECT_EQ(whole["ideal_pays_bus"], false);
  EXPECT_EQ(paid["ideal_percent"], 50);
  EXPECT_EQ(paid["ideal_target_percent"], 100);
  EXPECT_EQ(half["ideal_target_percent"], 50);
  EXPECT_LT(paid["memory_wait_cycles_per_frame"].get<double>(), off_waits) << "a bound with the bus paid saves too";
  EXPECT_FALSE(paid.contains("share_of_bound"));
  EXPECT_NE(r.out.find("ideal bound (50 % of the texture lines and 100 % of the target lines of PF_CFG.kinds 3 read "
                       "at once, their bus time paid)"),
            std::string::npos)
      << r.out;
  // from frame 1 on: frame 0 as off, so between the bound and off
  const double whole_history = whole["memory_wait_cycles_per_frame_with_history"].get<double>();
  EXPECT_GT(whole_history, whole_waits) << "frame 0 has no history";
  EXPECT_LT(whole_history, off_waits);
  EXPECT_NE(r.out.find("the same from frame 1 on, frame 0 as without the prefetcher (no history yet): memory-wait "
                       "slice-cycles"),
            std::string::npos)
      << r.out;
  ASSERT_TRUE(whole.contains("share_of_bound"));
  const double on_waits = on["memory_wait_cycles_per_frame"].get<double>();
  EXPECT_NEAR(whole["share_of_bound"]["on"].get<double>(), (off_waits - on_waits) / (off_waits - whole_waits), 1e-9);
  EXPECT_NE(r.out.find("ideal bound (50 % of the lines of PF_CFG.kinds 3"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("ideal bound (the data of PF_CFG.kinds 3"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--prefetch on cut the memory waits by"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("vs off: memory-wait slice-cycles"), std::string::npos) << r.out;
  // ON placed on the curve off (0 %), ideal:50, ideal (100 %), linearly within its segment
  ASSERT_GT(on_waits, whole_waits);
  const double equiv = on["bound_equivalent_percent"].get<double>();
  const double want = on_waits >= off_waits   ? 0.0
                      : on_waits >= half_waits ? 50.0 * (off_waits - on_waits) / (off_waits - half_waits)
                                               : 50.0 + 50.0 * (half_waits - on_waits) / (half_waits - whole_waits);
  EXPECT_NEAR(equiv, want, 1e-9);
  const std::size_t curve_at = r.out.find("the bound's curve, memory-wait slice-cycles per frame: off ");
  ASSERT_NE(curve_at, std::string::npos) << r.out;
  const std::size_t points_at = r.out.find(": off ", curve_at) + 2;
  const std::string points = r.out.substr(points_at, r.out.find('\n', points_at) - points_at);
  EXPECT_EQ(std::count(points.begin(), points.end(), ','), 2) << "off, ideal:50, ideal alone: " << points;
  const std::size_t on_line = r.out.find("\n  --prefetch on: ");
  ASSERT_NE(on_line, std::string::npos) << r.out;
  EXPECT_NE(r.out.find(fmt::format(", what the bound gives with about {:.0f} % of the lines ideal\n", equiv), on_line),
            std::string::npos)
      << r.out;
}

// Catches: an invalid value in a sweep found after hours of the valid ones.
TEST(Workbench, BenchRefusesAnInvalidSweepValueBeforeRunning) {
  const fs::path d = scratch();
  for (const auto& [args, said] : std::vector<std::pair<std::string, std::string>>{
           {"--slices 1,3", "--slices: 3 is not one of 1, 2, 4"},
           {"--bin-size 32,48", "--bin-size: 48 is not one of 16, 32, 64"},
           {"--lrz on,maybe", "--lrz: 'maybe' is not one of on, off"},
           {"--subbatch 8", "--subbatch: 8 is outside 16..1024"},
           {"--seed 1,x", "--seed '1,x': 'x' is not a number"},
           {"--slices 1,,2", "an empty value"},
           {"--mode pbb,three-level", "--mode: 'three-level' is not one of pbb, two-level"},
           {"--throttle off,source,cap:99", "--throttle: 'cap:99': the cap must be"},
           {"--throttle off,lazy", "--throttle: 'lazy' is not one of off, source, cap:N"}}) {
    const Out r = tessera_sim(fmt::format("bench {} --out {}", args, (d / "o").string()), d);
    EXPECT_EQ(r.code, 1) << args;
    EXPECT_NE(r.err.find(said), std::string::npos) << args << ": " << r.err;
    EXPECT_EQ(r.out.find("cycles/frame"), std::string::npos) << args << ": ran before refusing";
  }
  expect_no_results(d / "o");
}

// Catches (issue 20 item 6): the two backends' stats.json differing in shape (a key one of
// them leaves out), a value the reference cannot measure written as 0 instead of null, or
// per-pass and per-draw figures that do not add up to the frame's.
TEST(Workbench, BothBackendsWriteTheSameKeys) {
  const fs::path d = scratch();
  std::map<std::string, nlohmann::ordered_json> runs;
  for (const char* backend : {"rtl", "ref"}) {
    const fs::path out = d / backend;
    const Out r = tessera_sim(fmt::format("run --backend {} --slices 2 --no-render --frames 1 --width 48 --height 32 "
                                          "--quiet --out {}",
                                          backend, out.string()),
                              d);
    ASSERT_EQ(r.code, 0) << backend << ": " << r.err;
    runs[backend] = nlohmann::ordered_json::parse(slurp(out / "stats.json"));
  }
  std::vector<std::string> rtl_keys, ref_keys;
  flatten(runs["rtl"], "", rtl_keys);
  flatten(runs["ref"], "", ref_keys);
  EXPECT_EQ(rtl_keys, ref_keys);
  const auto& ref0 = runs["ref"]["frames"][0];
  const auto& rtl0 = runs["rtl"]["frames"][0];
  // Unmeasured is null, never 0.
  EXPECT_TRUE(ref0["dram"]["read_bytes"].is_null());
  EXPECT_TRUE(ref0["slc"]["hits"].is_null());
  for (const auto& sl : ref0["slices"])
    for (const auto& [k, v] : sl.items())
      if (k == "cycles" || k == "memory_wait_causes") {
        for (const auto& [ck, cv] : v.items())   // objects of counts: every count null
          EXPECT_TRUE(cv.is_null()) << "ref slices[" << sl["slice"] << "]." << k << "." << ck << " = " << cv;
      } else if (k != "slice") {
        EXPECT_TRUE(v.is_null()) << "ref slices[" << sl["slice"] << "]." << k << " = " << v;
      }
  EXPECT_FALSE(rtl0["dram"]["read_bytes"].is_null());
  EXPECT_FALSE(rtl0["slices"][1]["bins"].is_null());
  // Per pass and per draw add up to the frame, on both backends.
  for (const auto* f : {&ref0, &rtl0}) {
    uint64_t draws = 0, tris = 0, dtris = 0;
    uint64_t last = 0;
    for (const auto& p : (*f)["passes"]) {
      draws += p["draws"].get<uint64_t>();
      tris += p["triangles_out"].get<uint64_t>();
      ASSERT_FALSE(p["begin_cycle"].is_null());
      EXPECT_LE(p["begin_cycle"].get<uint64_t>(), p["end_cycle"].get<uint64_t>());
      EXPECT_GE(p["begin_cycle"].get<uint64_t>(), last);
      last = p["end_cycle"].get<uint64_t>();
      EXPECT_TRUE(p["bins"].is_null());   // no slice recording in this run
    }
    for (const auto& dr : (*f)["draws"]) {
      dtris += dr["triangles_out"].get<uint64_t>();
      EXPECT_EQ(dr["issue_cycle"].is_null(), dr["indices"].get<uint64_t>() == 0) << dr.dump();
    }
    EXPECT_EQ(draws, (*f)["geometry"]["draws"].get<uint64_t>());
    EXPECT_EQ(tris, (*f)["geometry"]["triangles_out"].get<uint64_t>());
    EXPECT_EQ(dtris, tris);
  }
  // The two backends plan the same draws.
  EXPECT_EQ(ref0["draws"], [&] {
    auto x = rtl0["draws"];
    for (std::size_t i = 0; i < x.size(); ++i) x[i]["issue_cycle"] = ref0["draws"][i]["issue_cycle"];
    return x;
  }());
}

// Issue 17: --mode auto applies the policy's decision per frame, any mix of modes. The trace's
// second sample has the battery at 10 % (a two-level condition), the third is charging again.
// Catches: auto refusing two-level frames, a frame run in the wrong mode or with the stats of
// another, two-level frames whose pictures differ from the same frames run PBB.
TEST(Cli, AutoModeSwitchesBinningPerFrame) {
  const fs::path d = scratch();
  {
    std::ofstream t(d / "trace.csv");
    t << "time_s,temp.gpu,temp.cpu,temp.battery,power_w,soc_pct,charging,gpu_clock_mhz,counter.gpu_busy_pct\n"
         "0.0,50.0,48.0,30.0,5.0,80.0,0,800,60\n"
         "1.0,50.0,48.0,30.0,5.0,10.0,0,800,60\n"
         "5.0,50.0,48.0,30.0,5.0,90.0,1,800,60\n";
  }
  const std::string common = "run --backend ref --frames 3 --width 128 --height 96 --quiet --out ";
  const Out a = tessera_sim(common + (d / "auto").string() + " --mode auto --sensor-trace " + (d / "trace.csv").string(), d);
  ASSERT_EQ(a.code, 0) << a.err;
  const Out p = tessera_sim(common + (d / "pbb").string(), d);
  ASSERT_EQ(p.code, 0) << p.err;
  std::ifstream in(d / "auto" / "stats.json");
  const auto js = nlohmann::json::parse(in);
  const std::vector<std::string> want = {"pbb", "two-level", "pbb"};
  for (std::size_t f = 0; f < 3; ++f) {
    SCOPED_TRACE(f);
    const auto& fr = js["frames"][f];
    EXPECT_EQ(fr["binning_mode"], want[f]);
    EXPECT_EQ(fr["two_level"].is_null(), want[f] == "pbb");
    EXPECT_NE(fr["policy_reason"].get<std::string>().find(want[f] == "pbb" ? "PBB" : "battery_soc"), std::string::npos);
    if (want[f] == "two-level") {
      EXPECT_GT(fr["two_level"]["replays"].get<uint64_t>(), 0u);
      EXPECT_GT(fr["two_level"]["primitives_skipped"].get<uint64_t>(), 0u) << "the reference drops primitives";
    }
    const std::string png = fmt::format("frame_{:04d}.png", f);
    EXPECT_TRUE(fs::exists(d / "auto" / png));
    EXPECT_EQ(slurp(d / "auto" / png), slurp(d / "pbb" / png)) << png << " differs from PBB";
  }
}

// Catches (issue 19 item 7): the scene's gpu.slc_ways not reaching the SLC's WAY_LIMIT (the
// system cache would keep all its ways: no extra fills), --slc-ways not overriding the scene's
// key, run.slc_ways not recorded, or a picture that depends on it. The option and the key end
// in the same run setting (scene_runner: the option, else the key), so the RTL runs take the
// key, the longer path; the override is checked on the reference backend (a third RTL run of
// this frame cost 5 s).
TEST(Cli, SlcWaysLimitTheSystemCache) {
  const fs::path d = scratch();
  // a cube at 320x240: 600 KiB of colour and depth, which one way of the 2 MiB SLC (256 KiB)
  // cannot hold while eight can
  const std::string cube = "target: {width: 320, height: 240}\npasses:\n  - draws:\n      - mesh: {generate: cube}\n";
  {
    std::ofstream(d / "cube.yaml") << cube;
    std::ofstream(d / "one_way.yaml") << "gpu: {slc_ways: 1}\n" << cube;
  }
  const std::string common = "run --backend rtl --frames 1 --quiet --out ";
  const Out all = tessera_sim(common + (d / "all").string() + " " + (d / "cube.yaml").string(), d);
  ASSERT_EQ(all.code, 0) << all.err;
  const Out one = tessera_sim(common + (d / "one").string() + " " + (d / "one_way.yaml").string(), d);
  ASSERT_EQ(one.code, 0) << one.err;
  const Out over = tessera_sim("run --backend ref --frames 1 --quiet --out " + (d / "over").string() +
                                   " --slc-ways 2 " + (d / "one_way.yaml").string(),
                               d);
  ASSERT_EQ(over.code, 0) << over.err;
  auto stats = [&](const char* run) {
    std::ifstream in(d / run / "stats.json");
    return nlohmann::json::parse(in);
  };
  const auto ja = stats("all"), jo = stats("one"), jv = stats("over");
  EXPECT_EQ(ja["run"]["slc_ways"].get<uint32_t>(), 0u);
  EXPECT_EQ(jo["run"]["slc_ways"].get<uint32_t>(), 1u);
  EXPECT_EQ(jv["run"]["slc_ways"].get<uint32_t>(), 2u) << "--slc-ways must override the scene's key";
  EXPECT_EQ(ja["frames"][0]["slc"]["writebacks"].get<uint64_t>(), 0u) << "eight ways hold the frame";
  EXPECT_GT(jo["frames"][0]["slc"]["writebacks"].get<uint64_t>(), 1000u) << "one way must evict the targets' lines";
  EXPECT_EQ(slurp(d / "one" / "frame_0000.png"), slurp(d / "all" / "frame_0000.png")) << "the cache changed the picture";
}
