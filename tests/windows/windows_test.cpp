// The Windows code under wine: UTF-16 file names, long paths, the registry, the DLL loader and its
// search order, the PE reader, and the install transaction over a Windows toolkit tree.
#include <catch2/catch.hpp>

#include <windows.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/env/path_list.hpp"
#include "cudnnctl/env/shadow_scan.hpp"
#include "cudnnctl/env/toolkit.hpp"
#include "cudnnctl/install/install_fs.hpp"
#include "cudnnctl/install/state_check.hpp"
#include "cudnnctl/install/transaction.hpp"
#include "cudnnctl/loader/pe_reader.hpp"
#include "cudnnctl/platform/dynlib.hpp"
#include "cudnnctl/platform/files.hpp"
#include "cudnnctl/platform/persistent_env.hpp"
#include "cudnnctl/owner/installer_entry.hpp"
#include "cudnnctl/platform/process.hpp"
#include "cudnnctl/platform/python_registry.hpp"
#include "cudnnctl/platform/uninstall_entries.hpp"
#include "win_test_paths.hpp"

using namespace cudnnctl;
namespace fs = std::filesystem;

using namespace cudnnctl::wintest;

namespace {
void write(const std::string& path, const std::string& text) {
  auto f = platform::NewFile::create(path, 0644);
  REQUIRE(f);
  REQUIRE(f->write(text.data(), text.size()));
  CHECK(f->unsubmitted() == text.size());
  f->start_writeback();  // nothing to start on Windows: the count is cleared, the bytes stay
  CHECK(f->unsubmitted() == 0);
  REQUIRE(f->close());
}
} // namespace

TEST_CASE("non-ASCII names and long paths through the Windows file code", "[windows]") {
  const auto base = scratch("names");
  const std::string dir = utf8(base) + "\\Jos\xC3\xA9 \xE3\x83\x86\xE3\x82\xB9\xE3\x83\x88\\include";  // José テスト
  REQUIRE(platform::make_directories(dir));
  const std::string file = dir + "\\cudnn_\xC3\xBC.h";  // cudnn_ü.h
  write(file, "#define CUDNN_MAJOR 9\n");
  CHECK(fs::exists(from_utf8(file)));
  CHECK(*platform::file_size(file) == 22);
  {
    auto r = platform::ReadOnlyFile::open(file);
    REQUIRE(r);
    char buf[6] = {};
    CHECK(r->read_at(8, buf, 5) == 5);
    CHECK(std::string(buf) == "CUDNN");
  }
  CHECK_FALSE(platform::NewFile::create(file, 0644));  // never replaces anything

  std::string deep = utf8(base);
  for (int i = 0; i < 12; ++i) deep += "\\a-rather-long-folder-name-" + std::to_string(i);
  REQUIRE(deep.size() > 300);
  REQUIRE(platform::make_directories(deep));
  write(deep + "\\cudnn64_9.dll", "x");
  CHECK(*platform::file_size(deep + "\\cudnn64_9.dll") == 1);
  platform::remove_tree(utf8(base));  // long paths go too
  CHECK_FALSE(fs::exists(base));
  const auto converted = platform::convert_to_utf8("\x81" "ber.h", "CP437");
  REQUIRE(converted);
  CHECK(*converted == "\xC3\xBC" "ber.h");
}

TEST_CASE("PATH in the registry: written and read back with its type and length", "[windows]") {
  const auto before = platform::read_persistent_env(platform::EnvScope::user, "PATH");
  REQUIRE(before);
  std::string value = "%SystemRoot%\\System32";
  for (int i = 0; value.size() < 3000; ++i) value += ";C:\\tools\\package-" + std::to_string(i) + "\\bin";
  REQUIRE(platform::write_persistent_env(platform::EnvScope::user, "PATH", {value, true, true}));
  const auto after = platform::read_persistent_env(platform::EnvScope::user, "PATH");
  REQUIRE(after);
  CHECK(after->expandable);           // REG_EXPAND_SZ kept
  CHECK(after->value.size() == value.size());  // nothing cut (setx stops at 1024)
  CHECK(after->value == value);
  const auto fixed = put_first(split_path_list(after->value, PathFlavor::windows), "C:\\CUDA\\v13.0\\bin\\x64", PathFlavor::windows);
  CHECK(fixed.after.front() == "C:\\CUDA\\v13.0\\bin\\x64");
  if (before->exists) REQUIRE(platform::write_persistent_env(platform::EnvScope::user, "PATH", *before));
}

