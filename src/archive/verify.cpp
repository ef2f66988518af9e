#include "cudnnctl/archive/verify.hpp"

#include <filesystem>
#include <sstream>

#include <fmt/format.h>

#include "cudnnctl/base/log.hpp"
#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/platform/input_file.hpp"

namespace cudnnctl {

namespace {
// checksum files are a line per archive: 1 MiB is thousands of them
Result<std::string> read_text(const std::string& path, const std::string& what) { return platform::read_input_file(path, what, 1 << 20); }
} // namespace

bool sidecar_present(const std::string& archive_path) {
  std::error_code ec;
  // symlink_status: a dangling or FIFO sidecar is present (and then refused by the reader), never opened here
  return std::filesystem::exists(std::filesystem::symlink_status(path_from_utf8(archive_path + ".sha256"), ec));
}

Result<std::string> hash_from_sha256sum_text(const std::string& text, const std::string& file_name, const std::string& origin) {
  std::vector<std::pair<std::string, std::string>> lines;  // hash, name
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const auto start = line.find_first_not_of(" \t");
    if (start == std::string::npos || line[start] == '#') continue;
    line = line.substr(start);
    const auto hex = line.substr(0, line.find_first_of(" \t"));
    if (!is_sha256_hex(hex))
      return fail(ErrorCode::hash_bad_input, fmt::format("{} has a line that does not start with a SHA-256: '{}'", origin, line.substr(0, 80)),
                  "the format is that of sha256sum: <64 hex digits>  <file name>", origin);
    std::string name = line.size() > 64 ? line.substr(64) : std::string();
    const auto ns = name.find_first_not_of(" \t*");
    name = ns == std::string::npos ? std::string() : name.substr(ns);
    lines.emplace_back(to_lower_ascii(hex), std::string(base_name(name)));
  }
  if (lines.empty()) return fail(ErrorCode::hash_bad_input, fmt::format("{} holds no SHA-256", origin), "", origin);
  for (const auto& [hash, name] : lines)
    if (name == file_name) return hash;
  if (lines.size() == 1 && lines[0].second.empty()) return lines[0].first;
  if (lines.size() == 1) return lines[0].first;
  return fail(ErrorCode::hash_bad_input, fmt::format("{} lists no hash for '{}'", origin, file_name),
              "give the hash with --sha256, or a checksum file that names this archive", origin);
}

Result<std::vector<ExpectedHash>> expected_hashes(const std::string& archive_path, const std::string& canonical_name,
                                                  const HashSources& sources, const Catalog& catalog,
                                                  std::vector<std::string>& warnings) {
  std::vector<ExpectedHash> out;
  const std::string file_name(base_name(archive_path));
  if (!sources.sha256.empty()) {
    if (!is_sha256_hex(sources.sha256))
      return fail(ErrorCode::hash_bad_input, fmt::format("--sha256 '{}' is not a SHA-256 (64 hex digits)", sources.sha256),
                  "copy the hash from NVIDIA's redistrib JSON or from 'cudnnctl inspect NAME'");
    out.push_back({to_lower_ascii(sources.sha256), "--sha256", std::nullopt});
    return out;
  }
  if (!sources.sha256_file.empty()) {
    CUDNNCTL_TRY_ASSIGN(auto text, read_text(sources.sha256_file, "the checksum file (--sha256-file)"));
    CUDNNCTL_TRY_ASSIGN(auto hash, hash_from_sha256sum_text(text, file_name, sources.sha256_file));
    out.push_back({hash, "--sha256-file " + sources.sha256_file, std::nullopt});
    return out;
  }
  const std::string sidecar = archive_path + ".sha256";
  if (sidecar_present(archive_path)) {
    CUDNNCTL_TRY_ASSIGN(auto text, read_text(sidecar, "the checksum sidecar"));
    CUDNNCTL_TRY_ASSIGN(auto hash, hash_from_sha256sum_text(text, file_name, sidecar));
    // anyone who can place an archive can place its sidecar: when the catalog knows this exact name, the
    // two must agree, or nothing is trusted (the user can still decide with --sha256)
    if (const auto* entry = catalog.find_archive(canonical_name)) {
      std::string known;
      for (const auto& h : entry->hashes) {
        if (h.sha256 == hash) {
          out.push_back({hash, fmt::format("sidecar {}, agreeing with catalog {}", sidecar, catalog.origin()), h.size});
          return out;
        }
        known += fmt::format("\n  catalog {} says {}", catalog.origin(), h.sha256);
      }
      if (!entry->hashes.empty())
        return fail(ErrorCode::hash_mismatch,
                    fmt::format("the sidecar and the catalog disagree about {}:\n  sidecar {} says {}{}", canonical_name, sidecar, hash, known),
                    "two sources of the expected hash contradict each other, so neither is trusted: download the archive and its "
                    "checksum again from NVIDIA, or, if you know which hash is right, give it with --sha256",
                    sidecar);
    }
    warnings.push_back(fmt::format("the catalog does not know {}: the only expected hash is the sidecar's, which is as trustworthy as the "
                                   "place the archive came from",
                                   canonical_name));
    out.push_back({hash, "sidecar " + sidecar, std::nullopt});
    return out;
  }
  if (const auto* entry = catalog.find_archive(canonical_name))
    for (const auto& h : entry->hashes)
      out.push_back({h.sha256, fmt::format("catalog {}, confidence {}", catalog.origin(), h.confidence), h.size});
  return out;
}

