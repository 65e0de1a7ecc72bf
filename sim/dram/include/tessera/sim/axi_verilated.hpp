// Connect AxiMasterSignals / AxiSlaveSignals to the AXI4 master ports of a verilated model
// that follows Tessera's port naming (rtl/axi/mem_axi_bridge.sv): m_axi_<signal>_o for the
// master's outputs, m_axi_<signal>_i for its inputs, e.g. m_axi_arvalid_o, m_axi_rdata_i.
// The optional attribute outputs (AxLOCK, AxCACHE, AxPROT, AxQOS, AxREGION) are read when
// the model has them. Header only; needs <verilated.h> (VlWide) and no test harness, so the
// simulator main loop and the benches share it:
//
//   // after evaluating the model up to the rising edge (inputs unchanged since the last one):
//   AxiMasterSignals m = tessera::sim::sample_axi_master(*top);
//   checker.sample(m, dram.outputs());
//   dram.clock_edge(m, out);
//   // ... evaluate the edge, then drive the slave's outputs for the next cycle:
//   tessera::sim::drive_axi_slave(*top, out);
#pragma once

#include <verilated.h>

#include <cstdint>

#include "tessera/sim/axi.hpp"

namespace tessera::sim {

namespace detail {
template <std::size_t N>
void wide_to_bytes(const VlWide<N>& w, AxiData& out) {
  static_assert(N * 4 >= kAxiDataBytes, "data port narrower than 512 bits");
  for (unsigned i = 0; i < kAxiDataBytes; ++i) out[i] = static_cast<std::uint8_t>(w[i / 4] >> (8 * (i % 4)));
}
template <std::size_t N>
void bytes_to_wide(const AxiData& in, VlWide<N>& w) {
  static_assert(N * 4 >= kAxiDataBytes, "data port narrower than 512 bits");
  for (std::size_t k = 0; k < N; ++k) w[k] = 0;
  for (unsigned i = 0; i < kAxiDataBytes; ++i) w[i / 4] |= static_cast<EData>(in[i]) << (8 * (i % 4));
}
}  // namespace detail

// The master's outputs (read them at a rising edge, before the edge's writes).
template <class V>
AxiMasterSignals sample_axi_master(const V& t) {
  AxiMasterSignals m;
  m.awvalid = t.m_axi_awvalid_o & 1U;
  m.aw.id = static_cast<std::uint32_t>(t.m_axi_awid_o);
  m.aw.addr = static_cast<std::uint32_t>(t.m_axi_awaddr_o);
  m.aw.len = static_cast<std::uint8_t>(t.m_axi_awlen_o);
  m.aw.size = static_cast<std::uint8_t>(t.m_axi_awsize_o);
  m.aw.burst = static_cast<std::uint8_t>(t.m_axi_awburst_o);
  m.arvalid = t.m_axi_arvalid_o & 1U;
  m.ar.id = static_cast<std::uint32_t>(t.m_axi_arid_o);
  m.ar.addr = static_cast<std::uint32_t>(t.m_axi_araddr_o);
  m.ar.len = static_cast<std::uint8_t>(t.m_axi_arlen_o);
  m.ar.size = static_cast<std::uint8_t>(t.m_axi_arsize_o);
  m.ar.burst = static_cast<std::uint8_t>(t.m_axi_arburst_o);
  if constexpr (requires { t.m_axi_awlock_o; }) m.aw.lock = t.m_axi_awlock_o & 1U;
  if constexpr (requires { t.m_axi_awcache_o; }) m.aw.cache = static_cast<std::uint8_t>(t.m_axi_awcache_o);
  if constexpr (requires { t.m_axi_awprot_o; }) m.aw.prot = static_cast<std::uint8_t>(t.m_axi_awprot_o);
  if constexpr (requires { t.m_axi_awqos_o; }) m.aw.qos = static_cast<std::uint8_t>(t.m_axi_awqos_o);
  if constexpr (requires { t.m_axi_awregion_o; }) m.aw.region = static_cast<std::uint8_t>(t.m_axi_awregion_o);
  if constexpr (requires { t.m_axi_arlock_o; }) m.ar.lock = t.m_axi_arlock_o & 1U;
  if constexpr (requires { t.m_axi_arcache_o; }) m.ar.cache = static_cast<std::uint8_t>(t.m_axi_arcache_o);
  if constexpr (requires { t.m_axi_arprot_o; }) m.ar.prot = static_cast<std::uint8_t>(t.m_axi_arprot_o);
  if constexpr (requires { t.m_axi_arqos_o; }) m.ar.qos = static_cast<std::uint8_t>(t.m_axi_arqos_o);
  if constexpr (requires { t.m_axi_arregion_o; }) m.ar.region = static_cast<std::uint8_t>(t.m_axi_arregion_o);
  m.wvalid = t.m_axi_wvalid_o & 1U;
  detail::wide_to_bytes(t.m_axi_wdata_o, m.w.data);
  m.w.strb = static_cast<std::uint64_t>(t.m_axi_wstrb_o);
  m.w.last = t.m_axi_wlast_o & 1U;
  m.bready = t.m_axi_bready_o & 1U;
  m.rready = t.m_axi_rready_o & 1U;
  return m;
}

// Drive the slave's outputs into the model's AXI inputs.
template <class V>
void drive_axi_slave(V& t, const AxiSlaveSignals& s) {
  t.m_axi_awready_i = s.awready;
  t.m_axi_wready_i = s.wready;
  t.m_axi_bvalid_i = s.bvalid;
  t.m_axi_bid_i = s.b.id;
  t.m_axi_bresp_i = s.b.resp;
  t.m_axi_arready_i = s.arready;
  t.m_axi_rvalid_i = s.rvalid;
  t.m_axi_rid_i = s.r.id;
  detail::bytes_to_wide(s.r.data, t.m_axi_rdata_i);
  t.m_axi_rresp_i = s.r.resp;
  t.m_axi_rlast_i = s.r.last;
}

}  // namespace tessera::sim