namespace {
// a string value (REG_SZ), or a DWORD where a string belongs
void set_string(HKEY key, const wchar_t* name, const std::wstring& value) {
  REQUIRE(RegSetValueExW(key, name, 0, REG_SZ, reinterpret_cast<const BYTE*>(value.c_str()),
                         static_cast<DWORD>((value.size() + 1) * sizeof(wchar_t))) == ERROR_SUCCESS);
}
HKEY create_key(const std::wstring& path) {
  HKEY key = nullptr;
  REQUIRE(RegCreateKeyExW(HKEY_CURRENT_USER, path.c_str(), 0, nullptr, 0, KEY_ALL_ACCESS, nullptr, &key, nullptr) == ERROR_SUCCESS);
  return key;
}
} // namespace

TEST_CASE("Windows' Apps list and PEP 514 through the registry: strings read, other types and nameless entries left out", "[windows]") {
  const std::wstring apps = L"Software\\Microsoft\\Windows\\CurrentVersion\\Uninstall\\";
  const std::wstring cudnn = apps + L"{B2FE1952-0186-46C3-BAEC-A80AA35AC5B8}_cudnnctl-test_cuDNN_9.1";
  HKEY key = create_key(cudnn);
  set_string(key, L"DisplayName", L"NVIDIA cuDNN 9.1 \u00e9");  // non-ASCII: UTF-16 in, UTF-8 out
  set_string(key, L"DisplayVersion", L"9.1.0.70");
  set_string(key, L"Publisher", L"NVIDIA Corporation");
  set_string(key, L"InstallLocation", L"C:\\Program Files\\NVIDIA\\CUDNN\\v9.1\\");
  set_string(key, L"UninstallString", L"\"C:\\Program Files\\NVIDIA Corporation\\Installer2\\setup.exe\" -uninstall");
  RegCloseKey(key);
  HKEY dword_name = create_key(apps + L"cudnnctl-test-dword-name");  // DisplayName of the wrong type: not an entry
  const DWORD one = 1;
  REQUIRE(RegSetValueExW(dword_name, L"DisplayName", 0, REG_DWORD, reinterpret_cast<const BYTE*>(&one), sizeof one) == ERROR_SUCCESS);
  RegCloseKey(dword_name);
  HKEY python = create_key(L"Software\\Python\\cudnnctl-test\\3.12\\InstallPath");
  set_string(python, nullptr, L"C:\\Users\\me\\AppData\\Local\\Programs\\Python\\Python312\\");
  RegCloseKey(python);

  const auto entries = platform::uninstall_entries();
  const platform::UninstallEntry* found = nullptr;
  for (const auto& e : entries) {
    if (e.key.find("cudnnctl-test_cuDNN_9.1") != std::string::npos) found = &e;
    CHECK(e.key.find("cudnnctl-test-dword-name") == std::string::npos);
  }
  REQUIRE(found);
  CHECK(found->key == "HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Uninstall\\{B2FE1952-0186-46C3-BAEC-A80AA35AC5B8}_cudnnctl-test_cuDNN_9.1");
  CHECK(found->display_name == "NVIDIA cuDNN 9.1 \xc3\xa9");
  CHECK(found->display_version == "9.1.0.70");
  CHECK(found->install_location == "C:\\Program Files\\NVIDIA\\CUDNN\\v9.1\\");
  const auto match = cudnn_installer_entry(entries, "9.1", "C:\\Program Files\\NVIDIA\\CUDNN\\v9.1");
  REQUIRE(match);
  CHECK(match->key == found->key);
  CHECK_THAT(removal_fix(windows_installer_owner("9.1", "", *match), "x"), Catch::Contains("setup.exe\" -uninstall"));

  const auto prefixes = platform::registered_python_prefixes();
  CHECK(std::find(prefixes.begin(), prefixes.end(), "C:\\Users\\me\\AppData\\Local\\Programs\\Python\\Python312") != prefixes.end());

  RegDeleteTreeW(HKEY_CURRENT_USER, cudnn.c_str());
  RegDeleteTreeW(HKEY_CURRENT_USER, (apps + L"cudnnctl-test-dword-name").c_str());
  RegDeleteTreeW(HKEY_CURRENT_USER, L"Software\\Python\\cudnnctl-test");
}

