// Register tops (the OpenTitan reggen model): for each register block, a package with the
// reg2hw / hw2reg packed structs and a module that decodes the register bus, stores the rw and
// w1c fields with their resets, answers errors, and exposes write and read strobes, so a
// block's own RTL keeps only its side effects. Semantics: docs/spec-generator.md,
// "Register tops".
//
// Written in the SV subset of CONVENTIONS.md: no functions, no generate loops (array
// instances are unrolled), no arrays of packed structs (an array register's field is one flat
// vector, instance n at [n*W +: W]), widths as numbers.
#include <fmt/format.h>

#include "emit_common.hpp"
#include "tessera/specgen/emit.hpp"

namespace tessera::specgen {

using namespace detail;

namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// A spec name as an SV identifier: a keyword gets the suffix "_r" (register) or "_f" (field).
std::string sv_name(const std::string& n, const char* suffix) { return sv_reserved(n) ? n + suffix : n; }

// One register as the top sees it: a plain register (count 1) or a register of an array.
struct View {
  const Register* reg = nullptr;
  const RegisterArray* array = nullptr;
  std::string id;         // struct member and signal stem: "cull", "slice_subbatches"
  unsigned count = 1;     // instances
  uint64_t offset = 0;    // of instance 0
  uint64_t stride = 0;
};

std::vector<View> views(const Block& b) {
  std::vector<View> v;
  for (const auto& r : b.registers) v.push_back({&r, nullptr, sv_name(lower(r.name), "_r"), 1, r.offset, 0});
  for (const auto& a : b.arrays) {
    for (const auto& r : a.registers) {
      v.push_back({&r, &a, lower(a.name) + "_" + lower(r.name), static_cast<unsigned>(a.count),
                   a.offset + r.offset, a.stride});
    }
  }
  return v;
}

std::string fname(const Field& f) { return sv_name(f.name, "_f"); }

// How the top treats a field: stored here (rw, w1c), handed to the hardware as written bits
// (wo, and rw of an external register), or read from the hardware (ro, rw of an external one).
bool stored(const Register& r, const Field& f) {
  return !r.external && (f.access == Access::RW || f.access == Access::W1C);
}
bool written_bits(const Register& r, const Field& f) {
  return f.access == Access::WO || (r.external && f.access == Access::RW);
}
bool hw_value(const Register& r, const Field& f) {
  return f.access == Access::RO || (r.external && f.access == Access::RW);
}

bool has_qe(const Register& r) {
  if (r.write_strobe) return true;
  for (const auto& f : r.fields) {
    if (written_bits(r, f)) return true;
  }
  return false;
}

// The members of one register's reg2hw (to_hw) or hw2reg struct, in declaration order.
struct Member {
  std::string name;
  unsigned width;
  std::string note;
  const Field* field = nullptr;
  RegtopMember::Kind kind = RegtopMember::Kind::Value;
};

std::vector<Member> members(const View& v, bool to_hw) {
  std::vector<Member> m;
  const unsigned c = v.count;
  for (const auto& f : v.reg->fields) {
    const unsigned w = f.bits.width() * c;
    if (to_hw && (stored(*v.reg, f) || written_bits(*v.reg, f))) {
      m.push_back({fname(f), w, fmt::format("{} {}", access_name(f.access), f.bits.str()), &f});
    }
    if (!to_hw && hw_value(*v.reg, f)) m.push_back({fname(f), w, fmt::format("ro {}: value read", f.bits.str()), &f});
    if (!to_hw && f.hw_write) {
      m.push_back({fname(f) + "_de", c, "1: store _d (over a bus write of the same cycle)", &f, RegtopMember::Kind::De});
      m.push_back({fname(f) + "_d", w, "value the hardware stores", &f, RegtopMember::Kind::D});
    }
    if (!to_hw && f.access == Access::W1C) {
      m.push_back({fname(f) + "_set", w, fmt::format("w1c {}: 1 sets the bit (wins over a clear)", f.bits.str()), &f,
                   RegtopMember::Kind::Set});
    }
  }
  if (to_hw && has_qe(*v.reg)) m.push_back({"qe", c, "accepted bus write (also when werr refuses it)", nullptr, RegtopMember::Kind::Qe});
  if (to_hw && v.reg->write_strobe) m.push_back({"wd", 32, "the written word, valid with qe", nullptr, RegtopMember::Kind::Wd});
  if (to_hw && v.reg->wait != Register::Wait::None) {
    m.push_back({"pend", c, "the waiting access is presented (also while it waits)", nullptr, RegtopMember::Kind::Pend});
  }
  if (!to_hw && v.reg->wait != Register::Wait::None) {
    m.push_back({"hold", c, "1: hold the access (wait), do not acknowledge it", nullptr, RegtopMember::Kind::Wait});
  }
  if (!to_hw && v.reg->read_error) {
    m.push_back({"rerr", c, "1: a bus read now answers err", nullptr, RegtopMember::Kind::Rerr});
  }
  if (to_hw && v.reg->read_strobe) m.push_back({"re", c, "accepted bus read", nullptr, RegtopMember::Kind::Re});
  if (!to_hw && v.reg->write_error) m.push_back({"werr", c, "1: a bus write now answers err and stores nothing", nullptr,
                                       RegtopMember::Kind::Werr});
  return m;
}

std::string type_name(const Block& b, const std::string& dir, const std::string& id) {
  return fmt::format("{}_{}_{}_t", lower(b.name), dir, id);
}

// "name" for one instance, "name[n*W +: W]" for instance n of several.
std::string inst(const std::string& name, unsigned n, unsigned width, unsigned count) {
  if (count == 1) return name;
  if (width == 1) return fmt::format("{}[{}]", name, n);
  return fmt::format("{}[{} +: {}]", name, n * width, width);
}

std::string field_bits(const std::string& word, const Field& f) {
  if (f.bits.width() == 1) return fmt::format("{}[{}]", word, f.bits.lsb);
  return fmt::format("{}[{} +: {}]", word, f.bits.lsb, f.bits.width());
}

std::string wmask_param(const View& v, const Field& f) {
  return upper(v.id) + "_" + upper(fname(f)) + "_WMASK";
}

std::string reset_param(const View& v, const Field& f) {
  return upper(v.id) + "_" + upper(fname(f)) + "_RESET";
}

class RegtopEmitter {
 public:
  explicit RegtopEmitter(const Block& b) : b_(b), v_(views(b)), aw_(clog2(b.size)) {}

