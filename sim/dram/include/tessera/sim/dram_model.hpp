// DramModel: the C++ DRAM behind the GPU's AXI4 master (ARCHITECTURE.md 3, "external
// memory"): an AXI4 slave with configurable latency, bandwidth and outstanding limit, sparse
// storage for the whole 4 GiB space, byte counters, and a backdoor for the host.
//
// Cycle based and independent of any test harness: call clock_edge() once per rising edge
// with the master's outputs as sampled at that edge (the values driven during the cycle the
// edge ends), then drive the returned slave outputs for the next cycle. docs/axi-and-dram.md
// has the full timing model; in short:
//   - Latency: a read accepted (AR handshake) at edge t is serviced on the data bus at edge
//     t when the bus is free, and its R beat may complete at edge t + latency (RVALID is
//     driven during the cycle before that edge). A write is accepted when both its AW and
//     its last W beat have been received; B follows the same rule.
//   - Bandwidth: reads and writes share one data bus of bytes_per_cycle; each beat occupies
//     64 bytes of it (a line at the default 32 bytes/cycle takes 2 cycles). When the bus is
//     busy, transactions queue and their responses move back accordingly.
//   - Memory effects happen at service: a read returns the memory as of its service, a write
//     is applied at its service (before its B response), so the backdoor shows it from then.
//   - Outstanding: reads and writes count from their AR/AW handshake to their last R / B
//     handshake. At a limit (shared and/or per direction) ARREADY/AWREADY go low.
//   - Ordering: same-ID transactions of one direction are serviced and answered in order
//     (AXI rule). Across IDs: in_order answers in acceptance order; random and
//     youngest_first reorder service and responses.
//   - Bursts: INCR, FIXED, WRAP of any length and AxSIZE <= 6 are performed; reserved
//     AxBURST or AxSIZE > 6 get SLVERR. An address range can be configured to answer SLVERR
//     or DECERR (error_ranges); erroneous writes change nothing, erroneous reads return
//     bytes of kDramErrorData (AXI leaves that data undefined; not zero, so a master that
//     passes it on as valid is caught).
//   - Ideal reads (ideal_reads, a limit study, not a DRAM): a read whose whole burst lies in
//     one of these ranges is performed at its acceptance and answered from the next edge on,
//     a beat an edge, ahead of older reads, taking no bus time and counted in
//     stats().ideal_reads (and, as every read, in read_beats and read_bytes). It is what a
//     perfect prefetcher of those ranges would give: the line close to the GPU before the
//     miss, for free. tessera-sim's `--prefetch ideal` bounds the tile prefetcher with it
//     (docs/prefetcher.md "The bound"); ideal_percent makes only that share of the ranges'
//     lines ideal (`--prefetch ideal:N`, the bound at N % coverage), and a range's own
//     percent overrides it for that range (`ideal:T/G`, textures and targets apart). With
//     ideal_pays_bus the ideal reads still take their bus time: each is put on the bus at its
//     acceptance, ahead of the queued transactions, and answered as soon as its beats have
//     crossed it, with no latency: a perfect prefetch that moves its data like any other
//     read (`--prefetch ideal-bus`). A read that overlaps a write still waiting for the bus
//     goes the ordinary way, so it never returns data older than an accepted write.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <random>
#include <vector>

#include "tessera/sim/axi.hpp"
#include "tessera/sim/sparse_memory.hpp"

namespace tessera::sim {

inline constexpr std::uint8_t kDramErrorData = 0xDE;  // every RDATA byte of an erroneous read

enum class DramReorder {
  in_order,        // service and responses in acceptance order (writes: completion order)
  random,          // service and response order random among IDs (same ID stays in order)
  youngest_first,  // deterministic: the youngest eligible transaction first
};
const char* to_string(DramReorder r);

// Transactions touching [base, base + size) are answered with `resp` instead of OKAY.
struct DramErrorRange {
  std::uint32_t base = 0;
  std::uint64_t size = 0;
  AxiResp resp = AxiResp::slverr;
  bool reads = true;
  bool writes = true;
};

// [base, base + size): an address range.
struct DramRange {
  std::uint32_t base = 0;
  std::uint64_t size = 0;
  // Only for DramConfig::ideal_reads: the share of the range's lines that are ideal, in
  // percent (1..100); 0 takes DramConfig::ideal_percent.
  unsigned percent = 0;
  bool operator==(const DramRange&) const = default;
};

struct DramConfig {
  unsigned latency = 80;             // edges from acceptance to the earliest response (>= 1)
  unsigned bytes_per_cycle = 32;     // data bus shared by reads and writes (>= 1)
  unsigned max_outstanding = 64;     // reads + writes in flight; 0 = unlimited
  unsigned max_reads = 0;            // additional per-direction limits; 0 = none
  unsigned max_writes = 0;
  unsigned w_buffer_beats = 16;      // W beats accepted ahead of their AW (>= 1)
  DramReorder reorder = DramReorder::in_order;
  unsigned latency_jitter = 0;       // extra 0..jitter edges of latency per transaction
  double ready_stall = 0;            // probability that AR/AW/W READY is low in a cycle
  std::uint64_t seed = 1;            // for ready_stall, jitter and random reordering
  std::vector<DramErrorRange> error_ranges;
  std::vector<DramRange> ideal_reads;  // reads answered with no latency and no bus time (above)
  // The share of ideal_reads' 64-byte lines that are ideal, in percent (1..100): a line is when
  // a fixed hash of its address, modulo 100, is below it, so the same lines in every run and
  // spread evenly over the ranges. Below 100 it asks what a prefetcher covering that share of
  // the lines, perfectly timed, would give (docs/prefetcher.md "The bound").
  unsigned ideal_percent = 100;
  // The ideal reads take their bus time (above): the bound of a perfect prefetch that pays for
  // the bandwidth it uses, where the default is one that moves its data for free.
  bool ideal_pays_bus = false;
};

struct DramStats {
  std::uint64_t cycles = 0;            // clock_edge() calls
  std::uint64_t reads = 0;             // AR handshakes
  std::uint64_t writes = 0;            // AW handshakes
  std::uint64_t read_beats = 0;        // beats read at service
  std::uint64_t write_beats = 0;       // beats written at service
  std::uint64_t read_bytes = 0;        // active bytes of those beats (64 per full beat)
  std::uint64_t write_bytes = 0;       // active bytes of written beats (64 per full beat)
  std::uint64_t write_bytes_strobed = 0;  // bytes actually stored (WSTRB set, OKAY)
  std::uint64_t error_responses = 0;   // transactions answered SLVERR / DECERR
  std::uint64_t read_latency_sum = 0;  // AR handshake -> last R handshake, edges, all reads
  std::uint64_t write_latency_sum = 0; // write accepted (AW + last W) -> B handshake, edges
  std::uint64_t peak_reads = 0;        // most reads outstanding at once
  std::uint64_t peak_writes = 0;       // most writes outstanding at once
  std::uint64_t peak_outstanding = 0;  // most reads + writes outstanding at once
  std::uint64_t reads_done = 0;        // reads fully answered
  std::uint64_t writes_done = 0;       // writes answered (B handshake)
  std::uint64_t ideal_reads = 0;       // reads answered as ideal (DramConfig::ideal_reads)