TEST_CASE("the Windows loader: sub-DLLs beside the main DLL, a planted older copy, the shadow scan", "[windows]") {
  const auto dlls = fs::absolute(CUDNNCTL_WIN_DLLS);
  const auto fresh = platform::load_library(utf8(dlls / "new" / "cudnn64_9.dll"));
  REQUIRE(fresh);  // cudnn_graph64_9.dll is found in the DLL's own folder
  using GetVersion = unsigned long long (*)();
  CHECK(reinterpret_cast<GetVersion>(platform::find_symbol(*fresh, "cudnnGetVersion"))() == 91900);
  const auto old = platform::load_library(utf8(dlls / "old" / "cudnn64_9.dll"));
  REQUIRE(old);
  CHECK(reinterpret_cast<GetVersion>(platform::find_symbol(*old, "cudnnGetVersion"))() == 90100);
  const auto missing = platform::load_library(utf8(dlls / "nowhere" / "cudnn64_9.dll"));
  REQUIRE_FALSE(missing);
  CHECK_THAT(missing.error().message, Catch::Contains("Windows error"));

  // the older copy sits earlier on the search order (a System32 stand-in) and wins: the scan says so
  const std::vector<SearchDir> order = {{utf8(dlls / "old"), "System32"}, {utf8(dlls / "new"), "PATH"}};
  const auto scan = scan_cudnn_copies(order, LoaderFlavor::windows, 9, utf8(dlls / "new"));
  REQUIRE(scan.copies.size() == 2);
  CHECK(scan.copies[0].wins);
  CHECK(scan.copies[1].installed);
  REQUIRE(scan.explanations.size() == 1);
  CHECK_THAT(scan.explanations[0], Catch::Contains("System32"));

  // a DLL in use is renamed aside (it cannot be overwritten or deleted while loaded)
  const auto busy_dir = scratch("busy");
  fs::copy_file(dlls / "old" / "cudnn64_9.dll", busy_dir / "cudnn64_9.dll");
  const auto busy = platform::load_library(utf8(busy_dir / "cudnn64_9.dll"));
  REQUIRE(busy);
  const auto aside = platform::rename_aside(utf8(busy_dir / "cudnn64_9.dll"));
  REQUIRE(aside);
  CHECK_FALSE(fs::exists(busy_dir / "cudnn64_9.dll"));
  CHECK(fs::exists(from_utf8(*aside)));
  write(utf8(busy_dir / "cudnn64_9.dll"), "the new copy takes the name");
  CHECK(reinterpret_cast<GetVersion>(platform::find_symbol(*busy, "cudnnGetVersion"))() == 90100);  // still usable

  const auto pe = read_pe_file(utf8(dlls / "new" / "cudnn64_9.dll"));
  REQUIRE(pe);
  CHECK(pe->machine == 0x8664);
  bool imports_graph = false;
  for (const auto& i : pe->imports) imports_graph = imports_graph || _stricmp(i.c_str(), "cudnn_graph64_9.dll") == 0;
  CHECK(imports_graph);
}