  std::string package() {
    const std::string pkg = regtop_package_name(b_);
    out_.clear();
    out_ += fmt::format("// {}.sv -- generated by tessera-specgen from {}. Do not edit: change the YAML.\n", pkg, b_.file);
    out_ += "// The reg2hw / hw2reg structs of " + regtop_module_name(b_) +
            " (docs/spec-generator.md, \"Register tops\").\n"
            "// An array register's field is one flat vector: instance n at [n*W +: W] (Yosys 0.23\n"
            "// loses elements of arrays of packed structs, CONVENTIONS.md).\n";
    out_ += fmt::format("package {};\n\n", pkg);
    for (bool to_hw : {true, false}) {
      const std::string dir = to_hw ? "reg2hw" : "hw2reg";
      std::vector<std::pair<std::string, std::string>> top;  // type, member
      unsigned total = 0;
      for (const auto& v : v_) {
        auto ms = members(v, to_hw);
        if (ms.empty()) continue;
        const std::string t = type_name(b_, dir, v.id);
        out_ += "  typedef struct packed {\n";
        for (const auto& m : ms) {
          out_ += fmt::format("    logic [{}:0] {};  // {}\n", m.width - 1, m.name, m.note);
          total += m.width;
        }
        out_ += fmt::format("  }} {};\n\n", t);
        top.push_back({t, v.id});
      }
      if (top.empty()) {
        out_ += fmt::format("  typedef struct packed {{\n    logic [0:0] reserved;  // the block has no {} signal\n  }} {}_{}_t;\n", dir, lower(b_.name), dir);
        total = 1;
      } else {
        out_ += "  typedef struct packed {\n";
        for (const auto& [t, m] : top) out_ += fmt::format("    {} {};\n", t, m);
        out_ += fmt::format("  }} {}_{}_t;\n", lower(b_.name), dir);
      }
      // Widths as numbers: Yosys 0.23 takes no $bits of a type in a package.
      out_ += "  /* verilator lint_off UNUSEDPARAM */\n";
      out_ += fmt::format("  localparam int unsigned {}_{}_WIDTH = {};\n", upper(b_.name), upper(dir), total);
      out_ += "  /* verilator lint_on UNUSEDPARAM */\n\n";
    }
    out_ += "endpackage\n";
    return out_;
  }

