#include "cudnnctl/env/loader_path.hpp"
#include "cudnnctl/base/text_file.hpp"
#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/base/strings.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "cudnnctl/contract/cudnn_files.hpp"
#include "cudnnctl/env/display_path.hpp"
#include "cudnnctl/env/ld_conf.hpp"

namespace cudnnctl {

namespace fs = std::filesystem;

namespace {
std::string quote(const std::string& v, Shell shell) {
  std::string out;
  for (char c : v) {
    if (c == '\'') out += shell == Shell::bash ? "'\\''" : shell == Shell::fish ? "\\'" : "''";
    else if (c == '\\' && shell == Shell::fish) out += "\\\\";
    else out += c;
  }
  return "'" + out + "'";
}

std::string list_problem(const std::string& folder, const std::string& variable, PathFlavor flavor) {
  const char sep = flavor == PathFlavor::windows ? ';' : ':';
  if (folder.find(sep) != std::string::npos)
    return fmt::format("the folder '{}' contains '{}', which separates {} entries: the loader would read it as two folders", folder, sep,
                       variable);
  if (folder.find_first_of("\r\n") != std::string::npos)
    return fmt::format("the folder '{}' contains a line break, which breaks {} and GitHub's one-folder-a-line GITHUB_PATH", folder, variable);
  return {};
}
} // namespace

std::string shell_word(const std::string& word) {
  const bool plain = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::string_view("/._-+:@%,=").find(c) != std::string_view::npos;
  });
  return plain ? word : quote(word, Shell::bash);
}

namespace {
// A Windows folder (C:\..., \\server\...) is typed into cmd or PowerShell, where "..." quotes and '...' does not (cmd)
bool windows_folder(const std::string& p) {
  return (p.size() >= 3 && std::isalpha(static_cast<unsigned char>(p[0])) && p[1] == ':' && (p[2] == '\\' || p[2] == '/')) || p.starts_with("\\\\");
}
std::string cmd_word(const std::string& word) {
  const bool plain = std::all_of(word.begin(), word.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::string_view("\\/:._-").find(c) != std::string_view::npos;
  });
  return plain ? word : "\"" + word + "\"";  // a Windows path holds no '"'
}
} // namespace

std::string command_word(const std::string& word) { return windows_folder(word) ? cmd_word(word) : shell_word(word); }

std::string toolkit_command(const std::string& toolkit_root, const std::string& command, const std::string& tail) {
  const auto root = command_word(toolkit_root);
  return fmt::format("cudnnctl {} --cuda-path {}{}{}", command, root, tail.empty() ? "" : " ", tail);
}

std::string with_toolkit_named(std::string_view text, const std::string& toolkit_root) {
  if (toolkit_root.empty()) return std::string(text);
  const auto root = command_word(toolkit_root);
  static const std::string_view verbs[] = {"path", "doctor", "install", "uninstall", "bench"};
  std::string out;
  std::size_t at = 0;
  for (;;) {
    const auto found = text.find("cudnnctl ", at);
    if (found == std::string_view::npos) break;
    const auto verb_at = found + 9;
    const auto verb_end = std::min(text.find_first_of(" `;,)\n", verb_at), text.size());
    const auto verb = text.substr(verb_at, verb_end - verb_at);
    out += text.substr(at, verb_end - at);
    at = verb_end;
    const bool word_start = found == 0 || std::string_view(" `(\"'").find(text[found - 1]) != std::string_view::npos;
    if (!word_start || std::find(std::begin(verbs), std::end(verbs), verb) == std::end(verbs)) continue;
    // the command runs to the end of its sentence: a backquote, ';', ' or ', or the end
    auto end = std::min({text.find('`', at), text.find(';', at), text.find(" or ", at), text.find(", ", at), text.size()});
    const auto rest = text.substr(at, end - at);
    if (rest.find("--cuda-path") == std::string_view::npos) out += " --cuda-path " + root;
  }
  out += text.substr(at);
  for (auto pos = out.find("<toolkit>"); pos != std::string::npos; pos = out.find("<toolkit>", pos + root.size())) out.replace(pos, 9, root);
  return out;
}

std::vector<std::string> loader_path_warnings(const std::string& value) {
  std::vector<std::string> out;
  const auto entries = split_path_list(value, PathFlavor::posix);
  if (std::any_of(entries.begin(), entries.end(), [](const std::string& e) { return e.empty(); }))
    out.push_back("LD_LIBRARY_PATH has an empty entry ('::', or ':' at its start or end): the loader reads it as the current folder, "
                  "so a libcudnn in whatever folder a program starts in is loaded first; remove the empty entry");
  for (const auto& e : entries)
    if (!e.empty() && e.front() != '/')
      out.push_back(fmt::format("LD_LIBRARY_PATH entry '{}' is relative: the loader looks for it from the folder each program starts in; "
                                "use an absolute path",
                                e));
  return out;
}

