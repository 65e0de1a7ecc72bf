// elf_image.hpp -- load a bare-metal RV32 ELF executable into the CP memory map (cp-run).
//
// Accepts: ELF32, little endian, EM_RISCV, ET_EXEC, no RVC flag, soft-float ABI. Every
// PT_LOAD segment with bytes in memory must lie inside one of the regions given (for
// cp_core_sys: ROM, DMEM, slow window); its file bytes are copied, the rest (.bss) is zero.
// Symbols are read from the SHT_SYMTAB section. Errors throw ElfError with a message that
// names the file and what is wrong with it (the segment and its addresses, the header that is
// cut off). Only a regular file of at most kMaxElfBytes is read: a directory, a device such as
// /dev/zero or a FIFO is refused before any byte is read.
#pragma once

#include <elf.h>
#include <fmt/format.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace cprun {

class ElfError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Region {
  std::string name;
  std::uint32_t base = 0, size = 0;
  bool contains(std::uint32_t addr, std::uint32_t len) const {
    return addr >= base && std::uint64_t{addr} + len <= std::uint64_t{base} + size;
  }
};

struct ElfImage {
  std::uint32_t entry = 0;
  std::map<std::uint32_t, std::uint32_t> words;  // word address -> value (little endian)
  std::map<std::string, std::uint32_t> symbols;
  std::optional<std::uint32_t> symbol(const std::string& name) const {
    auto it = symbols.find(name);
    if (it == symbols.end()) return std::nullopt;
    return it->second;
  }
};

// Larger than any program for cp_core's memory map (48 KiB of memory) with its debug
// sections; a bigger file is not a cp_core program.
inline constexpr std::uintmax_t kMaxElfBytes = 64u << 20;

// "" when `path` names a regular file cp-run may read, else why not (for "<path>: <why>").
inline std::string check_program_file(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (st.type() == fs::file_type::not_found) return "no such file";
  if (ec) return fmt::format("cannot read: {}", ec.message());
  switch (st.type()) {
    case fs::file_type::regular: break;
    case fs::file_type::directory: return "is a directory, not an ELF file";
    case fs::file_type::character: return "is a character device, not an ELF file";
    case fs::file_type::block: return "is a block device, not an ELF file";
    case fs::file_type::fifo: return "is a FIFO, not an ELF file";
    case fs::file_type::socket: return "is a socket, not an ELF file";
    default: return "is not a regular file";
  }
  const std::uintmax_t size = fs::file_size(path, ec);
  if (ec) return fmt::format("cannot read: {}", ec.message());
  if (size > kMaxElfBytes)
    return fmt::format("{} bytes, more than the {} MiB any cp_core program can be", size, kMaxElfBytes >> 20);
  return "";
}

