#include "cudnnctl/doctor/explain.hpp"

#include <regex>

#include <fmt/format.h>

namespace cudnnctl {

namespace {

// First pattern that fits wins: the specific ones come before the general ones they contain.
constexpr LogPattern k_patterns[] = {
    {{"unable to register cu", "factory"}, {"loader.factory-registered"}},
    {{"attempting to register factory for plugin"}, {"loader.factory-registered"}},
    {{"/usr/lib/wsl/lib/", "is not a symbolic link"}, {"driver.wsl.copies"}},
    {{"unsupported display driver / cuda driver combination"}, {"driver.compat-shadows", "driver.version"}},
    {{"cuda_error_system_driver_mismatch"}, {"driver.compat-shadows"}},
    {{"undefined symbol: cudnn"}, {"loader.sublibrary.elsewhere", "files.versions.mixed"}},
    {{"libcudnn", "undefined symbol"}, {"loader.sublibrary.elsewhere", "files.versions.mixed"}},
    {{"sublibrary_version_mismatch"}, {"files.versions.mixed", "loader.versions.mixed", "loader.version_checks"}},
    {{"sublibrary_loading_failed"}, {"files.complete", "loader.version_checks"}},
    {{"sublibrary_unavailable"}, {"files.complete", "loader.version_checks"}},
    {{"loaded runtime cudnn library"}, {"files.search_path", "files.frameworks"}},
    {{"cudnn version incompatibility"}, {"files.search_path", "files.frameworks"}},
    {{"onnxruntime_providers_cuda"}, {"loader.onnxruntime", "loader.cuda-majors"}},
    {{"loadlibrary failed with error 126"}, {"loader.onnxruntime", "loader.needed.windows"}},
    {{"libnvrtc", "cannot open shared object file"}, {"loader.runtime_deps", "loader.cuda-majors"}},
    {{"libcublaslt.so.", "cannot open shared object file"}, {"loader.cuda-majors", "loader.runtime_deps"}},
    {{"libcublas.so.", "cannot open shared object file"}, {"loader.cuda-majors", "loader.runtime_deps"}},
    {{"libcudart.so.", "cannot open shared object file"}, {"loader.cuda-majors", "loader.runtime_deps"}},
    {{"could not find module", "64_13.dll"}, {"toolkit.cuda13-bin-x64"}},
    {{"64_13.dll", "not found"}, {"toolkit.cuda13-bin-x64"}},
    {{"unable to load any of {libcudnn"}, {"files.complete", "loader.load.aborted"}},
    {{"could not locate cudnn"}, {"files.complete", "loader.load.aborted"}},
    {{"invalid handle. cannot load symbol"}, {"loader.load.aborted", "files.complete"}},
    {{"cannot load symbol cudnn"}, {"loader.load.aborted", "files.complete"}},
    {{"could not load library", "cudnn", "error code 126"}, {"files.complete", "loader.needed.windows", "loader.needed.vcredist"}},
    {{"could not load library", "cudnn"}, {"files.complete", "loader.needed"}},
    {{"zlibwapi.dll"}, {"files.dlls"}},
    {{"error code 193"}, {"files.dlls"}},
    {{"winerror 193"}, {"files.dlls"}},
    {{"is not a valid win32 application"}, {"files.dlls"}},
    {{"winerror 127"}, {"files.versions.mixed", "loader.sublibrary.elsewhere"}},
    {{"error code 127"}, {"files.versions.mixed", "loader.sublibrary.elsewhere"}},
    {{"winerror 1455"}, {"loader.paging-file"}},
    {{"paging file is too small"}, {"loader.paging-file"}},
    {{"winerror 126"}, {"loader.needed.windows", "files.dlls", "loader.needed.vcredist"}},
    {{"error code 126"}, {"loader.needed.windows", "files.dlls", "loader.needed.vcredist"}},
    {{"cannot dlopen some gpu libraries"}, {"loader.tf-cannot-dlopen"}},
    {{"cuda_error_stub_library"}, {"driver.stub", "driver.stubs-on-path"}},
    {{"libcuda.so.1: cannot open shared object file"}, {"driver.none"}},
    {{"libcuda.so: cannot open shared object file"}, {"driver.none", "driver.wsl.copies"}},
    {{"cuda driver version is insufficient"}, {"driver.none", "driver.version"}},
    {{"found no nvidia driver"}, {"driver.none"}},
    {{"cuda version: err!"}, {"driver.wsl.linux-driver", "driver.init"}},
    {{"nvidia-smi has failed because it couldn't communicate with the nvidia driver"}, {"driver.init", "driver.wsl.linux-driver"}},
    {{"cudagetdevicecount"}, {"driver.stub", "driver.stubs-on-path", "driver.none"}},
    {{"no kernel image is available"}, {"device.arch.too-new-gpu"}},
    {{"cudnn_status_arch_mismatch"}, {"device.arch.too-new-gpu"}},
    {{"is not compatible with the current pytorch installation"}, {"device.arch.too-new-gpu"}},
    {{"could not create cudnn handle"}, {"device.create", "driver.version"}},
    {{"cudnn_status_not_initialized"}, {"device.create", "driver.version"}},
    {{"possibly insufficient driver version"}, {"driver.version", "device.create"}},
    {{"cudnn_status_execution_failed"}, {"workload.failed-layers", "device.arch.dropped", "device.arch.too-new-gpu"}},
    {{"error while loading shared libraries", "cannot open shared object file"}, {"loader.needed"}},
    {{"libcudnn", "cannot open shared object file"}, {"files.complete", "loader.needed"}},
};

constexpr std::size_t k_max_line = 4096;  // read of each line
constexpr std::size_t k_max_shown = 500;  // kept of it in a match

std::string lower_ascii(std::string_view s) {
  std::string out(s);
  for (auto& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

bool fits(const LogPattern& p, const std::string& lower) {
  bool any = false;
  for (auto piece : p.all_of) {
    if (piece.empty()) continue;
    if (lower.find(piece) == std::string::npos) return false;
    any = true;
  }
  return any;
}

// What the line itself says beyond the signature: the versions it compares, the library it names.
std::string detail_of(const std::string& line, const Signature& s) {
  std::smatch m;
  if (s.id == "files.search_path") {
    static const std::regex loaded(R"(Loaded runtime CuDNN library:\s*([0-9]+(?:\.[0-9]+)*)\D+compiled with:\s*([0-9]+(?:\.[0-9]+)*))", std::regex::icase);
    static const std::regex torch(R"(compiled against \(([0-9, ]+)\) but found runtime version \(([0-9, ]+)\))", std::regex::icase);
    if (std::regex_search(line, m, loaded))
      return fmt::format("the cuDNN loaded is {}, older than the {} the program was built with: another copy is found first", m[1].str(), m[2].str());
    if (std::regex_search(line, m, torch))
      return fmt::format("the program was built with cuDNN ({}) but loaded ({}): another copy is found first", m[1].str(), m[2].str());
  }
  static const std::regex so(R"(([A-Za-z0-9_+.-]+\.so(?:\.[0-9]+)*): cannot open shared object file)");
  if (std::regex_search(line, m, so)) return fmt::format("the library that cannot be found: {}", m[1].str());
  static const std::regex symbol(R"(undefined symbol: ([A-Za-z_][A-Za-z0-9_]*))");
  if (std::regex_search(line, m, symbol)) return fmt::format("the symbol missing: {}", m[1].str());
  static const std::regex cannot_load(R"(Cannot load symbol ([A-Za-z_][A-Za-z0-9_]*))", std::regex::icase);
  if (std::regex_search(line, m, cannot_load)) return fmt::format("cuDNN wanted {} from a sub-library it could not open", m[1].str());
  static const std::regex dll(R"(([A-Za-z0-9_.+-]+\.dll))", std::regex::icase);
  if (std::regex_search(line, m, dll)) return fmt::format("the DLL named: {}", m[1].str());
  return {};
}

} // namespace

std::span<const LogPattern> log_patterns() { return k_patterns; }

std::vector<ExplainMatch> explain_line(std::string_view line, std::size_t line_no) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  const std::string cut(line.substr(0, k_max_line));
  const auto lower = lower_ascii(cut);
  for (const auto& p : k_patterns) {
    if (!fits(p, lower)) continue;
    ExplainMatch m;
    m.line = line_no;
    m.text = cut.substr(0, k_max_shown);
    m.signature = &signature(p.signatures[0]);
    for (std::size_t i = 1; i < std::size(p.signatures); ++i)
      if (!p.signatures[i].empty()) m.also.push_back(&signature(p.signatures[i]));
    m.detail = detail_of(cut, *m.signature);
    return {m};
  }
  return {};
}

std::vector<ExplainMatch> explain_text(std::string_view text) {
  std::vector<ExplainMatch> out;
  std::size_t line_no = 0;
  while (!text.empty()) {
    ++line_no;
    const auto nl = text.find('\n');
    const auto line = text.substr(0, nl);
    for (auto& m : explain_line(line, line_no)) out.push_back(std::move(m));
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return out;
}

} // namespace cudnnctl
