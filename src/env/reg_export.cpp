#include "cudnnctl/env/reg_export.hpp"

#include <charconv>
#include <cctype>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/platform/input_file.hpp"

namespace cudnnctl {

namespace {

constexpr std::string_view k_machine_env = "hkey_local_machine\\system\\currentcontrolset\\control\\session manager\\environment";
constexpr std::string_view k_user_env = "hkey_current_user\\environment";

std::string trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return {};
  const auto e = s.find_last_not_of(" \t\r");
  return std::string(s.substr(b, e - b + 1));
}

// "\"Name\"" or "@" at the start of a value line -> the name and where the '=' is; nullopt when malformed.
std::optional<std::pair<std::string, std::size_t>> value_name(const std::string& line) {
  if (line.starts_with("@")) return line.size() > 1 && line[1] == '=' ? std::optional(std::pair{std::string(), std::size_t{1}}) : std::nullopt;
  if (!line.starts_with("\"")) return std::nullopt;
  std::string name;
  for (std::size_t i = 1; i < line.size(); ++i) {
    if (line[i] == '\\' && i + 1 < line.size()) {
      name += line[++i];
    } else if (line[i] == '"') {
      if (i + 1 < line.size() && line[i + 1] == '=') return std::pair{name, i + 1};
      return std::nullopt;
    } else {
      name += line[i];
    }
  }
  return std::nullopt;
}

std::optional<std::string> hex_bytes(std::string_view text) {
  std::string out;
  for (auto piece : split(text, ',')) {
    const auto t = trim(piece);
    if (t.empty()) continue;
    if (t.size() != 2 || !std::isxdigit(static_cast<unsigned char>(t[0])) || !std::isxdigit(static_cast<unsigned char>(t[1]))) return std::nullopt;
    unsigned byte = 0;
    std::from_chars(t.data(), t.data() + t.size(), byte, 16);  // two hex digits, checked above
    out += static_cast<char>(byte);
  }
  return out;
}

// UTF-16LE bytes of REG_SZ/REG_EXPAND_SZ/REG_MULTI_SZ -> UTF-8, without the terminating NULs.
std::string utf16_string(const std::string& bytes, bool multi) {
  auto s = utf16le_to_utf8(bytes);
  while (!s.empty() && s.back() == '\0') s.pop_back();
  if (multi)
    for (auto& c : s)
      if (c == '\0') c = '\n';
  return s;
}

// The export's logical lines (BOM and UTF-16 handled): a trailing backslash in a hex value continues it.
std::vector<std::string> logical_lines(std::string_view bytes) {
  const bool utf16 = bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0xFF && static_cast<unsigned char>(bytes[1]) == 0xFE;
  std::string text = utf16 ? utf16le_to_utf8(bytes) : std::string(bytes);
  if (text.starts_with("\xEF\xBB\xBF")) text.erase(0, 3);
  std::vector<std::string> lines;
  std::string pending;
  for (auto raw : split(text, '\n')) {
    std::string line(raw);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!pending.empty()) line = pending + trim(line);
    pending.clear();
    if (!line.empty() && line.back() == '\\' && line.find('=') != std::string::npos && !line.ends_with("\\\\\"")) {
      const auto eq = line.find("=hex");
      if (eq != std::string::npos) {
        line.pop_back();
        pending = line;
        continue;
      }
    }
    lines.push_back(line);
  }
  if (!pending.empty()) lines.push_back(pending);
  return lines;
}

// A hex(...) value's bytes as the type they are.
void read_hex_value(const std::string& kind, const std::string& data, RegValue& v) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(data.data());
  if (kind == "hex(2)") v.type = "REG_EXPAND_SZ", v.data = utf16_string(data, false);
  else if (kind == "hex(7)") v.type = "REG_MULTI_SZ", v.data = utf16_string(data, true);
  else if (kind == "hex(1)") v.type = "REG_SZ", v.data = utf16_string(data, false);
  else if (kind == "hex(0)") v.type = "REG_NONE", v.data = to_hex(bytes, data.size());
  else if (kind == "hex(b)") {
    v.type = "REG_QWORD";
    std::uint64_t q = 0;
    for (std::size_t k = 0; k < data.size() && k < 8; ++k) q |= static_cast<std::uint64_t>(bytes[k]) << (8 * k);
    v.data = std::to_string(q);
  } else v.type = "REG_BINARY", v.data = to_hex(bytes, data.size());
}

