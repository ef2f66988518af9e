#include "cudnnctl/bundle/load_check_reach.hpp"

#include <filesystem>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/env/display_path.hpp"

namespace cudnnctl {

namespace {

std::string_view os_title(Os os) { return os == Os::windows ? "Windows" : os == Os::macos ? "macOS" : "Linux"; }

std::string_view library_kind(Os os) { return os == Os::windows ? "a Windows DLL" : os == Os::macos ? "a macOS dylib" : "a Linux shared library"; }

bool is_file(const std::filesystem::path& p) {
  std::error_code ec;
  return std::filesystem::is_regular_file(p, ec);
}

// An argument as the Windows program needs it: a /mnt/c/... path as C:\..., anything else as it is; quoted
// for cmd.exe when it holds a space.
std::string windows_argument(const std::string& arg) {
  auto text = arg.starts_with("/") ? windows_toolkit_path_on_its_machine(arg) : arg;
  if (text.empty()) text = arg;
  return text.find(' ') == std::string::npos ? text : "\"" + text + "\"";
}

} // namespace

std::optional<std::string> load_check_impossible(Os libraries, Os host) {
  if (libraries == host) return std::nullopt;
  return fmt::format("{} cannot load {}", os_title(host), library_kind(libraries));
}

WindowsInterop find_windows_interop(const platform::Environment& env, const std::string& self, const std::string& binfmt_misc) {
  WindowsInterop w;
  const auto misc = path_from_utf8(binfmt_misc);
  w.available = is_file(misc / "WSLInterop") || is_file(misc / "WSLInterop-late");
  if (!w.available) return w;
  std::vector<std::filesystem::path> dirs;
  if (!self.empty()) dirs.push_back(path_from_utf8(self).parent_path());
  if (const auto path = env.get("PATH"))
    for (const auto& d : split(*path, ':'))
      if (!d.empty()) dirs.push_back(path_from_utf8(std::string(d)));
  for (const auto& d : dirs)
    if (is_file(d / "cudnnctl.exe")) {
      w.cudnnctl_exe = utf8_of(d / "cudnnctl.exe");
      break;
    }
  return w;
}

std::string load_check_runner(Os libraries, const std::vector<std::string>& args, const WindowsInterop& interop) {
  if (libraries != Os::windows) return fmt::format("run 'cudnnctl {}' on {}", fmt::join(args, " "), os_title(libraries));
  std::vector<std::string> win;
  for (const auto& a : args) win.push_back(windows_argument(a));
  auto text = fmt::format("run 'cudnnctl.exe {}' on Windows", fmt::join(win, " "));
  if (interop.available && !interop.cudnnctl_exe.empty())
    text += fmt::format(", or from here through WSL interop: '{}' {}", interop.cudnnctl_exe, fmt::join(win, " "));
  else if (interop.available)
    text += "; WSL interop can start Windows programs here: put cudnnctl.exe on PATH or beside cudnnctl to run it from here";
  return text;
}

} // namespace cudnnctl