Error no_expected_hash(const std::string& path, const std::string& actual) {
  const auto what = actual.empty() ? std::string() : fmt::format(" (its SHA-256 is {})", actual);
  return Error{ErrorCode::hash_unknown, fmt::format("no expected SHA-256 is known for '{}'{}; refusing to trust it", path, what),
               "give the hash from NVIDIA's redistrib JSON with --sha256, a checksum file with --sha256-file or "
               "<archive>.sha256, a newer catalog with --catalog, or accept the risk with --allow-unverified",
               path};
}

Result<VerifyOutcome> judge_hash(const std::string& path, std::uint64_t size, const std::string& actual,
                                 const std::vector<ExpectedHash>& expected, bool allow_unverified) {
  VerifyOutcome outcome{path, size, actual, std::nullopt};
  for (const auto& e : expected) log::debug("verify: expected SHA-256 {} from {}", e.sha256, e.origin);
  if (expected.empty()) {
    log::info("verify: no expected SHA-256 known for {}; {}", path, allow_unverified ? "accepted (--allow-unverified)" : "refused");
    if (allow_unverified) return outcome;
    return Unexpected<Error>(no_expected_hash(path, actual));
  }
  for (const auto& e : expected)
    if (e.sha256 == actual) {
      log::info("verify: {} matches the SHA-256 from {}", path, e.origin);
      outcome.matched = e;
      return outcome;
    }
  std::string expected_list;
  std::optional<std::uint64_t> known_size;
  for (const auto& e : expected) {
    expected_list += fmt::format("\n  expected {} ({})", e.sha256, e.origin);
    if (e.size && !known_size) known_size = e.size;
  }
  std::string meaning;
  if (known_size && size < *known_size)
    meaning = fmt::format("the file is {} bytes but NVIDIA's is {}: an incomplete download (stopped at {:.1f}%)", size, *known_size,
                          100.0 * static_cast<double>(size) / static_cast<double>(*known_size));
  else if (known_size && size == *known_size)
    meaning = "the size matches NVIDIA's but the hash does not: an unknown build of a known name (NVIDIA has re-issued archives under "
              "one name), or a damaged copy";
  else if (known_size)
    meaning = fmt::format("the file is {} bytes and NVIDIA's is {}: a different file saved under this name", size, *known_size);
  else
    meaning = "a different file, or a damaged download";
  return fail(ErrorCode::hash_mismatch,
              fmt::format("SHA-256 mismatch for '{}': {}\n  actual   {}{}", path, meaning, actual, expected_list),
              "do not install it: download the archive again from NVIDIA and verify the new file", path);
}

} // namespace cudnnctl
