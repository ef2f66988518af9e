#include "cudnnctl/commands/contract_output.hpp"

#include <ostream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>

#include "cudnnctl/base/strings.hpp"

namespace cudnnctl {

namespace {

std::string os_name(Os os) { return os == Os::windows ? "Windows" : os == Os::macos ? "macOS" : "Linux"; }

std::string macro_formula(const Version& v) {
  return v.major() >= 9 ? "major*10000 + minor*100 + patch (cuDNN 9 headers)"
                        : "major*1000 + minor*100 + patch (cuDNN 8 and earlier headers)";
}

void row(std::ostream& out, std::string_view label, const std::string& value) {
  out << fmt::format("  {:<16} {}\n", label, value);
}

} // namespace

nlohmann::json contract_to_json(const VersionContract& c) {
  using nlohmann::json;
  const auto& n = c.name;
  json j;
  j["file_name"] = n.given;
  j["canonical_name"] = n.canonical;
  j["product"] = "cudnn";
  j["os"] = std::string(to_string(n.os));
  j["arch"] = std::string(to_string(n.arch));
  j["platform"] = n.platform;
  j["version"] = n.version.to_string();
  j["version_parts"] = json::array();
  for (int i = 0; i < n.version.count; ++i) j["version_parts"].push_back(n.version.parts[static_cast<std::size_t>(i)]);
  j["release"] = n.version.release_label();
  if (c.pin)
    j["release_pin"] = {{"exact", c.pin->exact}, {"release", c.pin->exact ? json(c.pin->release) : json(nullptr)},
                        {"range", c.pin->exact ? json(nullptr) : json(c.pin->range)}, {"source", c.pin->source}};
  else
    j["release_pin"] = nullptr;
  j["cudnn_version_macro"] = c.cudnn_version ? json(*c.cudnn_version) : json(nullptr);
  j["cuda_variant"] = n.cuda_variant;
  j["cuda_major"] = n.cuda_major();
  j["format"] = std::string(to_string(n.format));
  j["naming_era"] = std::string(to_string(n.era));
  j["naming_era_description"] = std::string(describe(n.era));
  const auto& l = c.layout;
  j["layout"] = {{"top_folder", l.top_folder},
                 {"include_dir", l.include_dir},
                 {"library_dir", l.library_dir},
                 {"import_library_dir", l.import_library_dir.empty() ? json(nullptr) : json(l.import_library_dir)},
                 {"license_file", l.license_file},
                 {"sub_libraries", l.sub_libraries},
                 {"library_files", l.library_files},
                 {"headers", l.headers},
                 {"notes", l.notes}};
  j["in_catalog"] = c.catalog_entry.has_value();
  j["catalog"] = c.catalog_origin;
  j["known_hashes"] = json::array();
  if (c.catalog_entry) {
    j["url"] = c.catalog_entry->url;
    for (const auto& h : c.catalog_entry->hashes)
      j["known_hashes"].push_back({{"sha256", h.sha256},
                                   {"size", h.size ? json(*h.size) : json(nullptr)},
                                   {"size_note", h.size || h.size_note.empty() ? json(nullptr) : json(h.size_note)},
                                   {"md5", h.md5.empty() ? json(nullptr) : json(h.md5)},
                                   {"confidence", h.confidence},
                                   {"sources", h.sources},
                                   {"notes", h.notes}});
  } else {
    j["url"] = nullptr;
  }
  j["release_date"] = c.release && !c.release->date.empty() ? json(c.release->date) : json(nullptr);
  j["support"] = json::array();
  for (const auto& s : c.support) {
    json row{{"cuda_variant", s.cuda_variant},
             {"cuda_toolkits", s.cuda_toolkits},
             {"cuda_min", s.cuda_toolkits.empty() ? json(nullptr) : json(s.cuda_toolkits.front())},
             {"cuda_max", s.cuda_toolkits.empty() ? json(nullptr) : json(s.cuda_toolkits.back())},
             {"min_driver_linux", s.min_driver_linux.empty() ? json(nullptr) : json(s.min_driver_linux)},
             {"min_driver_windows", s.min_driver_windows.empty() ? json(nullptr) : json(s.min_driver_windows)},
             {"compute_capabilities", s.compute_capabilities},
             {"source", s.source},
             {"notes", s.notes}};
    j["support"].push_back(row);
  }
  j["runs_on_this_machine"] = c.host.runs_here;
  j["host_mismatch"] = c.host.runs_here ? json(nullptr) : json(c.host.explanation);
  j["suggested_archive"] = c.host.suggested_name.empty() ? json(nullptr) : json(c.host.suggested_name);
  return j;
}

void print_contract(std::ostream& out, const VersionContract& c) {
  const auto& n = c.name;
  const auto& l = c.layout;
  out << n.canonical << "\n";
  row(out, "product", "cuDNN (NVIDIA CUDA Deep Neural Network library)");
  row(out, "platform", fmt::format("{} ({} {})", n.platform, os_name(n.os), to_string(n.arch)));
  std::string version = n.version.to_string();
  if (c.release && !c.release->date.empty()) version += fmt::format(" (release {}, {})", n.version.release_label(), c.release->date);
  row(out, "version", version);
  if (c.pin) {
    if (c.pin->exact)
      row(out, "  release", fmt::format("{} (the name gives only '{}')", c.pin->release, n.version.to_string()));
    else
      row(out, "  release", fmt::format("not pinned: the name gives only '{}'; it can be {}", n.version.to_string(), c.pin->range));
    row(out, "  source", c.pin->source);
  }
  row(out, "CUDNN_VERSION", c.cudnn_version ? fmt::format("{} = {}", *c.cudnn_version, macro_formula(n.version))
                                            : "unknown: the name does not give minor and patch");
  row(out, "CUDA variant", fmt::format("cuda{} (built for CUDA {}.x)", n.cuda_variant, n.cuda_major()));
  row(out, "format", std::string(to_string(n.format)));
  row(out, "naming era", std::string(describe(n.era)));
  row(out, "layout", l.top_folder + "/");
  const bool windows = n.os == Os::windows;
  row(out, windows ? "  DLLs" : "  libraries", l.library_dir + "/");
  if (!l.import_library_dir.empty()) row(out, "  import libs", l.import_library_dir + "/");
  row(out, "  headers", l.include_dir + "/");
  row(out, "  license", l.license_file);
  row(out, "library files", fmt::format("{}", fmt::join(l.library_files, ", ")));
  for (const auto& note : l.notes) row(out, "  note", note);

  if (!c.catalog_entry) {
    row(out, "known SHA-256", fmt::format("not in the catalog {}: no hash is known for this name", c.catalog_origin));
  } else {
    bool first = true;
    for (const auto& h : c.catalog_entry->hashes) {
      row(out, first ? "known SHA-256" : "", h.sha256);
      row(out, "", fmt::format("{}, confidence {}", h.size ? human_size(*h.size) : std::string("size unknown"), h.confidence));
      if (!h.size) row(out, "", "no size: " + (h.size_note.empty() ? std::string("the catalog's sources give none") : h.size_note));
      for (const auto& s : h.sources) row(out, "", "source: " + s);
      first = false;
    }
    row(out, "url", c.catalog_entry->url);
  }
  if (c.support.empty()) {
    row(out, "supported CUDA", "not in the catalog: no NVIDIA support matrix is recorded for this release");
  } else {
    for (const auto& s : c.support) {
      row(out, "supported CUDA", s.cuda_toolkits.empty() ? std::string("not stated by the source")
                                                         : fmt::format("{} ({})", cuda_range(s), fmt::join(s.cuda_toolkits, ", ")));
      row(out, "  min driver", fmt::format("Linux {}, Windows {}",
                                           s.min_driver_linux.empty() ? "unknown" : ">= " + s.min_driver_linux,
                                           s.min_driver_windows.empty() ? "not stated" : ">= " + s.min_driver_windows));
      if (!s.compute_capabilities.empty())
        row(out, "  compute caps", fmt::format("{}", fmt::join(s.compute_capabilities, ", ")));
      row(out, "  source", s.source);
      for (const auto& note : s.notes) row(out, "  note", note);
    }
  }
  row(out, "this machine", c.host.runs_here ? std::string("can load this archive's libraries")
                                            : "cannot load this archive's libraries: " + c.host.explanation);
}

} // namespace cudnnctl
