#include "cudnnctl/catalog/driver_floors.hpp"

#include <charconv>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/catalog/data_table.hpp"

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

constexpr DataTable k_floor_table{"driver floor table", "driver floor", "floors", "data/driver-floors.json"};

Result<DriverFloor> parse_floor_row(const nlohmann::json& row, const TableRowError& bad, const std::vector<DriverFloor>& before) {
  const auto text = [&](const char* key) { return row_text(row, key); };
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
  for (const auto& seen : before)
    if (seen.cuda_major == f.cuda_major && seen.cuda_minor == f.cuda_minor) return bad(fmt::format("repeats CUDA {}", f.cuda_major));
  return f;
}

} // namespace

Result<std::vector<DriverFloor>> parse_driver_floors(std::string_view json_text, const std::string& origin) {
  return read_table_rows(json_text, origin, k_floor_table, parse_floor_row);
}

const std::vector<DriverFloor>& builtin_driver_floors() { return builtin_table_rows(k_floor_table, embedded::driver_floors_json(), parse_floor_row); }

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
