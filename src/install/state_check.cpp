#include "cudnnctl/install/state_check.hpp"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cudnnctl/base/utf8_path.hpp"

namespace cudnnctl {

namespace fs = std::filesystem;

namespace {
// '\' is a separator too: Windows paths use it, and on Linux treating it as one only refuses more
std::string with_slashes(std::string_view p) {
  std::string out(p);
  for (auto& c : out)
    if (c == '\\') c = '/';
  return out;
}
} // namespace

bool is_confined_relative(std::string_view rel_in) {
  const auto rel_s = with_slashes(rel_in);
  const std::string_view rel = rel_s;
  if (rel.empty() || rel.front() == '/' || rel.find('\0') != std::string_view::npos) return false;
  if (rel.size() >= 2 && rel[1] == ':') return false;  // C:...
  std::size_t pos = 0;
  while (pos <= rel.size()) {
    const auto next = rel.find('/', pos);
    const auto part = rel.substr(pos, next == std::string_view::npos ? std::string_view::npos : next - pos);
    if (part.empty() || part == "." || part == "..") return false;
    if (next == std::string_view::npos) break;
    pos = next + 1;
  }
  return true;
}

bool is_below(std::string_view path_in, std::string_view dir_in) {
  const auto path = with_slashes(path_in);
  auto dir = with_slashes(dir_in);
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  if (dir.empty() || path.size() <= dir.size() + 1 || !path.starts_with(dir) || path[dir.size()] != '/') return false;
  return is_confined_relative(std::string_view(path).substr(dir.size() + 1));
}

namespace {

Unexpected<Error> forged(const std::string& origin, const std::string& what) {
  return fail(ErrorCode::unsafe_state, fmt::format("refusing the install state '{}': {}", origin, what),
              "cudnnctl never writes such a path, so the file was edited or forged; nothing was changed. Inspect it, "
              "then move it out of the toolkit's .cudnnctl folder if it is not yours",
              origin);
}

// ".cudnnctl/backup-<id>" or ".cudnnctl/backup-<id>/<confined path>"
bool is_backup_path(std::string_view rel_in, bool folder_only) {
  const auto rel_s = with_slashes(rel_in);
  const std::string_view rel = rel_s;
  constexpr std::string_view prefix = ".cudnnctl/backup-";
  if (!is_confined_relative(rel) || !rel.starts_with(prefix) || rel.size() == prefix.size()) return false;
  const bool nested = rel.find('/', prefix.size()) != std::string_view::npos;
  return folder_only ? !nested : nested;
}

// An installed file: in the toolkit's folders, or (the LICENSE) directly in .cudnnctl, never one of
// cudnnctl's own state files or folders there.
bool is_installed_path(std::string_view rel_in) {
  const auto rel_s = with_slashes(rel_in);
  const std::string_view rel = rel_s;
  if (!is_confined_relative(rel)) return false;
  if (rel == ".cudnnctl") return false;
  if (!rel.starts_with(".cudnnctl/")) return true;
  const auto name = rel.substr(10);
  return name.find('/') == std::string_view::npos && name != "receipt.json" && name != "journal.json" && name != "lock" &&
         !name.starts_with("staging-") && !name.starts_with("trash-") && !name.starts_with("backup-") && !name.ends_with(".tmp");
}

} // namespace

Result<void> check_receipt_paths(const Receipt& r, const std::string& origin) {
  for (const auto& f : r.files)
    if (!is_installed_path(f.path))
      return forged(origin, fmt::format("the installed file '{}' lies outside the toolkit's folders", f.path));
  if (!is_backup_path(r.backup_dir, true))
    return forged(origin, fmt::format("the backup folder '{}' is not a .cudnnctl/backup-* folder", r.backup_dir));
  for (const auto& b : r.replaced) {
    if (!is_confined_relative(b.path) || with_slashes(b.path).starts_with(".cudnnctl/"))
      return forged(origin, fmt::format("the replaced file '{}' lies outside the toolkit's folders", b.path));
    if (!is_backup_path(b.backup, false))
      return forged(origin, fmt::format("the backup '{}' of '{}' is not inside a .cudnnctl/backup-* folder", b.backup, b.path));
  }
  return {};
}

Result<void> check_journal_paths(const Journal& j, const std::string& root, const std::string& state_dir) {
  return check_journal_paths(j, std::vector<std::string>{root}, state_dir);
}

Result<void> check_journal_paths(const Journal& j, const std::vector<std::string>& roots, const std::string& state_dir) {
  const auto origin = journal_path(state_dir);
  auto inside = [&](const std::string& p) { return std::any_of(roots.begin(), roots.end(), [&](const std::string& r) { return is_below(p, r); }); };
  for (const auto& m : j.moves)
    for (const auto* p : {&m.from, &m.to})
      if (!inside(*p)) return forged(origin, fmt::format("the move of '{}' to '{}' leaves {}{}", m.from, m.to, roots.size() == 1 ? "the toolkit " : "", fmt::join(roots, " and ")));
  for (const auto* list : {&j.remove_on_commit, &j.remove_on_rollback})
    for (const auto& d_in : *list) {
      const auto d = with_slashes(d_in);
      auto sd = with_slashes(state_dir);
      while (sd.size() > 1 && sd.back() == '/') sd.pop_back();
      const bool ok = is_below(d, sd) && d.find('/', sd.size() + 1) == std::string::npos &&
                      (d.compare(sd.size() + 1, 8, "staging-") == 0 || d.compare(sd.size() + 1, 6, "trash-") == 0 ||
                       d.compare(sd.size() + 1, 7, "backup-") == 0);
      if (!ok) return forged(origin, fmt::format("it would remove '{}', which is not a folder cudnnctl makes in {}", d_in, state_dir));
    }
  return {};
}

namespace {
// `p` with every link resolved; the part that does not exist yet is appended as it is
std::string resolved_path(const std::string& p) {
  std::error_code ec;
  const auto r = fs::weakly_canonical(path_from_utf8(p), ec);
  return ec ? std::string() : utf8_of(r);
}
} // namespace

Result<void> check_resolves_inside(const std::string& path, const std::string& root_in, const std::string& origin, bool follow_last) {
  const auto root = resolved_path(root_in);
  const auto p = path_from_utf8(path);
  std::string where = follow_last ? resolved_path(path) : resolved_path(utf8_of(p.parent_path()));
  if (!follow_last && !where.empty()) where += "/" + utf8_of(p.filename());
  const bool inside = !root.empty() && !where.empty() && (with_slashes(where) == with_slashes(root) || is_below(where, root));
  if (inside) return {};
  return fail(ErrorCode::unsafe_state,
              fmt::format("refusing to act on '{}' ({}): it resolves to '{}', outside the toolkit {}", path, origin,
                          where.empty() ? "?" : where, root_in),
              "a link inside the toolkit leads out of it (or the state was forged); cudnnctl follows no link out of the "
              "toolkit. Nothing was changed: replace the link with a real folder, or remove the forged state",
              path);
}

Result<void> check_resolves_inside_any(const std::string& path, const std::vector<std::string>& roots, const std::string& origin) {
  Result<void> last = fail(ErrorCode::unsafe_state, fmt::format("refusing to act on '{}' ({}): no folder may be changed", path, origin), "", path);
  for (const auto& r : roots) {
    last = check_resolves_inside(path, r, origin);
    if (last) return last;
  }
  if (roots.size() > 1) last.error().message += fmt::format(" (nor inside {})", fmt::join(roots, " or "));
  return last;
}

Result<void> check_journal_resolves(const Journal& j, const std::string& root) { return check_journal_resolves(j, std::vector<std::string>{root}); }

Result<void> check_journal_resolves(const Journal& j, const std::vector<std::string>& roots) {
  for (const auto& m : j.moves)
    for (const auto* p : {&m.from, &m.to})
      if (auto ok = check_resolves_inside_any(*p, roots, "a move in the install journal"); !ok) return ok;
  for (const auto* list : {&j.remove_on_commit, &j.remove_on_rollback})
    for (const auto& d : *list) {
      if (auto ok = check_resolves_inside_any(d, roots, "a folder the install journal removes"); !ok) return ok;
      std::error_code ec;
      if (fs::is_symlink(fs::symlink_status(path_from_utf8(d), ec)))
        return fail(ErrorCode::unsafe_state, fmt::format("refusing the install journal: the folder '{}' it removes is a link", d),
                    "cudnnctl makes these folders itself and never as links, so the state was forged; nothing was changed", d);
    }
  return {};
}

std::vector<LeftoverFolder> leftover_folders(const std::string& state_dir, const std::vector<std::string>& prefixes) {
  std::vector<LeftoverFolder> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(path_from_utf8(state_dir), ec)) {
    const auto name = utf8_of(e.path().filename());
    const bool ours = std::any_of(prefixes.begin(), prefixes.end(), [&](const std::string& p) { return name.starts_with(p); });
    if (!ours || e.is_symlink(ec) || !e.is_directory(ec)) continue;
    LeftoverFolder s{utf8_of(e.path()), 0};
    for (auto it = fs::recursive_directory_iterator(e.path(), ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
      if (it->is_regular_file(ec) && !it->is_symlink(ec)) s.bytes += it->file_size(ec);
    out.push_back(std::move(s));
  }
  std::sort(out.begin(), out.end(), [](const LeftoverFolder& a, const LeftoverFolder& b) { return a.path < b.path; });
  return out;
}

} // namespace cudnnctl