TEST_CASE("the install transaction over a Windows toolkit tree, with the real Windows file API", "[windows]") {
  const auto base = scratch("toolkit");
  const auto root = base / "CUDA" / "v13.0";
  fs::create_directories(root / "bin" / "x64");
  fs::create_directories(root / "include");
  fs::create_directories(root / "lib" / "x64");
  write(utf8(root / "bin" / "nvcc.exe"), "nvcc");
  write(utf8(root / "bin" / "x64" / "cudart64_13.dll"), "cudart");
  write(utf8(root / "include" / "cuda.h"), "#define CUDA_VERSION 13000\n");
  write(utf8(root / "bin" / "x64" / "cudnn64_8.dll"), "a stale cuDNN 8");
  const auto tk = read_toolkit(utf8(root), "test");
  REQUIRE(tk);
  CHECK(tk->os == Os::windows);
  CHECK(tk->dll_dir == "bin/x64");
  CHECK(tk->version == "13.0");

  const auto state = utf8(root / ".cudnnctl");
  const auto staging = utf8(root / ".cudnnctl" / "staging-1");
  REQUIRE(platform::make_directories(staging));
  write(staging + "\\cudnn64_9.dll", "new main");
  write(staging + "\\cudnn.h", "new header");
  Journal j;
  j.id = "1";
  j.description = "test install";
  j.moves = {{utf8(root / "bin" / "x64" / "cudnn64_8.dll"), state + "\\backup-1\\bin\\x64\\cudnn64_8.dll"},
             {staging + "\\cudnn64_9.dll", utf8(root / "bin" / "x64" / "cudnn64_9.dll")},
             {staging + "\\cudnn.h", utf8(root / "include" / "cudnn.h")}};
  j.remove_on_commit = {staging};
  j.remove_on_rollback = {staging};

  auto lock = platform::FileLock::acquire(state + "\\lock");
  REQUIRE(lock);
  CHECK_FALSE(platform::FileLock::acquire(state + "\\lock"));  // a second run is kept out

  auto real = make_real_fs();
  FaultyFs faulty(*real, 4, Fault::access_denied);  // fails at the second move's rename
  const auto failed = run_transaction(faulty, state, j);
  REQUIRE_FALSE(failed);
  CHECK_THAT(failed.error().message, Catch::Contains("rolled back"));
  CHECK(fs::exists(root / "bin" / "x64" / "cudnn64_8.dll"));
  CHECK_FALSE(fs::exists(root / "bin" / "x64" / "cudnn64_9.dll"));

  REQUIRE(platform::make_directories(staging));
  write(staging + "\\cudnn64_9.dll", "new main");
  write(staging + "\\cudnn.h", "new header");
  REQUIRE(run_transaction(*real, state, j));
  CHECK(fs::exists(root / "bin" / "x64" / "cudnn64_9.dll"));
  CHECK(fs::exists(root / "include" / "cudnn.h"));
  CHECK_FALSE(fs::exists(root / "bin" / "x64" / "cudnn64_8.dll"));
  CHECK(fs::exists(from_utf8(state + "\\backup-1\\bin\\x64\\cudnn64_8.dll")));
  CHECK_FALSE(fs::exists(from_utf8(staging)));
  CHECK(recover(*real, state)->empty());
}

#include "cudnnctl/doctor/doctor.hpp"

namespace {
// A CUDA 12.4 Windows toolkit with cuDNN 9.19's header and no DLLs yet.
void make_windows_toolkit(const fs::path& root) {
  fs::create_directories(root / "bin");
  fs::create_directories(root / "include");
  fs::create_directories(root / "lib" / "x64");
  write(utf8(root / "bin" / "nvcc.exe"), "nvcc");
  write(utf8(root / "include" / "cuda.h"), "#define CUDA_VERSION 12040\n");
  write(utf8(root / "include" / "cudnn_version.h"), "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 19\n#define CUDNN_PATCHLEVEL 0\n");
}
} // namespace

TEST_CASE("the doctor's file layer on a Windows toolkit, under Windows", "[windows]") {
  const auto base = scratch("doctor");
  const auto root = base / "CUDA" / "v12.4";
  const auto dlls = fs::absolute(CUDNNCTL_WIN_DLLS);
  make_windows_toolkit(root);
  fs::copy_file(dlls / "new" / "cudnn64_9.dll", root / "bin" / "cudnn64_9.dll");
  DoctorOptions o;
  o.cuda_path = utf8(root);
  o.only_layer = 2;
  o.self_exe = "unused";
  platform::MapEnvironment env(std::map<std::string, std::string>{{"SystemRoot", "C:\\windows"}});
  const auto r = run_doctor(o, env);
  auto find = [&](const char* id) -> const Check* {
    for (const auto& c : r.checks)
      if (c.id == id) return &c;
    return nullptr;
  };
  REQUIRE(find("files.dlls"));
  CHECK(find("files.dlls")->status == CheckStatus::fail);  // cudnn_graph64_9.dll is not beside it
  CHECK_THAT(find("files.dlls")->finding, Catch::Contains("cudnn_graph64_9.dll"));
  fs::copy_file(dlls / "new" / "cudnn_graph64_9.dll", root / "bin" / "cudnn_graph64_9.dll");
  const auto fixed = run_doctor(o, env);
  for (const auto& c : fixed.checks)
    if (c.id == "files.dlls") CHECK(c.status == CheckStatus::pass);
}