  double bytes_per_cycle() const {
    return cycles ? static_cast<double>(read_bytes + write_bytes) / static_cast<double>(cycles) : 0.0;
  }
  double mean_read_latency() const {
    return reads_done ? static_cast<double>(read_latency_sum) / static_cast<double>(reads_done) : 0.0;
  }
};

class DramModel {
 public:
  explicit DramModel(DramConfig cfg = {});

  // One rising edge: `in` = master outputs sampled at the edge; `out` = slave outputs for
  // the next cycle (also kept: outputs()).
  void clock_edge(const AxiMasterSignals& in, AxiSlaveSignals& out);
  const AxiSlaveSignals& outputs() const { return out_; }

  // Drop every transaction in flight and lower the VALIDs (a reset of the AXI port, e.g.
  // the GPU's). Memory contents and statistics are kept.
  void reset_interface();

  // The backdoor: the memory itself, untimed.
  SparseMemory& memory() { return mem_; }
  const SparseMemory& memory() const { return mem_; }

  const DramConfig& config() const { return cfg_; }
  // A new configuration (timing, limits, reordering, error ranges) while no transaction is
  // in flight (throws std::logic_error otherwise); memory and statistics are kept.
  void reconfigure(DramConfig cfg);
  void set_ready_stall(double p) { cfg_.ready_stall = p; }
  const DramStats& stats() const { return stats_; }
  void clear_stats();

  std::size_t reads_outstanding() const { return reads_.size(); }
  std::size_t writes_outstanding() const { return writes_.size(); }
  bool idle() const { return reads_.empty() && writes_.empty() && w_orphans_.empty(); }
  std::uint64_t cycle() const { return stats_.cycles; }

 private:
  struct Txn {
    bool write = false;
    std::uint64_t seq = 0;          // acceptance order (AR/AW handshake)
    AxiAddr a;
    AxiResp resp = AxiResp::okay;
    std::uint64_t accept_edge = 0;  // AR handshake; for writes AW + last W received
    bool complete = false;          // reads: always; writes: all W beats received
    std::vector<AxiW> wbeats;
    bool serviced = false;
    std::vector<std::uint64_t> beat_ready;  // earliest handshake edge of each response beat
    std::vector<AxiData> rdata;
    unsigned beats_sent = 0;
    bool ideal = false;             // an ideal read (DramConfig::ideal_reads)
  };
  struct QueueEntry {
    bool write;
    std::uint64_t seq;
  };

  std::uint64_t rand_below(std::uint64_t n);  // uniform 0..n-1
  void accept_read(const AxiAddr& a);
  void accept_aw(const AxiAddr& a);
  void attach_w_beats();
  AxiResp classify(const AxiAddr& a, bool write) const;
  bool is_ideal_read(const AxiAddr& a) const;
  void service();
  void perform(Txn& t, std::uint64_t start_bytes);
  void present_r(AxiSlaveSignals& out);
  void present_b(AxiSlaveSignals& out);
  void compute_readies(const AxiMasterSignals& in, bool ar_taken, bool aw_taken, AxiSlaveSignals& out);
  void note_peaks();

  DramConfig cfg_;
  SparseMemory mem_;
  DramStats stats_;
  std::mt19937_64 rng_;
  AxiSlaveSignals out_;
  std::uint64_t edge_ = 0;       // index of the edge being processed
  std::uint64_t next_seq_ = 0;
  std::uint64_t bus_free_ = 0;   // in bytes of bus time: edge e starts at e * bytes_per_cycle
  std::map<std::uint64_t, Txn> reads_, writes_;  // by seq
  std::deque<std::uint64_t> aw_wait_;             // writes waiting for W beats, AW order
  std::deque<AxiW> w_orphans_;                    // W beats received ahead of their AW
  std::deque<QueueEntry> queue_;                  // complete, not yet serviced, ready order
  std::uint64_t cur_r_ = 0, cur_b_ = 0;           // seq of the response being presented
  bool prefer_read_ = true;                       // tie-break for the last outstanding slot
};

}  // namespace tessera::sim
