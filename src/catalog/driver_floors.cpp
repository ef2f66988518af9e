#include "cudnnctl/catalog/driver_floors.hpp"

#include <charconv>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cudnnctl/base/strings.hpp"

namespace cudnnctl::embedded {
std::string_view driver_floors_json();  // data/driver-floors.json, embedded by CMake
}

namespace cudnnctl {

namespace {

std::optional<unsigned> floor_number(std::string_view s) {
  unsigned v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || s.empty() || v > 999) return std::nullopt;
  return v;
}

// "580", "525.60.13", "452.39": digits and dots, nothing else
bool is_driver_version(const std::string& s) {
  if (s.empty() || s.size() > 24 || s.front() == '.' || s.back() == '.') return false;
  for (const char c : s)
    if (!(c == '.' || (c >= '0' && c <= '9'))) return false;
  return s.find("..") == std::string::npos;
}

Result<DriverFloor> parse_floor_row(const nlohmann::json& row, const std::string& origin, std::size_t index) {
  auto bad = [&](const std::string& why) {
    return fail(ErrorCode::catalog_invalid, fmt::format("{}: driver floor #{} {}", origin, index, why),
                "fix the driver floor table (data/driver-floors.json) and rebuild", origin);
  };
  if (!row.is_object()) return bad("is not an object");
  auto text = [&](const char* key) { return row.contains(key) && row[key].is_string() ? row[key].get<std::string>() : std::string(); };
  DriverFloor f;
  const auto cuda = text("cuda");
  const auto dot = cuda.find('.');
  const auto major = floor_number(std::string_view(cuda).substr(0, dot));
  if (!major || *major == 0) return bad(fmt::format("has no CUDA version ('{}')", cuda));
  f.cuda_major = *major;
  if (dot != std::string::npos) {
    f.cuda_minor = floor_number(std::string_view(cuda).substr(dot + 1));
    if (!f.cuda_minor) return bad(fmt::format("has a bad CUDA version ('{}')", cuda));
  }
  f.linux_min = text("linux");
  f.windows_min = text("windows");
  f.note = text("note");
  if (!is_driver_version(f.linux_min) || !is_driver_version(f.windows_min)) return bad(fmt::format("(CUDA {}) needs dotted Linux and Windows minimums", cuda));
  return f;
}

} // namespace

Result<std::vector<DriverFloor>> parse_driver_floors(std::string_view json_text, const std::string& origin) {
  const auto doc = nlohmann::json::parse(json_text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("floors") || !doc["floors"].is_array())
    return fail(ErrorCode::catalog_invalid, fmt::format("{} is not a driver floor table (no 'floors' list)", origin),
                "fix the driver floor table (data/driver-floors.json) and rebuild", origin);
  std::vector<DriverFloor> out;
  for (std::size_t i = 0; i < doc["floors"].size(); ++i) {
    CUDNNCTL_TRY_ASSIGN(auto row, parse_floor_row(doc["floors"][i], origin, i));
    for (const auto& seen : out)
      if (seen.cuda_major == row.cuda_major && seen.cuda_minor == row.cuda_minor)
        return fail(ErrorCode::catalog_invalid, fmt::format("{}: driver floor #{} repeats CUDA {}", origin, i, row.cuda_major), "", origin);
    out.push_back(std::move(row));
  }
  return out;
}

const std::vector<DriverFloor>& builtin_driver_floors() {
  static const std::vector<DriverFloor> table = [] {
    auto parsed = parse_driver_floors(embedded::driver_floors_json(), "built-in driver floor table");
    return parsed ? std::move(*parsed) : std::vector<DriverFloor>{};  // tests/catalog checks that it parses
  }();
  return table;
}

std::optional<std::string> driver_floor_for(unsigned cuda_major, std::optional<unsigned> cuda_minor, Os os, const std::vector<DriverFloor>& table) {
  const DriverFloor* major_row = nullptr;
  for (const auto& r : table) {
    if (r.cuda_major != cuda_major) continue;
    if (r.cuda_minor && cuda_minor && *r.cuda_minor == *cuda_minor) return os == Os::windows ? r.windows_min : r.linux_min;
    if (!r.cuda_minor) major_row = &r;
  }
  if (!major_row) return std::nullopt;
  return os == Os::windows ? major_row->windows_min : major_row->linux_min;
}

bool driver_below_floor(const std::string& driver, unsigned cuda_major, std::optional<unsigned> cuda_minor, Os os) {
  const auto floor = driver_floor_for(cuda_major, cuda_minor, os);
  if (!floor || driver.empty() || !is_driver_version(driver)) return false;
  return compare_dotted(driver, *floor) < 0;
}

} // namespace cudnnctl