TEST_CASE("the native doctor on a Windows toolkit under a non-ASCII path: layer 3 reads the DLLs' PE imports", "[windows]") {
  const auto base = scratch("doctor-utf8");
  const auto root = base / from_utf8("\xE5\xBC\xA0\xE4\xB8\x89") / "cuda" / "v12.4";  // 张三
  const auto dlls = fs::absolute(CUDNNCTL_WIN_DLLS);
  make_windows_toolkit(root);
  for (const char* dll : {"cudnn64_9.dll", "cudnn_graph64_9.dll"}) fs::copy_file(dlls / "new" / dll, root / "bin" / dll);
  DoctorOptions o;
  o.cuda_path = utf8(root);
  o.only_layer = 3;
  o.self_exe = "unused";  // the probe cannot start: loader.load fails, the file checks do not need it
  wchar_t sysroot[MAX_PATH];
  GetEnvironmentVariableW(L"SystemRoot", sysroot, MAX_PATH);
  platform::MapEnvironment env(std::map<std::string, std::string>{{"SystemRoot", utf8(fs::path(sysroot))}, {"PATH", ""}});
  const auto r = run_doctor(o, env);
  const Check* needed = nullptr;
  for (const auto& c : r.checks) {
    UNSCOPED_INFO(c.id << ": " << c.finding);
    if (c.id == "loader.needed") needed = &c;
  }
  REQUIRE(needed);  // not "loader.skipped: no cuDNN library": the DLL folder was listed through its UTF-8 name
  CHECK(needed->status == CheckStatus::pass);
  CHECK_THAT(needed->finding, Catch::Contains("imports of the cuDNN DLLs resolve"));
}

TEST_CASE("install state under a non-ASCII toolkit path: write_atomic and the leftover staging scan", "[windows]") {
  const auto state = scratch("state-utf8") / from_utf8("\xE5\xBC\xA0\xE4\xB8\x89") / ".cudnnctl";  // 张三
  auto real = make_real_fs();
  REQUIRE(real->make_dirs(utf8(state / "staging-1")));
  // the receipt and the journal are replaced through write_atomic, which flushes their folder
  const auto written = real->write_atomic(utf8(state / "receipt.json"), "{}");
  INFO((written ? std::string() : written.error().message));
  CHECK(written);
  CHECK(fs::exists(state / "receipt.json"));
  const auto left = leftover_folders(utf8(state), {"staging-"});
  REQUIRE(left.size() == 1);
  CHECK(left[0].path == utf8(state / "staging-1"));
}

#include "cudnnctl/machine/probe.hpp"

TEST_CASE("the probe finds cuDNN's sub-DLLs in a folder with a non-ASCII name", "[windows]") {
  const auto dir = scratch("probe-utf8") / from_utf8("\xE6\xB5\x8B\xE8\xAF\x95") / "bin";  // 测试
  fs::create_directories(dir);
  const auto dlls = fs::absolute(CUDNNCTL_WIN_DLLS);
  for (const char* dll : {"cudnn64_9.dll", "cudnn_graph64_9.dll"}) fs::copy_file(dlls / "new" / dll, dir / dll);
  // the probe loads these first, by full path: cuDNN then finds them loaded when it opens them by name
  const auto subs = discover_sub_libraries(utf8(dir), 9, Os::windows);
  REQUIRE(subs.size() == 1);
  CHECK(subs[0] == "cudnn_graph64_9.dll");
}
