// What cudnnctl's readers say of one library file, as one JSON line, for the real-files corpus
// (tests/real/check_real.py compares it with the wheel's facts and with GNU readelf / objdump):
//   library_facts FILE
// {"file", "format": "elf"|"pe", "machine", "needed" (DT_NEEDED or imports), "delay_imports", "soname",
//  "file_version", "product_version", "floor": {"GLIBC": "GLIBC_2.27", ...}, "gpu_code": {"ok", "error",
//  "sass": [...], "ptx": [...], "entries", "containers"}}. Exit 1 when the file is neither ELF nor PE.
#include <iostream>

#include <nlohmann/json.hpp>

#include "cudnnctl/loader/elf_reader.hpp"
#include "cudnnctl/loader/fatbin_reader.hpp"
#include "cudnnctl/loader/glibc_floor.hpp"
#include "cudnnctl/loader/gpu_arch.hpp"
#include "cudnnctl/loader/pe_reader.hpp"

using namespace cudnnctl;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: library_facts FILE\n";
    return 2;
  }
  const std::string path = argv[1];
  nlohmann::json out{{"file", path}};
  const auto reader = file_reader(path);
  if (!reader) {
    std::cerr << reader.error().message << "\n";
    return 1;
  }
  const auto magic = (*reader)(0, 4);
  if (magic == std::string("\x7F" "ELF", 4)) {
    const auto elf = read_elf_dynamic(*reader, path);
    if (!elf) {
      std::cerr << elf.error().message << "\n";
      return 1;
    }
    LibraryFloor floor;
    floor.add(path, elf->version_needs);
    nlohmann::json f = nlohmann::json::object();
    for (const auto& [family, item] : floor.highest) f[family] = item.version.text();
    out.update({{"format", "elf"}, {"machine", elf_machine_name(elf->machine)}, {"needed", elf->needed}, {"soname", elf->soname},
                {"floor", f}});
  } else if (magic.size() >= 2 && magic[0] == 'M' && magic[1] == 'Z') {
    const auto pe = read_pe_imports(*reader, path);
    if (!pe) {
      std::cerr << pe.error().message << "\n";
      return 1;
    }
    out.update({{"format", "pe"}, {"machine", pe_machine_name(pe->machine)}, {"needed", pe->imports}, {"delay_imports", pe->delay_imports},
                {"file_version", pe->file_version}, {"product_version", pe->product_version}, {"is_dll", pe->is_dll}});
  } else {
    std::cerr << path << " is neither an ELF nor a PE file\n";
    return 1;
  }
  const auto code = read_gpu_code(*reader, path);
  nlohmann::json g{{"ok", static_cast<bool>(code)}};
  if (code) {
    nlohmann::json sass = nlohmann::json::array(), ptx = nlohmann::json::array();
    for (const auto& a : code->sass()) sass.push_back(sass_name(a));
    for (const auto& a : code->ptx()) ptx.push_back(ptx_name(a));
    g.update({{"has_fatbin", code->has_fatbin}, {"sass", sass}, {"ptx", ptx}, {"entries", code->entries.size()}, {"containers", code->containers}});
  } else {
    g["error"] = code.error().message;
  }
  out["gpu_code"] = g;
  std::cout << out.dump() << "\n";
  return 0;
}