  std::string module() {
    out_.clear();
    const std::string mod = regtop_module_name(b_);
    const std::string pkg = regtop_package_name(b_);
    out_ += fmt::format("// {}.sv -- generated by tessera-specgen from {}. Do not edit: change the YAML.\n", mod, b_.file);
    out_ += fmt::format(
        "// Register top of block {} (docs/spec-generator.md, \"Register tops\"; reference:\n"
        "// docs/reference/registers.md). Register bus (tessera_regbus_pkg): ready whenever no response\n"
        "// is pending, one response exactly one cycle after each accepted request. err = 1 for an\n"
        "// offset outside the block or unmapped, a misaligned address, a write to a register with\n"
        "// no bus-writable field, and a write while the register's hw2reg werr is 1; such a write\n"
        "// stores nothing.\n", b_.name);
    if (b_.in_band_state) {
      out_ += "// state_writes: in_band: the rw fields are written through the in-band port (ib_*) only.\n";
    }
    out_ += "\n`include \"prim_assert.svh\"\n\n";
    // parameters: the reset of every stored field
    std::vector<std::string> params;
    for (const auto& v : v_) {
      for (const auto& f : v.reg->fields) {
        if (!stored(*v.reg, f)) continue;
        params.push_back(fmt::format("  parameter logic [{}:0] {} = {}'h{:x}", f.bits.width() - 1,
                                     reset_param(v, f), f.bits.width(), f.reset));
        if (f.write_mask_param) {
          params.push_back(fmt::format("  parameter logic [{}:0] {} = '1", f.bits.width() - 1, wmask_param(v, f)));
        }
      }
    }
    if (params.empty()) {
      out_ += fmt::format("module {} (\n", mod);
    } else {
      out_ += fmt::format("module {} #(\n  // Reset values of the stored (rw, w1c) fields; the defaults are the spec's.\n", mod);
      for (std::size_t i = 0; i < params.size(); ++i) out_ += params[i] + (i + 1 < params.size() ? ",\n" : "\n");
      out_ += ") (\n";
    }
    out_ += "  input  logic                         clk_i,\n"
            "  input  logic                         rst_ni,\n";
    if (b_.req_ack) {
      out_ += fmt::format("  // req/ack access: held until ack_o, answered in the same cycle\n"
                          "  input  logic                         req_i,\n"
                          "  input  logic                         we_i,\n"
                          "  input  logic [3:0]                   be_i,\n"
                          "  input  logic [{}:0]                  addr_i,\n"
                          "  input  logic [31:0]                  wdata_i,\n"
                          "  output logic                         ack_o,\n"
                          "  output logic [31:0]                  rdata_o,\n"
                          "  output logic                         err_o,\n", aw_ - 1);
    } else {
      out_ += "  input  logic                         reg_req_valid_i,\n"
              "  output logic                         reg_req_ready_o,\n"
              "  input  tessera_regbus_pkg::reg_req_t reg_req_i,\n"
              "  output logic                         reg_rsp_valid_o,\n"
              "  output tessera_regbus_pkg::reg_rsp_t reg_rsp_o,\n";
    }
    if (b_.in_band_state) {
      out_ += fmt::format("  input  logic                         ib_we_i,     // in-band write (SET_REGS)\n"
                          "  input  logic [{}:0]                 ib_addr_i,   // byte offset in the block\n"
                          "  input  logic [31:0]                 ib_wdata_i,\n", aw_ - 1);
    }
    out_ += fmt::format("  output {}::{}_reg2hw_t reg2hw_o,\n", pkg, lower(b_.name));
    out_ += fmt::format("  input  {}::{}_hw2reg_t hw2reg_i\n);\n\n", pkg, lower(b_.name));
    out_ += fmt::format("  localparam int unsigned AW = {};\n\n", aw_);

    // go: the access is performed this cycle (accepted / acknowledged); wr_go, rd_go by kind.
    out_ += "  // ---- request decode ----------------------------------------------------------------\n"
            "  logic          we;\n"
            "  logic          in_block;\n"
            "  logic          aligned;\n"
            "  logic [AW-1:0] off;\n"
            "  logic [31:0]   wdata;\n"
            "  logic          go;\n"
            "  logic          wr_go;\n"
            "  logic          rd_go;\n";
    if (b_.req_ack) {
      out_ += "  logic          word;\n"
              "  assign we       = we_i;\n"
              "  assign off      = addr_i;\n"
              "  assign in_block = 1'b1;  // addr_i spans exactly the block\n"
              "  assign aligned  = (addr_i[1:0] == 2'b00);\n"
              "  assign word     = (be_i == 4'hf);\n"
              "  assign wdata    = wdata_i;\n"
              "  assign go       = req_i && ack_o;\n"
              "  assign wr_go    = go && we && word;\n"
              "  assign rd_go    = go && !we;\n\n";
    } else {
      out_ += "  logic          rsp_valid_q;\n"
              "  logic          req_go;\n"
              "  assign reg_req_ready_o = !rsp_valid_q;\n"
              "  assign req_go   = reg_req_valid_i && reg_req_ready_o;\n"
              "  assign we       = reg_req_i.we;\n"
              "  assign off      = reg_req_i.addr[AW-1:0];\n";
      out_ += fmt::format("  assign in_block = (32'(reg_req_i.addr) < 32'h{:x});\n", b_.size);
      out_ += "  assign aligned  = (reg_req_i.addr[1:0] == 2'b00);\n"
              "  assign wdata    = reg_req_i.wdata;\n"
              "  assign go       = req_go;\n"
              "  assign wr_go    = go && we;\n"
              "  assign rd_go    = go && !we;\n\n";
    }

    // hits
    out_ += "  // hit_<register>: the request names the register (instance n at bit n of an array's).\n";
    std::vector<std::string> any_terms;
    for (const auto& v : v_) {
      out_ += fmt::format("  logic [{}:0] hit_{};\n", v.count - 1, v.id);
      for (unsigned n = 0; n < v.count; ++n) {
        out_ += fmt::format("  assign {} = in_block && aligned && (off == {}'h{:x});\n",
                            inst("hit_" + v.id, n, 1, v.count), aw_, v.offset + n * v.stride);
      }
      any_terms.push_back(fmt::format("(|hit_{})", v.id));
    }
    out_ += "  logic any_hit;\n";
    out_ += fmt::format("  assign any_hit = {};\n\n", join_or(any_terms));

    // write refusals
    std::vector<std::string> refuse;
    for (const auto& v : v_) {
      if (!v.reg->bus_writable(b_.in_band_state)) {
        refuse.push_back(fmt::format("(|hit_{})", v.id));
      } else if (v.reg->write_error) {
        refuse.push_back(fmt::format("(|(hit_{} & hw2reg_i.{}.werr))", v.id, v.id));
      }
    }
    out_ += "  // A write refused: nothing bus-writable at the offset, or the hardware says werr.\n";
    out_ += "  logic wr_refused;\n";
    out_ += fmt::format("  assign wr_refused = {};\n", refuse.empty() ? "1'b0" : join_or(refuse));
    std::vector<std::string> rd_refuse;
    for (const auto& v : v_) {
      if (v.reg->read_error) rd_refuse.push_back(fmt::format("(|(hit_{} & hw2reg_i.{}.rerr))", v.id, v.id));
    }
    out_ += "  logic rd_refused;  // the hardware says rerr\n";
    out_ += fmt::format("  assign rd_refused = {};\n", rd_refuse.empty() ? "1'b0" : join_or(rd_refuse));
    out_ += "  // The access is answered with err (and performs nothing).\n  logic acc_err;\n";
    out_ += fmt::format("  assign acc_err = !any_hit || (we ? wr_refused : rd_refused){};\n\n",
                        b_.req_ack ? " || (we && !word)" : "");
    if (b_.req_ack) {
      std::vector<std::string> waits;
      for (const auto& v : v_) {
        if (v.reg->wait == Register::Wait::None) continue;
        const char* kind = v.reg->wait == Register::Wait::Read ? "!we" : "we";
        waits.push_back(fmt::format("({} && (|(hit_{} & hw2reg_i.{}.hold)))", kind, v.id, v.id));
      }
      out_ += "  // An access the hardware holds (wait) is not acknowledged; an erroring one never waits.\n";
      out_ += "  logic waiting;\n";
      out_ += fmt::format("  assign waiting = req_i && !acc_err && ({});\n", waits.empty() ? "1'b0" : join_or(waits));
      out_ += "  assign ack_o   = req_i && !waiting;\n"
              "  assign err_o   = req_i && acc_err;\n\n";
    }

    // storage
    out_ += "  // ---- stored fields (rw, w1c) -------------------------------------------------------\n";
    std::vector<std::string> ff_reset, ff_next;
    for (const auto& v : v_) {
      const bool bus_w = v.reg->bus_writable(b_.in_band_state);
      bool any_stored = false;
      for (const auto& f : v.reg->fields) any_stored |= stored(*v.reg, f);
      if (!any_stored) continue;
      // accepted bus writes that store, and in-band writes, per instance
      std::string wr_ok = "wr_ok_" + v.id;
      if (bus_w) {
        out_ += fmt::format("  logic [{}:0] {};\n", v.count - 1, wr_ok);
        const std::string werr = v.reg->write_error ? fmt::format(" & ~hw2reg_i.{}.werr", v.id) : "";
        out_ += fmt::format("  assign {} = {{{}{{wr_go}}}} & hit_{}{};\n", wr_ok, v.count, v.id, werr);
      }
      bool any_rw = false;
      for (const auto& f : v.reg->fields) any_rw |= f.access == Access::RW;
      const bool ib = b_.in_band_state && any_rw;
      if (ib) {
        out_ += fmt::format("  logic [{}:0] ib_{};\n", v.count - 1, v.id);
        for (unsigned n = 0; n < v.count; ++n) {
          out_ += fmt::format("  assign {} = ib_we_i && (ib_addr_i == {}'h{:x});\n",
                              inst("ib_" + v.id, n, 1, v.count), aw_, v.offset + n * v.stride);
        }
      }
      for (const auto& f : v.reg->fields) {
        if (!stored(*v.reg, f)) continue;
        const unsigned w = f.bits.width();
        const std::string q = fmt::format("{}_{}_q", v.id, fname(f));
        const std::string d = fmt::format("{}_{}_d", v.id, fname(f));
        out_ += fmt::format("  logic [{}:0] {};\n  logic [{}:0] {};\n", w * v.count - 1, q, w * v.count - 1, d);
        out_ += "  always_comb begin\n";
        out_ += fmt::format("    {} = {};\n", d, q);
        for (unsigned n = 0; n < v.count; ++n) {
          const std::string dn = inst(d, n, w, v.count);
          const std::string qn = inst(q, n, w, v.count);
          const std::string wn = inst(wr_ok, n, 1, v.count);
          const std::string mask = f.write_mask_param ? " & " + wmask_param(v, f) : "";
          if (f.access == Access::RW) {
            if (bus_w && !b_.in_band_state) {
              out_ += fmt::format("    if ({}) {} = {}{};\n", wn, dn, field_bits("wdata", f), mask);
            }
            if (ib) {
              out_ += fmt::format("    if ({}) {} = {}{};\n", inst("ib_" + v.id, n, 1, v.count), dn,
                                  field_bits("ib_wdata_i", f), mask);
            }
          } else {  // w1c: a written 1 clears, a hardware set wins
            out_ += fmt::format("    if ({}) {} = {} & ~{};\n", wn, dn, qn, field_bits("wdata", f));
            out_ += fmt::format("    {} = {} | {};\n", dn, dn,
                                inst(fmt::format("hw2reg_i.{}.{}_set", v.id, fname(f)), n, w, v.count));
          }
          if (f.hw_write) {  // the hardware's write wins over the bus
            out_ += fmt::format("    if ({}) {} = {};\n",
                                inst(fmt::format("hw2reg_i.{}.{}_de", v.id, fname(f)), n, 1, v.count), dn,
                                inst(fmt::format("hw2reg_i.{}.{}_d", v.id, fname(f)), n, w, v.count));
          }
        }
        out_ += "  end\n";
        const std::string rst = v.count == 1 ? reset_param(v, f)
                                             : fmt::format("{{{}{{{}}}}}", v.count, reset_param(v, f));
        ff_reset.push_back(fmt::format("      {} <= {};\n", q, rst));
        ff_next.push_back(fmt::format("      {} <= {};\n", q, d));
        out_ += fmt::format("  assign reg2hw_o.{}.{} = {};\n", v.id, fname(f), q);
      }
    }
    out_ += "\n  // ---- write-only fields and strobes ---------------------------------------------------\n";
    for (const auto& v : v_) {
      for (const auto& f : v.reg->fields) {
        if (!written_bits(*v.reg, f)) continue;
        std::string val = field_bits("wdata", f);
        if (v.count > 1) val = fmt::format("{{{}{{{}}}}}", v.count, val);
        out_ += fmt::format("  assign reg2hw_o.{}.{} = {};  // valid with qe\n", v.id, fname(f), val);
      }
      if (has_qe(*v.reg)) {
        out_ += fmt::format("  assign reg2hw_o.{}.qe = {{{}{{wr_go}}}} & hit_{};\n", v.id, v.count, v.id);
      }
      if (v.reg->write_strobe) {
        out_ += fmt::format("  assign reg2hw_o.{}.wd = wdata;  // valid with qe\n", v.id);
      }
      if (v.reg->read_strobe) {
        out_ += fmt::format("  assign reg2hw_o.{}.re = {{{}{{rd_go}}}} & hit_{};\n", v.id, v.count, v.id);
      }
      if (v.reg->wait != Register::Wait::None) {
        const char* kind = v.reg->wait == Register::Wait::Read ? "!we" : "we";
        out_ += fmt::format("  assign reg2hw_o.{}.pend = {{{}{{req_i && !acc_err && {}}}}} & hit_{};\n", v.id,
                            v.count, kind, v.id);
      }
    }
    if (members_empty(true)) out_ += "  assign reg2hw_o = '0;\n";

    // read mux
    out_ += "\n  // ---- reads: stored fields, hw2reg values; write-only fields read 0 ---------------------\n";
    out_ += "  logic [31:0] rdata;\n  always_comb begin\n    rdata = '0;\n";
    for (const auto& v : v_) {
      for (unsigned n = 0; n < v.count; ++n) {
        std::vector<std::string> parts;
        for (const auto& f : v.reg->fields) {
          const unsigned w = f.bits.width();
          std::string src;
          if (stored(*v.reg, f)) src = inst(fmt::format("{}_{}_q", v.id, fname(f)), n, w, v.count);
          else if (hw_value(*v.reg, f)) src = inst(fmt::format("hw2reg_i.{}.{}", v.id, fname(f)), n, w, v.count);
          else continue;
          parts.push_back(fmt::format("      {} = {};\n", field_bits("rdata", f), src));
        }
        if (parts.empty()) continue;
        out_ += fmt::format("    if ({}) begin\n", inst("hit_" + v.id, n, 1, v.count));
        for (const auto& p : parts) out_ += p;
        out_ += "    end\n";
      }
    }
    out_ += "  end\n\n";

    // response
    if (b_.req_ack) {
      out_ += "  // ---- response (same cycle) -----------------------------------------------------------\n"
              "  assign rdata_o = (req_i && !we && !acc_err) ? rdata : 32'h0;\n\n";
      if (!ff_reset.empty()) {
        out_ += "  always_ff @(posedge clk_i or negedge rst_ni) begin\n    if (!rst_ni) begin\n";
        for (const auto& s : ff_reset) out_ += s;
        out_ += "    end else begin\n";
        for (const auto& s : ff_next) out_ += s;
        out_ += "    end\n  end\n\n";
      }
    } else {
      out_ += "  // ---- response ----------------------------------------------------------------------\n"
              "  tessera_regbus_pkg::reg_rsp_t rsp_d;\n"
              "  tessera_regbus_pkg::reg_rsp_t rsp_q;\n"
              "  tessera_regbus_pkg::reg_rsp_t rsp_next;\n"
              "  always_comb begin\n"
              "    rsp_d = '0;\n"
              "    rsp_d.err = acc_err;\n"
              "    if (!we && !acc_err) rsp_d.rdata = rdata;\n"
              "  end\n"
              "  assign rsp_next = req_go ? rsp_d : rsp_q;\n\n";
      out_ += "  always_ff @(posedge clk_i or negedge rst_ni) begin\n    if (!rst_ni) begin\n"
              "      rsp_valid_q <= 1'b0;\n      rsp_q       <= '0;\n";
      for (const auto& s : ff_reset) out_ += s;
      out_ += "    end else begin\n      rsp_valid_q <= req_go;\n      rsp_q       <= rsp_next;\n";
      for (const auto& s : ff_next) out_ += s;
      out_ += "    end\n  end\n";
      out_ += "  assign reg_rsp_valid_o = rsp_valid_q;\n  assign reg_rsp_o       = rsp_q;\n\n";
    }

    // unused
    out_ += "  // Bits no field uses (Verilator's default unused-regexp waives unused_* by name).\n";
    out_ += "  logic unused_wdata;\n  logic unused_go;  // not every block has both strobes\n"
            "  assign unused_go = ^{wr_go, rd_go};\n";
    out_ += b_.in_band_state ? "  assign unused_wdata = ^{wdata, ib_wdata_i};\n" : "  assign unused_wdata = ^wdata;\n";
    if (members_empty(false)) out_ += "  logic unused_hw2reg;\n  assign unused_hw2reg = ^hw2reg_i;\n";

    out_ += "\n  // ---- assertions --------------------------------------------------------------------\n";
    if (b_.req_ack) {
      out_ += "  `ASSERT(ErrOnlyWithAck_A, err_o |-> ack_o)\n";
    } else {
      out_ += "  `ASSERT(RspOneCycle_A, req_go |=> reg_rsp_valid_o)\n";
      out_ += "  `ASSERT(RspOnlyForReq_A, reg_rsp_valid_o |-> $past(req_go))\n";
    }
    out_ += "  `ASSERT(OneHit_A, go |-> $onehot0({";
    std::vector<std::string> hits;
    for (const auto& v : v_) hits.push_back("hit_" + v.id);
    out_ += fmt::format("{}}}))\n", fmt::join(hits, ", "));
    out_ += "\nendmodule\n";
    return out_;
  }