std::string toolkit_cudnn_file(const Toolkit& t, const std::string& folder) {
  static const std::regex so_re(R"(^libcudnn\.so\.\d+$)");
  static const std::regex dll_re(R"(^cudnn64_\d+\.dll$)", std::regex::icase);
  std::error_code ec;
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(path_from_utf8(folder), ec)) names.push_back(utf8_of(e.path().filename()));
  std::sort(names.begin(), names.end());
  for (const auto& n : names)
    if (std::regex_match(n, t.os == Os::windows ? dll_re : so_re)) return n;
  return {};
}

unsigned toolkit_cudnn_major(const Toolkit& t) {
  const auto v = parse_version_header(read_text_head(path_from_utf8(t.root) / t.include_dir / "cudnn_version.h", 1 << 20).value_or(std::string()));
  return v ? v->major : 9;
}

void put_folder_first_instead(LoaderPathPlan& p, const std::string& folder, const std::string& current_value, const platform::Environment& env) {
  const auto lookup = [&env](const std::string& n) { return env.get(n); };
  p.folder = folder;
  p.list_problem = list_problem(p.folder, p.variable, p.flavor);
  p.github.path_dirs.clear();
  if (p.list_problem.empty()) p.github.path_dirs = {p.folder};
  p.fix = put_first(split_path_list(current_value, p.flavor), p.folder, p.flavor, lookup);
}

LoaderPathPlan plan_loader_path(const Toolkit& t, const std::string& current_value, const std::string& system_root,
                                const platform::Environment& env) {
  LoaderPathPlan p;
  std::error_code ec;
  const auto lookup = [&env](const std::string& n) { return env.get(n); };
  p.cudnn_path = t.root;
  if (t.os == Os::windows) {
    p.flavor = PathFlavor::windows;
    p.variable = "PATH";
    // as this machine's user can use it: backslashes on Windows, C:\... from a WSL mount, else as given
    p.folder = windows_toolkit_path_here(t.root + "/" + t.runtime_dir());
    p.list_problem = list_problem(p.folder, p.variable, p.flavor);
    if (p.list_problem.empty()) p.github.path_dirs = {p.folder};
    p.github.env = {{"CUDA_PATH", t.root}, {"CUDNN_PATH", t.root}};
    p.apply_command = toolkit_command(t.root, "path", "--apply --scope user");
    p.eval_command = toolkit_command(t.root, "path", "--shell pwsh") + " | Invoke-Expression";
  } else {
    p.flavor = PathFlavor::posix;
    p.variable = "LD_LIBRARY_PATH";
    const auto real = fs::weakly_canonical(path_from_utf8(t.runtime_library_dir()), ec);
    p.folder = ec ? t.runtime_library_dir() : utf8_of(real);
    const auto canonical_root = fs::weakly_canonical(t.root, ec);
    p.ld_conf_path = (path_from_utf8(system_root) / "etc/ld.so.conf.d" / ld_conf_file_name(utf8_of(ec ? path_from_utf8(t.root) : canonical_root))).string();
    // under another system root (an image being built) the file lists the folder as that system will see it
    p.ld_conf_entry = p.folder;
    if (system_root != "/") {
      const auto sys = fs::weakly_canonical(system_root, ec).string();
      if (!ec && p.folder.size() > sys.size() && p.folder.starts_with(sys) && p.folder[sys.size()] == '/') p.ld_conf_entry = p.folder.substr(sys.size());
    }
    p.ld_conf_content = fmt::format("# written by cudnnctl for the CUDA toolkit in {}\n{}\n", t.root, p.ld_conf_entry);
    p.list_problem = list_problem(p.folder, p.variable, p.flavor);
    const auto bin = utf8_of(path_from_utf8(t.root) / "bin");
    if (p.list_problem.empty()) p.list_problem = list_problem(bin, "PATH", p.flavor);
    if (p.list_problem.empty()) p.github.path_dirs = {bin};
    p.warnings = loader_path_warnings(current_value);
    p.apply_command = "sudo " + toolkit_command(t.root, "path", "--apply");
    p.eval_command = fmt::format("eval \"$({})\"", toolkit_command(t.root, "path", "--shell bash"));
  }
  p.fix = put_first(split_path_list(current_value, p.flavor), p.folder, p.flavor, lookup);
  if (t.os != Os::windows) {
    p.github.env = {{"CUDA_PATH", t.root}, {"CUDNN_PATH", t.root}};
    if (p.list_problem.empty()) p.github.env.emplace_back("LD_LIBRARY_PATH", join_path_list(p.fix.after, p.flavor));
  }
  return p;
}

std::string shell_lines(const LoaderPathPlan& p, Shell shell) {
  const auto value = join_path_list(p.fix.after, p.flavor);
  const auto line = [shell](const std::string& name, const std::string& v) -> std::string {
    switch (shell) {
    case Shell::bash: return fmt::format("export {}={}\n", name, quote(v, shell));
    case Shell::fish: return fmt::format("set -gx {} {}\n", name, quote(v, shell));
    case Shell::pwsh: return fmt::format("$env:{} = {}\n", name, quote(v, shell));
    }
    return {};
  };
  return line(p.variable, value) + (p.cudnn_path.empty() ? std::string() : line("CUDNN_PATH", p.cudnn_path));
}

} // namespace cudnnctl
