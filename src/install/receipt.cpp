#include "cudnnctl/install/receipt.hpp"

#include <stdexcept>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cudnnctl/base/crc32.hpp"
#include "cudnnctl/base/strings.hpp"

namespace cudnnctl {

std::string receipt_path(const std::string& state_dir) { return state_dir + "/receipt.json"; }

std::string state_dir_of(const Toolkit& t) { return t.root + "/.cudnnctl"; }

// A file's record: a link names its target; a file its size and CRC-32 (schema 2) or SHA-256 (schema 1),
// whichever it has, and a file with neither, or with one that is not hex of the right length, is refused:
// it could be checked against nothing.
void to_json(nlohmann::json& j, const ReceiptFile& f) {
  j = nlohmann::json{{"path", f.path}, {"kind", f.kind}, {"size", f.size}};
  if (f.kind == "symlink") j["link_target"] = f.link_target;
  if (f.crc32) j["crc32"] = crc32_hex(*f.crc32);
  if (!f.sha256.empty()) j["sha256"] = f.sha256;
}

void from_json(const nlohmann::json& j, ReceiptFile& f) {
  f.path = j.at("path").get<std::string>();
  if (f.path.empty()) throw std::runtime_error("a file entry has no path");
  f.kind = j.value("kind", std::string("file"));
  f.size = j.value("size", std::uint64_t{0});
  f.link_target = j.value("link_target", std::string());
  f.sha256 = j.value("sha256", std::string());
  if (j.contains("crc32")) {
    f.crc32 = crc32_from_hex(j.at("crc32").get<std::string>());
    if (!f.crc32) throw std::runtime_error(fmt::format("the entry '{}' has a crc32 that is not 8 hex digits", f.path));
  }
  if (f.kind == "symlink") return;
  if (f.kind != "file") throw std::runtime_error(fmt::format("the entry '{}' is of an unknown kind '{}'", f.path, f.kind));
  if (!f.sha256.empty() && !is_sha256_hex(f.sha256))
    throw std::runtime_error(fmt::format("the entry '{}' has a sha256 that is not 64 hex digits", f.path));
  if (!f.crc32 && f.sha256.empty()) throw std::runtime_error(fmt::format("the entry '{}' records neither a crc32 nor a sha256", f.path));
}

// One list of fields per record, read and written by the same declaration. Every field but the
// receipt's sha256, files and replaced (and each entry's path) has a default; those are checked below.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(ReceiptBackup, path, backup)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Receipt, id, archive, canonical_name, sha256, verified_by, version,
                                                cuda_variant, platform, toolkit_version, installed_at, backup_dir, files,
                                                replaced)

std::string receipt_to_json(const Receipt& r) {
  nlohmann::json j = r;
  j["schema_version"] = receipt_schema;
  return j.dump(1);
}

Result<Receipt> receipt_from_json(const std::string& text, const std::string& origin) {
  try {
    const auto j = nlohmann::json::parse(text);
    for (const char* key : {"sha256", "files", "replaced"})
      if (!j.contains(key)) throw std::runtime_error(fmt::format("it has no \"{}\"", key));
    if (const int schema = j.value("schema_version", 1); schema > receipt_schema)
      throw std::runtime_error(fmt::format("it is of schema {}, written by a newer cudnnctl (this one reads up to {})", schema, receipt_schema));
    return j.get<Receipt>();
  } catch (const std::exception& e) {
    return fail(ErrorCode::io, fmt::format("the install receipt '{}' is corrupt: {}", origin, e.what()),
                fmt::format("cudnnctl cannot tell what it installed, so install and uninstall change nothing while it is there. "
                            "Put back a good copy if you have one; otherwise move it aside (mv '{0}' '{0}.corrupt'): cudnnctl then "
                            "forgets that install, its files stay in the toolkit, and the next install replaces them",
                            origin),
                origin);
  }
}

namespace {
// One line per installed file that differs from the receipt, with the file's receipt path.
std::vector<std::pair<std::string, std::string>> differences(const Receipt& r, const std::string& root, const InstallFs& fs) {
  std::vector<std::pair<std::string, std::string>> problems;
  auto add = [&](const ReceiptFile& f, std::string why) { problems.emplace_back(f.path, std::move(why)); };
  for (const auto& f : r.files) {
    const auto p = root + "/" + f.path;
    const auto e = fs.entry(p);
    if (f.kind == "symlink") {
      if (e != FsEntry::symlink) add(f, fmt::format("{}: the link is missing", f.path));
      else if (auto t = fs.read_link(p); !t || *t != f.link_target)
        add(f, fmt::format("{}: the link points elsewhere than '{}'", f.path, f.link_target));
      continue;
    }
    if (e != FsEntry::file) {
      add(f, fmt::format("{}: missing", f.path));
      continue;
    }
    const auto size = fs.size(p);
    if (!size || *size != f.size) {
      add(f, fmt::format("{}: {} bytes, the receipt says {} (emptied or replaced, e.g. by antivirus?)", f.path, size ? *size : 0, f.size));
      continue;
    }
    if (!f.sha256.empty()) {  // a receipt of schema 1
      const auto hash = fs.sha256(p);
      if (!hash || *hash != f.sha256) add(f, fmt::format("{}: its SHA-256 differs from the receipt's", f.path));
      continue;
    }
    const auto crc = fs.crc32(p);
    if (!crc || !f.crc32 || *crc != *f.crc32) add(f, fmt::format("{}: its content differs from the receipt's (CRC-32)", f.path));
  }
  return problems;
}
} // namespace

std::vector<std::string> check_receipt(const Receipt& r, const std::string& root, const InstallFs& fs) {
  std::vector<std::string> out;
  for (auto& [path, why] : differences(r, root, fs)) out.push_back(std::move(why));
  return out;
}

std::vector<std::string> differing_files(const Receipt& r, const std::string& root, const InstallFs& fs) {
  std::vector<std::string> out;
  for (auto& [path, why] : differences(r, root, fs)) out.push_back(std::move(path));
  return out;
}

} // namespace cudnnctl