// One value's right-hand side ("text", dword:, hex(N):); an error text when it is malformed.
std::optional<std::string> read_value(const std::string& rhs, RegValue& v) {
  if (rhs.starts_with("\"")) {
    if (rhs.size() < 2 || rhs.back() != '"') return fmt::format("the string value of '{}' is not closed", v.name);
    v.type = "REG_SZ";
    for (std::size_t k = 1; k + 1 < rhs.size(); ++k) {
      if (rhs[k] == '\\' && k + 2 < rhs.size()) ++k;
      v.data += rhs[k];
    }
    return std::nullopt;
  }
  if (rhs.starts_with("dword:")) {
    v.type = "REG_DWORD";
    const auto hex = rhs.substr(6);
    if (hex.empty() || hex.size() > 8 || hex.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
      return fmt::format("'{}' is not a dword", rhs);
    std::uint32_t dword = 0;
    std::from_chars(hex.data(), hex.data() + hex.size(), dword, 16);  // at most 8 hex digits, checked above
    v.data = std::to_string(dword);
    return std::nullopt;
  }
  if (rhs.starts_with("hex")) {
    const auto colon = rhs.find(':');
    if (colon == std::string::npos) return std::string("a hex value without ':'");
    const auto data = hex_bytes(rhs.substr(colon + 1));
    if (!data) return fmt::format("the hex bytes of '{}' are malformed", v.name);
    read_hex_value(rhs.substr(0, colon), *data, v);
    return std::nullopt;
  }
  return fmt::format("the value of '{}' has an unknown form '{}'", v.name, rhs.substr(0, 20));
}

} // namespace

Result<std::vector<RegKey>> parse_reg_export(std::string_view bytes, const std::string& origin) {
  auto bad = [&](const std::string& why) {
    return fail(ErrorCode::input_invalid, fmt::format("'{}' is not a registry export: {}", origin, why),
                "export the Environment keys on the Windows machine: reg export \"HKLM\\SYSTEM\\CurrentControlSet\\Control\\Session "
                "Manager\\Environment\" machine.reg and reg export HKCU\\Environment user.reg, then pass --path-file machine.reg "
                "--path-file user.reg",
                origin);
  };
  const auto lines = logical_lines(bytes);
  std::size_t first = 0;
  while (first < lines.size() && trim(lines[first]).empty()) ++first;
  if (first == lines.size()) return bad("it is empty");
  const auto header = trim(lines[first]);
  if (header != "Windows Registry Editor Version 5.00" && header != "REGEDIT4")
    return bad(fmt::format("its first line is '{}', not 'Windows Registry Editor Version 5.00'", header.substr(0, 60)));

  std::vector<RegKey> keys;
  for (std::size_t i = first + 1; i < lines.size(); ++i) {
    const auto line = trim(lines[i]);
    if (line.empty() || line.starts_with(";")) continue;
    if (line.starts_with("[")) {
      if (!line.ends_with("]")) return bad(fmt::format("line {} opens a key and does not close it", i + 1));
      keys.push_back({line.substr(1, line.size() - 2), {}});
      continue;
    }
    const auto nv = value_name(line);
    if (!nv) return bad(fmt::format("line {} is neither a key nor a value: '{}'", i + 1, line.substr(0, 60)));
    if (keys.empty()) return bad(fmt::format("line {} holds a value before any [key]", i + 1));
    const auto& [name, eq] = *nv;
    const std::string rhs = line.substr(eq + 1);
    if (rhs == "-") continue;  // a deletion in a merge file
    RegValue v;
    v.name = name;
    if (const auto why = read_value(rhs, v)) return bad(fmt::format("line {}: {}", i + 1, *why));
    keys.back().values.push_back(std::move(v));
  }
  return keys;
}

ExportedEnvironment environment_from_exports(const std::vector<RegKey>& keys) {
  ExportedEnvironment out;
  std::string machine_path, user_path;
  std::map<std::string, std::string> machine, user;
  for (const auto& k : keys) {
    const auto lower = to_lower_ascii(k.path);
    const bool is_machine = lower == k_machine_env || lower == "hklm\\system\\currentcontrolset\\control\\session manager\\environment";
    const bool is_user = lower == k_user_env || lower == "hkcu\\environment";
    if (!is_machine && !is_user) continue;
    out.sources.push_back(k.path);
    for (const auto& v : k.values) {
      const auto name = to_lower_ascii(v.name);
      std::string upper = v.name;
      for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      if (name == "path") (is_machine ? machine_path : user_path) = v.data;
      else (is_machine ? machine : user)[upper] = v.data;
    }
  }
  out.vars = machine;
  for (const auto& [k, v] : user) out.vars[k] = v;
  out.path = machine_path;
  if (!user_path.empty()) out.path += (out.path.empty() || out.path.ends_with(";") ? "" : ";") + user_path;
  return out;
}

Result<ExportedEnvironment> read_environment_exports(const std::vector<std::string>& files) {
  std::vector<RegKey> keys;
  for (const auto& f : files) {
    CUDNNCTL_TRY_ASSIGN(const auto text, platform::read_input_file(f, "the registry export (--path-file)", 16ull << 20));
    CUDNNCTL_TRY_ASSIGN(auto parsed, parse_reg_export(text, f));
    keys.insert(keys.end(), parsed.begin(), parsed.end());
  }
  auto exported = environment_from_exports(keys);
  if (exported.sources.empty())
    return fail(ErrorCode::input_invalid, fmt::format("{} holds neither the machine nor the user Environment key", fmt::join(files, ", ")),
                "export HKLM\\SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Environment and HKCU\\Environment",
                files.empty() ? std::string() : files.front());
  return exported;
}

} // namespace cudnnctl
