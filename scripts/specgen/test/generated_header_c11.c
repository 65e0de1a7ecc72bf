/* Compiled as pedantic C11 with -Wall -Wextra -Werror: the generated header must stay valid C
 * for the firmware. The functions let the C++ test compare C's evaluation of the macros with
 * C++'s (generated_header_test.cpp). */
#include "tessera_spec.h"

_Static_assert(TS_PKT_HDR_OPCODE_GET(TS_PKT_DRAW_HEADER) == TS_OP_DRAW,
               "header macros are integer constant expressions in C");
_Static_assert(TS_PKT_HDR_LENGTH_GET(TS_PKT_DRAW_HEADER) == TS_PKT_DRAW_LEN,
               "fixed-length header carries the payload length");

uint32_t ts_c11_draw_header(void);
uint32_t ts_c11_set_regs_header(uint32_t len);
uint32_t ts_c11_ring_wptr_offset(uint32_t queue);
uint32_t ts_c11_draw_topology(uint32_t dw);
int ts_c11_header_valid(uint32_t header);

uint32_t ts_c11_draw_header(void) { return TS_PKT_DRAW_HEADER; }
uint32_t ts_c11_set_regs_header(uint32_t len) { return TS_PKT_SET_REGS_HEADER(len); }
uint32_t ts_c11_ring_wptr_offset(uint32_t queue) { return TS_CP_RING_WPTR_OFFSET_N(queue); }
uint32_t ts_c11_draw_topology(uint32_t dw) { return TS_PKT_DRAW_TOPOLOGY_GET(dw); }
int ts_c11_header_valid(uint32_t header) { return ts_pkt_header_valid(header); }