inline ElfImage load_elf(const std::string& path, const std::vector<Region>& regions) {
  if (const std::string why = check_program_file(path); !why.empty())
    throw ElfError(fmt::format("{}: {}", path, why));
  std::ifstream f(path, std::ios::binary);
  if (!f) throw ElfError(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
  std::vector<unsigned char> d((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (f.bad()) throw ElfError(fmt::format("{}: read error", path));
  if (d.size() > kMaxElfBytes)  // grew while being read
    throw ElfError(fmt::format("{}: more than {} MiB", path, kMaxElfBytes >> 20));
  auto need = [&](std::uint64_t off, std::uint64_t len, const char* what) {
    if (off + len > d.size())
      throw ElfError(fmt::format("{}: truncated ELF file ({} at offset {:#x} needs {} bytes, file has {})", path,
                                 what, off, len, d.size()));
  };
  need(0, EI_NIDENT, "identification");
  if (std::memcmp(d.data(), ELFMAG, SELFMAG) != 0) throw ElfError(fmt::format("{}: not an ELF file", path));
  if (d[EI_CLASS] != ELFCLASS32)
    throw ElfError(fmt::format("{}: not a 32-bit ELF (class {}): cp_core runs RV32 programs only", path,
                               d[EI_CLASS] == ELFCLASS64 ? "ELF64" : "unknown"));
  if (d[EI_DATA] != ELFDATA2LSB) throw ElfError(fmt::format("{}: not a little-endian ELF", path));
  Elf32_Ehdr eh;
  need(0, sizeof eh, "ELF header");
  std::memcpy(&eh, d.data(), sizeof eh);
  if (eh.e_machine != EM_RISCV)
    throw ElfError(fmt::format("{}: e_machine is {}, not RISC-V ({})", path, eh.e_machine, EM_RISCV));
  if (eh.e_type != ET_EXEC)
    throw ElfError(fmt::format("{}: not an executable (e_type {}); link it with a linker script", path, eh.e_type));
  if (eh.e_flags & 0x1u)  // EF_RISCV_RVC
    throw ElfError(fmt::format("{}: built with compressed instructions (EF_RISCV_RVC); cp_core has no C extension "
                               "(use -march=rv32im)",
                               path));
  if (eh.e_flags & 0x6u)  // EF_RISCV_FLOAT_ABI
    throw ElfError(fmt::format("{}: hard-float ABI (e_flags {:#x}); cp_core is RV32IM, use -mabi=ilp32", path,
                               eh.e_flags));

  auto region_list = [&] {
    std::string s;
    for (const auto& r : regions)
      s += fmt::format("{}{} {:#010x}-{:#010x}", s.empty() ? "" : ", ", r.name, r.base, r.base + r.size - 1);
    return s;
  };

  ElfImage img;
  img.entry = eh.e_entry;
  if (eh.e_phentsize != sizeof(Elf32_Phdr) && eh.e_phnum)
    throw ElfError(fmt::format("{}: unexpected program header size {} (ELF32 has {})", path, eh.e_phentsize,
                               sizeof(Elf32_Phdr)));
  if (eh.e_shentsize != sizeof(Elf32_Shdr) && eh.e_shoff && eh.e_shnum)
    throw ElfError(fmt::format("{}: unexpected section header size {} (ELF32 has {})", path, eh.e_shentsize,
                               sizeof(Elf32_Shdr)));
  for (unsigned i = 0; i < eh.e_phnum; ++i) {
    Elf32_Phdr ph;
    need(eh.e_phoff + std::uint64_t{i} * sizeof ph, sizeof ph, "program header");
    std::memcpy(&ph, d.data() + eh.e_phoff + i * sizeof ph, sizeof ph);
    if (ph.p_type != PT_LOAD || ph.p_memsz == 0) continue;
    if (ph.p_filesz > ph.p_memsz)
      throw ElfError(fmt::format("{}: segment {} has more file bytes ({}) than memory bytes ({})", path, i,
                                 ph.p_filesz, ph.p_memsz));
    const std::uint32_t a = ph.p_paddr;
    bool inside = false;
    for (const auto& r : regions) inside = inside || r.contains(a, ph.p_memsz);
    if (!inside)
      throw ElfError(fmt::format(
          "{}: segment {} (vaddr {:#010x}, paddr {:#010x}, {:#x} bytes, flags {}{}{}) lies outside the memory "
          "map: {}",
          path, i, ph.p_vaddr, a, ph.p_memsz, (ph.p_flags & PF_R) ? "r" : "-", (ph.p_flags & PF_W) ? "w" : "-",
          (ph.p_flags & PF_X) ? "x" : "-", region_list()));
    need(ph.p_offset, ph.p_filesz, "segment data");
    for (std::uint32_t k = 0; k < ph.p_memsz; ++k) {
      const std::uint32_t byte_addr = a + k;
      const std::uint8_t b = k < ph.p_filesz ? d[ph.p_offset + k] : 0;
      auto& w = img.words[byte_addr & ~3u];
      const unsigned sh = 8 * (byte_addr & 3u);
      w = (w & ~(0xFFu << sh)) | (std::uint32_t{b} << sh);
    }
  }
  if (img.words.empty()) throw ElfError(fmt::format("{}: no loadable segment", path));

  // Symbols.
  if (eh.e_shoff && eh.e_shnum) {
    std::vector<Elf32_Shdr> sh(eh.e_shnum);
    need(eh.e_shoff, std::uint64_t{eh.e_shnum} * sizeof(Elf32_Shdr), "section headers");
    std::memcpy(sh.data(), d.data() + eh.e_shoff, eh.e_shnum * sizeof(Elf32_Shdr));
    for (const auto& s : sh) {
      if (s.sh_type != SHT_SYMTAB || s.sh_link >= sh.size()) continue;
      const auto& strtab = sh[s.sh_link];
      need(s.sh_offset, s.sh_size, "symbol table");
      need(strtab.sh_offset, strtab.sh_size, "string table");
      for (std::uint32_t off = 0; off + sizeof(Elf32_Sym) <= s.sh_size; off += sizeof(Elf32_Sym)) {
        Elf32_Sym sym;
        std::memcpy(&sym, d.data() + s.sh_offset + off, sizeof sym);
        if (sym.st_name == 0 || sym.st_name >= strtab.sh_size) continue;
        const char* name = reinterpret_cast<const char*>(d.data() + strtab.sh_offset + sym.st_name);
        const std::size_t maxlen = strtab.sh_size - sym.st_name;
        img.symbols.emplace(std::string(name, strnlen(name, maxlen)), sym.st_value);
      }
    }
  }
  return img;
}

}  // namespace cprun
