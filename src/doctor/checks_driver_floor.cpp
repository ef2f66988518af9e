// Layer 4: the driver against the CUDA it must run: the toolkit's CUDA and each framework bundle's CUDA major,
// with NVIDIA's minimum driver per CUDA major (data/driver-floors.json, catalog/driver_floors.hpp). A driver
// below it fails every CUDA program of that major at its first call ("The NVIDIA driver on your system is too old").
#include <charconv>
#include <set>

#include <fmt/format.h>

#include "cudnnctl/catalog/driver_floors.hpp"
#include "cudnnctl/doctor/check_table.hpp"

namespace cudnnctl {

namespace {

std::optional<unsigned> version_part(const std::string& version, std::size_t index) {
  std::size_t at = 0;
  for (std::size_t i = 0; i < index; ++i) {
    at = version.find('.', at);
    if (at == std::string::npos) return std::nullopt;
    ++at;
  }
  const auto end = version.find('.', at);
  const auto part = version.substr(at, end == std::string::npos ? std::string::npos : end - at);
  unsigned v = 0;
  const auto [p, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
  if (ec != std::errc() || p != part.data() + part.size() || part.empty()) return std::nullopt;
  return v;
}

void floor_finding(const DoctorFacts& f, Os os, unsigned major, std::optional<unsigned> minor, const std::string& whose, Checks& out) {
  const auto floor = driver_floor_for(major, minor, os);
  const auto cuda = minor ? fmt::format("{}.{}", major, *minor) : fmt::format("{}", major);
  if (!floor) {
    out.push_back(make_check("driver.cuda_floor", 4, CheckStatus::pass,
                             fmt::format("driver {}; no minimum is known for CUDA {} ({})", f.driver_version, cuda, whose)));
    return;
  }
  if (!driver_below_floor(f.driver_version, major, minor, os)) {
    out.push_back(make_check("driver.cuda_floor", 4, CheckStatus::pass,
                             fmt::format("driver {} >= {}, the minimum for CUDA {} ({})", f.driver_version, *floor, major, whose)));
    return;
  }
  Check c = make_check("driver.cuda_floor", 4, CheckStatus::fail,
                       fmt::format("driver {} is older than {}, the minimum NVIDIA lists for CUDA {} ({})", f.driver_version, *floor, major, whose));
  c.cause = fmt::format("CUDA {} programs and libraries need a driver of at least {}; an older one fails at the first CUDA call "
                        "(\"The NVIDIA driver on your system is too old\", CUDA_ERROR_INSUFFICIENT_DRIVER)",
                        major, *floor);
  c.fix = fmt::format("update the NVIDIA driver to {} or newer, or use a CUDA {} build of cuDNN and the framework that this driver runs",
                      *floor, major > 1 ? major - 1 : major);
  out.push_back(std::move(c));
}

void check_driver_cuda_floor(const DoctorFacts& f, Checks& out) {
  const auto* t = f.tk();
  if (!t || f.driver_version.empty()) return;
  const auto os = t->os;
  std::set<unsigned> majors;
  if (const auto major = version_part(t->version, 0)) {
    majors.insert(*major);
    // before CUDA 11 each minor has its own floor
    floor_finding(f, os, *major, *major < 11 ? version_part(t->version, 1) : std::nullopt, fmt::format("the toolkit's CUDA {}", t->version), out);
  }
  for (const auto& b : f.bundles().bundles) {
    if (b.cuda_major == 0 || !majors.insert(b.cuda_major).second) continue;
    floor_finding(f, os, b.cuda_major, std::nullopt, fmt::format("the CUDA {} framework bundle in {}", b.cuda_major, b.dir), out);
  }
}

} // namespace

const std::vector<CheckSpec>& driver_floor_check_rows() {
  static const std::vector<CheckSpec> rows{
      {"driver.cuda_floor", 4, need_driver_files | need_bundles, &check_driver_cuda_floor, "the driver version against NVIDIA's minimum driver for the toolkit's CUDA and for each framework bundle's CUDA major (data/driver-floors.json)", ""},
  };
  return rows;
}

} // namespace cudnnctl
