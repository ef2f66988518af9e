#include "cudnnctl/install/receipt.hpp"

#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace cudnnctl {

std::string receipt_path(const std::string& state_dir) { return state_dir + "/receipt.json"; }

std::string state_dir_of(const Toolkit& t) { return t.root + "/.cudnnctl"; }

std::string receipt_to_json(const Receipt& r) {
  nlohmann::json files = nlohmann::json::array();
  for (const auto& f : r.files)
    files.push_back({{"path", f.path}, {"kind", f.kind}, {"size", f.size}, {"sha256", f.sha256}, {"link_target", f.link_target}});
  nlohmann::json replaced = nlohmann::json::array();
  for (const auto& b : r.replaced) replaced.push_back({{"path", b.path}, {"backup", b.backup}});
  return nlohmann::json{{"schema_version", 1},
                        {"id", r.id},
                        {"archive", r.archive},
                        {"canonical_name", r.canonical_name},
                        {"sha256", r.sha256},
                        {"verified_by", r.verified_by},
                        {"version", r.version},
                        {"cuda_variant", r.cuda_variant},
                        {"platform", r.platform},
                        {"toolkit_version", r.toolkit_version},
                        {"installed_at", r.installed_at},
                        {"backup_dir", r.backup_dir},
                        {"files", files},
                        {"replaced", replaced}}
             .dump(1);
}

Result<Receipt> receipt_from_json(const std::string& text, const std::string& origin) {
  try {
    const auto j = nlohmann::json::parse(text);
    Receipt r;
    r.id = j.value("id", "");
    r.archive = j.value("archive", "");
    r.canonical_name = j.value("canonical_name", "");
    r.sha256 = j.at("sha256").get<std::string>();
    r.verified_by = j.value("verified_by", "");
    r.version = j.value("version", "");
    r.cuda_variant = j.value("cuda_variant", "");
    r.platform = j.value("platform", "");
    r.toolkit_version = j.value("toolkit_version", "");
    r.installed_at = j.value("installed_at", "");
    r.backup_dir = j.value("backup_dir", "");
    for (const auto& f : j.at("files"))
      r.files.push_back({f.at("path").get<std::string>(), f.value("kind", "file"), f.value("size", std::uint64_t{0}),
                         f.value("sha256", ""), f.value("link_target", "")});
    for (const auto& b : j.at("replaced")) r.replaced.push_back({b.at("path").get<std::string>(), b.at("backup").get<std::string>()});
    return r;
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
    const auto hash = fs.sha256(p);
    if (!hash || *hash != f.sha256) add(f, fmt::format("{}: its SHA-256 differs from the receipt's", f.path));
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
