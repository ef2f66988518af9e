// `cudnnctl trace` on Windows, under wine: platform::run_with_load_trace runs trace_probe.exe as a debuggee and
// its event lines feed src/trace's report unchanged. The command line round-trips through the C runtime's
// splitting (CommandLineToArgvW).
#include <catch2/catch.hpp>

#include "../skip.hpp"

#include <windows.h>
#include <shellapi.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/platform/windows_search_order.hpp"
#include "cudnnctl/platform/load_trace.hpp"
#include "cudnnctl/platform/process.hpp"
#include "cudnnctl/platform/windows_command_line.hpp"
#include "cudnnctl/trace/trace.hpp"
#include "win_test_paths.hpp"

using namespace cudnnctl;
namespace fs = std::filesystem;

using namespace cudnnctl::wintest;

namespace {
std::wstring wide(const std::string& s) { return path_from_utf8(s).wstring(); }
std::string narrow(const std::wstring& w) { return utf8(fs::path(w)); }

// The same path? Windows paths compare without case; the tracer reports the file's final path.
bool same_path(const std::string& a, const fs::path& b) {
  return platform::comparable_windows_folder(a) == platform::comparable_windows_folder(utf8(fs::weakly_canonical(b)));
}

std::string env(const wchar_t* name) {
  const DWORD n = GetEnvironmentVariableW(name, nullptr, 0);
  if (!n) return {};
  std::wstring v(n, L'\0');
  v.resize(GetEnvironmentVariableW(name, v.data(), n));
  return narrow(v);
}

// Sets an environment variable (the traced command inherits it) until the end of the scope.
struct ScopedEnv {
  std::wstring name;
  std::string old;
  ScopedEnv(const wchar_t* n, const std::string& value) : name(n), old(env(n)) { SetEnvironmentVariableW(n, wide(value).c_str()); }
  ~ScopedEnv() { SetEnvironmentVariableW(name.c_str(), old.empty() ? nullptr : wide(old).c_str()); }
};

// Runs the trace with this process's standard output sent to a file (the command inherits it), and returns
// what the command printed there.
struct Captured {
  platform::TracedRun run;
  std::string out;
};
Captured trace_capturing_stdout(const std::vector<std::string>& argv, const fs::path& out_file) {
  SECURITY_ATTRIBUTES sa{sizeof sa, nullptr, TRUE};
  HANDLE file = CreateFileW(out_file.wstring().c_str(), GENERIC_WRITE, FILE_SHARE_READ, &sa, CREATE_ALWAYS, FILE_ATTRIBUTE_NORMAL, nullptr);
  REQUIRE(file != INVALID_HANDLE_VALUE);
  HANDLE old = GetStdHandle(STD_OUTPUT_HANDLE);
  SetStdHandle(STD_OUTPUT_HANDLE, file);
  auto run = platform::run_with_load_trace(argv, "");
  SetStdHandle(STD_OUTPUT_HANDLE, old);
  CloseHandle(file);
  REQUIRE(run);
  std::ifstream in(out_file, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return {*run, ss.str()};
}

std::vector<TraceEvent> of_kind(const std::vector<TraceEvent>& events, char kind) {
  std::vector<TraceEvent> out;
  for (const auto& e : events)
    if (e.kind == kind) out.push_back(e);
  return out;
}
} // namespace

TEST_CASE("windows command line: every argument comes back whole from CommandLineToArgvW", "[windows][trace]") {
  const std::vector<std::string> argv = {R"(C:\Program Files\app\app.exe)", "plain", "", "two words", R"(say "hi")", R"(a\"b)",
                                         R"(C:\my dir\)", R"(a\\b c)", "\"", "tab\there", R"(trailing\\)", "J\xC3\xB6rg \xE5\xBC\xA0"};
  const auto line = wide(platform::windows_command_line(argv));
  int n = 0;
  wchar_t** back = CommandLineToArgvW(line.c_str(), &n);
  REQUIRE(back);
  REQUIRE(n == static_cast<int>(argv.size()));
  for (int i = 0; i < n; ++i) CHECK(narrow(back[i]) == argv[static_cast<std::size_t>(i)]);
  LocalFree(back);
}

TEST_CASE("trace on Windows: the DLLs of the command and of its child, in load order, with the search step and the exit code", "[windows][trace]") {
  const auto base = scratch("fakes");
  const auto app = base / "app", on_path = base / "on path";
  fs::create_directories(app);
  fs::create_directories(on_path);
  const auto dlls = fs::absolute(CUDNNCTL_WIN_DLLS);
  fs::copy_file(CUDNNCTL_TRACE_PROBE, app / "trace_probe.exe");
  for (const char* f : {"cudnn64_9.dll", "cudnn_graph64_9.dll"}) fs::copy_file(dlls / "new" / f, app / f);
  for (const char* f : {"cublasLt64_12.dll", "plain_helper.dll"}) fs::copy_file(dlls / "onpath" / f, on_path / f);
  ScopedEnv path(L"PATH", utf8(on_path) + ";" + env(L"PATH"));

  const auto probe = utf8(app / "trace_probe.exe");
  const auto c = trace_capturing_stdout({probe, "7", "load:cudnn64_9.dll", "load:plain_helper.dll", "load:cublasLt64_12.dll",
                                         "free:cublasLt64_12.dll", "child:cudnn64_9.dll", R"(echo:a "quoted" arg\)"},
                                        base / "stdout.txt");
  CHECK(c.run.exit_code == 7);  // the command's own exit code
  // its output passes through: the probe's line, the child's, then the argument as given
  CHECK(c.out == "cudnn64_9.dll version 91900\ncudnn64_9.dll version 91900\n[a \"quoted\" arg\\]\n");

  const auto events = parse_trace_events(c.run.events);
  INFO(c.run.events);
  const auto procs = of_kind(events, 'P');
  REQUIRE(procs.size() == 2);
  CHECK(procs[0].a == std::to_string(GetCurrentProcessId()));
  CHECK(same_path(procs[0].b, app / "trace_probe.exe"));
  CHECK(procs[1].a == std::to_string(procs[0].pid));  // the child names its parent
  CHECK(same_path(procs[1].b, app / "trace_probe.exe"));

  // only the cuDNN/cuBLAS/... DLLs, in the order they were mapped: plain_helper.dll is not traced
  const auto opened = of_kind(events, 'O');
  REQUIRE(opened.size() == 5);
  CHECK(same_path(opened[0].a, app / "cudnn64_9.dll"));
  CHECK(same_path(opened[1].a, app / "cudnn_graph64_9.dll"));
  CHECK(same_path(opened[2].a, on_path / "cublasLt64_12.dll"));
  CHECK(same_path(opened[3].a, app / "cudnn64_9.dll"));
  CHECK(same_path(opened[4].a, app / "cudnn_graph64_9.dll"));
  for (int i = 0; i < 3; ++i) CHECK(opened[static_cast<std::size_t>(i)].pid == procs[0].pid);
  for (int i = 3; i < 5; ++i) CHECK(opened[static_cast<std::size_t>(i)].pid == procs[1].pid);
  CHECK(c.run.events.find("plain_helper") == std::string::npos);
  // FreeLibrary unmapped cuBLASLt: an unload line (the report reads none; --events keeps it)
  REQUIRE(c.run.events.find("U\t" + std::to_string(procs[0].pid) + "\t") != std::string::npos);
  CHECK(c.run.events.find("cublasLt64_12.dll", c.run.events.find("U\t")) != std::string::npos);

  // the report of the Linux trace, unchanged: the search step told from each DLL's folder
  const auto report = build_trace_report(events, TraceSeams{});
  REQUIRE(report.loaded.size() == 5);
  CHECK(report.missing.empty());
  CHECK(report.processes.size() == 2);
  CHECK(report.loaded[0].step == "application folder");
  CHECK(report.loaded[0].kind.family == LibFamily::cudnn);
  CHECK(report.loaded[1].step == "application folder");
  CHECK(report.loaded[1].kind.family == LibFamily::cudnn_sub);
  CHECK(report.loaded[2].step == "PATH");
  CHECK(report.loaded[2].kind.family == LibFamily::cublaslt);
  CHECK(report.loaded[2].kind.major == 12);
  CHECK(report.loaded[3].step == "application folder");
  CHECK(report.faults.empty());
}

TEST_CASE("trace on Windows: a command that is not there, one that fails and one ended by an access violation", "[windows][trace]") {
  const auto missing = platform::run_with_load_trace({utf8(scratch("none") / "no-such-program.exe")}, "");
  REQUIRE(missing);
  CHECK(missing->exit_code == 127);
  CHECK(missing->events.empty());
  // a step the probe does not know makes it exit 90 after its own exception and debug string: still traced
  const auto app = scratch("odd");
  fs::copy_file(CUDNNCTL_TRACE_PROBE, app / "trace_probe.exe");
  const auto odd = platform::run_with_load_trace({utf8(app / "trace_probe.exe"), "0", "nonsense"}, "");
  REQUIRE(odd);
  CHECK(odd->exit_code == 90);
  CHECK(of_kind(parse_trace_events(odd->events), 'P').size() == 1);
  // a bare name is looked up as a shell does: the current folder first, not cudnnctl's own folder (this
  // test's folder holds another trace_probe.exe, the one CreateProcessW alone would take)
  {
    wchar_t old_dir[32768];
    GetCurrentDirectoryW(32768, old_dir);
    REQUIRE(SetCurrentDirectoryW(app.wstring().c_str()));
    const auto bare = platform::run_with_load_trace({"trace_probe", "4"}, "");
    SetCurrentDirectoryW(old_dir);
    REQUIRE(bare);
    CHECK(bare->exit_code == 4);
    const auto procs = of_kind(parse_trace_events(bare->events), 'P');
    REQUIRE(procs.size() == 1);
    CHECK(same_path(procs[0].b, app / "trace_probe.exe"));
  }
  // an exception nothing handles ends the program as without a debugger: its status is the exit code
  const auto crash = platform::run_with_load_trace({utf8(app / "trace_probe.exe"), "0", "crash:"}, "");
  REQUIRE(crash);
  CHECK(static_cast<DWORD>(crash->exit_code) == EXCEPTION_ACCESS_VIOLATION);
}

TEST_CASE("trace on Windows: NVIDIA's cudnn64_9.dll found on PATH, cudnnGetVersion called", "[windows][trace][real_wheels]") {
  const auto cache = env(L"CUDNNCTL_WHEEL_CACHE");
  const auto bin = fs::path(wide(cache)) / "nvidia-cudnn-cu12-9.1.0.70" / "bin";
  if (cache.empty() || !fs::exists(bin / "cudnn64_9.dll")) {
    CUDNNCTL_SKIP("NVIDIA's Windows wheels are not cached (tests/windows_exe/fetch_wheels.sh)");
  }
  const auto app = scratch("real");
  fs::copy_file(CUDNNCTL_TRACE_PROBE, app / "trace_probe.exe");
  ScopedEnv path(L"PATH", utf8(bin) + ";" + env(L"PATH"));
  const auto c = trace_capturing_stdout({utf8(app / "trace_probe.exe"), "3", "load:cudnn64_9.dll"}, app / "stdout.txt");
  CHECK(c.run.exit_code == 3);
  CHECK(c.out == "cudnn64_9.dll version 90100\n");
  INFO(c.run.events);
  const auto report = build_trace_report(parse_trace_events(c.run.events), TraceSeams{});
  REQUIRE_FALSE(report.loaded.empty());
  CHECK(same_path(report.loaded[0].path, bin / "cudnn64_9.dll"));
  CHECK(report.loaded[0].step == "PATH");
  CHECK(report.loaded[0].kind.family == LibFamily::cudnn);
  for (const auto& l : report.loaded) CHECK(l.kind.family != LibFamily::other);
}
