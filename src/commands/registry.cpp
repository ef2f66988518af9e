#include <array>
#include <filesystem>
#include <memory>
#include <ostream>
#include <utility>

#include <nlohmann/json.hpp>

#include "cudnnctl/base/log.hpp"
#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/catalog/catalog.hpp"
#include "cudnnctl/catalog/user_catalog.hpp"
#include "cudnnctl/commands/command.hpp"
#include "cudnnctl/commands/commands.hpp"

namespace cudnnctl {

std::ostream& Io::progress_stream() {
  if (!err_raw) return err;
  err.flush();
  return *err_raw;
}

void Io::warn(const std::string& text) {
  warnings.push_back(text);
  if (!json) err << "warning: " << terminal_safe(text) << "\n";
}

void Io::set_body(nlohmann::json fields) { body = std::make_shared<nlohmann::json>(std::move(fields)); }

std::span<const CommandSpec> all_commands() {
  static constexpr std::array<CommandSpec, 18> k_commands{{
      {"inspect", "Read an archive's file name as a version contract (version, CUDA, layout, known SHA-256)",
       &setup_inspect},
      {"verify", "Check an archive's SHA-256 against --sha256, a checksum file or the catalog (fail-closed)", &setup_verify},
      {"extract", "Verify and extract an archive into a new folder, refusing hostile members", &setup_extract},
      {"fetch", "Download a catalog archive (NVIDIA or --mirror) into a cache, resuming, verified", &setup_fetch},
      {"catalog", "The release catalogs: update the user catalog from NVIDIA's manifests (validated, fail-closed); list what is known and from where", &setup_catalog},
      {"install", "Verify an archive and install it into a CUDA toolkit as one transaction, with a receipt", &setup_install},
      {"uninstall", "Remove what 'install' put into a toolkit and restore what it replaced", &setup_uninstall},
      {"path", "Show the loader search order and the cuDNN copies on it; put the toolkit's folder first", &setup_path},
      {"doctor", "Diagnose a cuDNN set-up layer by layer: toolkit, files, loader, driver and device, workload", &setup_doctor},
      {"report", "A fleet's view from many nodes' doctor --json documents: the release most run, the nodes that differ and why", &setup_report},
      {"gpu-code", "List the GPU code in CUDA libraries (SASS architectures, PTX, compression), read from their fat binaries", &setup_gpu_code},
      {"explain", "Name the cuDNN/CUDA loading messages of a log (file or standard input): cause, fix, harmless or not", &setup_explain},
      {"trace", "Run a command and report every cuDNN, cuBLAS, NVRTC, cudart and driver library it loads: path, version, search step, shadowed copies, faults", &setup_trace},
      {"bundle", "Framework-bundled cuDNN (PyTorch's torch/lib, the nvidia-cudnn wheels, conda): list, swap, unbundle, restore", &setup_bundle},
      {"bench", "Time cuDNN convolutions (the ResNet-50 layer set, fp16 and fp32) and a fused conv+bias+ReLU on the GPU", &setup_bench},
      {"__probe", "internal: the doctor's child process", &setup_probe, true},
      {"__workload", "internal: the workload's child process", &setup_workload_child, true},
      {"__bundle_load", "internal: loads a bundle's cuDNN the way a framework does", &setup_bundle_load_child, true},
  }};
  return k_commands;
}

Result<const Catalog*> select_catalog(const std::string& path, Catalog& storage) {
  CUDNNCTL_TRY_ASSIGN(const Catalog* selected, select_catalog_unless_builtin(path, storage));
  return selected ? selected : &Catalog::embedded();
}

Result<const Catalog*> select_catalog_unless_builtin(const std::string& path, Catalog& storage) {
  if (path.empty()) {
    // the built-in catalog, then the user catalog (catalog update) when there is one
    const auto user = default_user_catalog_path();
    std::error_code ec;
    if (!std::filesystem::exists(std::filesystem::symlink_status(path_from_utf8(user), ec))) {
      log::info("catalog: the built-in one (no user catalog at {})", user);
      return static_cast<const Catalog*>(nullptr);
    }
    CUDNNCTL_TRY_ASSIGN(auto both, builtin_then_user(user));
    storage = std::move(both);
    return &storage;
  }
  CUDNNCTL_TRY_ASSIGN(auto loaded, Catalog::load_file(path));
  storage = std::move(loaded);
  log::info("catalog: {} ({} archives)", path, storage.archives().size());
  return &storage;
}

Result<const Catalog*> CatalogSource::get() {
  if (m_catalog) return m_catalog;
  m_storage = std::make_shared<Catalog>();
  CUDNNCTL_TRY_ASSIGN(auto selected, select_catalog(m_path, *m_storage));
  m_catalog = selected;
  return m_catalog;
}

void CatalogSource::reload() {
  m_catalog = nullptr;
  m_storage.reset();
}

} // namespace cudnnctl