 private:
  static std::string join_or(const std::vector<std::string>& t) {
    std::string s;
    for (std::size_t i = 0; i < t.size(); ++i) {
      if (i) s += i % 4 == 0 ? " |\n                     " : " | ";
      s += t[i];
    }
    return s;
  }

  bool members_empty(bool to_hw) const {
    for (const auto& v : v_) {
      if (!members(v, to_hw).empty()) return false;
    }
    return true;
  }

  const Block& b_;
  std::vector<View> v_;
  unsigned aw_;
  std::string out_;
};

}  // namespace

std::string regtop_module_name(const Block& b) { return lower(b.name) + "_reg_top"; }
std::string regtop_package_name(const Block& b) { return lower(b.name) + "_reg_pkg"; }

std::string emit_regtop_package(const Block& b) { return RegtopEmitter(b).package(); }
std::string emit_regtop_module(const Block& b) { return RegtopEmitter(b).module(); }

std::vector<RegtopMember> regtop_layout(const Block& b, bool reg2hw) {
  // A packed struct's first member holds the most significant bits.
  std::vector<RegtopMember> out;
  unsigned total = 0;
  for (const auto& v : views(b)) {
    for (const auto& m : members(v, reg2hw)) {
      // The written word (wd) is one word for all instances: qe says which one was written.
      const unsigned count = m.kind == RegtopMember::Kind::Wd ? 1 : v.count;
      out.push_back({v.reg, v.array, m.field, m.kind, v.id, m.name, 0, m.width, count});
      total += m.width;
    }
  }
  unsigned top = total;
  for (auto& m : out) {
    top -= m.width;
    m.lsb = top;
  }
  return out;
}

}  // namespace tessera::specgen
