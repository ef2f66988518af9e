// The package managers' records parsed as untrusted text: each reader's format, and hostile bytes.
#include <catch2/catch.hpp>

#include <string>

#include "cudnnctl/owner/owner_records.hpp"

using namespace cudnnctl;
using namespace std::string_literals;

TEST_CASE("dpkg status: installed packages, versions and the hold", "[owner_records]") {
  const std::string status =
      "Package: libcudnn9-cuda-13\nStatus: hold ok installed\nPriority: optional\nArchitecture: amd64\n"
      "Version: 9.19.0.56-1\nDescription: cuDNN runtime\n continued line\n .\n\n"
      "Package: libcudnn9-cuda-12\nStatus: install ok installed\nArchitecture: amd64\nVersion: 9.10.2.21-1\n\n"
      "Package: removed-one\nStatus: deinstall ok config-files\nVersion: 1.0\n\n"
      "Package: no-trailing-blank\nstatus: install ok installed\nVERSION: 2.0\n";
  const auto pkgs = parse_dpkg_status(status);
  REQUIRE(pkgs.size() == 3);
  CHECK(pkgs[0].name == "libcudnn9-cuda-13");
  CHECK(pkgs[0].version == "9.19.0.56-1");
  CHECK(pkgs[0].held);
  CHECK(pkgs[0].arch == "amd64");
  CHECK_FALSE(pkgs[1].held);
  CHECK(pkgs[2].name == "no-trailing-blank");
  CHECK(pkgs[2].version == "2.0");
}

TEST_CASE("dpkg status: hostile stanzas are left out, never printed", "[owner_records]") {
  std::string status = "Package: evil\x1b[31m\nStatus: install ok installed\nVersion: 1\n\n";
  status += "Package: nover\nStatus: install ok installed\n\n";
  status += "Package: nul\0x\nStatus: install ok installed\nVersion: 1\n\n"s;
  status += "Package: " + std::string(5000, 'a') + "\nStatus: install ok installed\nVersion: 1\n\n";
  status += "Status: install ok installed\nVersion: 1\n\n";  // no Package
  status += "\xff\xfe\x00garbage\r\n:::\n";
  CHECK(parse_dpkg_status(status).empty());
  CHECK(parse_dpkg_status("").empty());
  CHECK(parse_dpkg_status("\n\n\n").empty());
}

TEST_CASE("path lists: absolute paths, /. and folders' slashes, control bytes left out", "[owner_records]") {
  const auto paths = parse_path_list("/.\n/usr\n/usr/lib/x86_64-linux-gnu/\n/usr/lib/x86_64-linux-gnu/libcudnn.so.9\r\n"
                                     "relative/x\n\n/bad\x01name\n/usr/include/cudnn_v9.h");
  REQUIRE(paths.size() == 4);
  CHECK(paths[1] == "/usr/lib/x86_64-linux-gnu");
  CHECK(paths[2] == "/usr/lib/x86_64-linux-gnu/libcudnn.so.9");
  CHECK(paths[3] == "/usr/include/cudnn_v9.h");
  CHECK(parse_path_list(std::string(10000, '/')).size() == 1);
  // a "." or ".." component names another file than the path spells: left out (found by fuzz_owner_records)
  CHECK(parse_path_list("/usr/lib/../../etc/shadow\n/usr/./lib/x\n/usr/lib/..\n/usr/lib/..x\n") == std::vector<std::string>{"/usr/lib/..x"});
}

TEST_CASE("pacman desc and files", "[owner_records]") {
  const auto d = parse_pacman_desc("%NAME%\ncudnn\n\n%VERSION%\n9.19.1.2-1\n\n%DESC%\nNVIDIA cuDNN\n");
  REQUIRE(d);
  CHECK(d->name == "cudnn");
  CHECK(d->version == "9.19.1.2-1");
  CHECK_FALSE(parse_pacman_desc("%NAME%\ncu dnn\n%VERSION%\n1\n"));
  CHECK_FALSE(parse_pacman_desc("%VERSION%\n1\n"));
  const auto files = parse_pacman_files("%FILES%\nusr/\nusr/lib/\nusr/lib/libcudnn.so.9\n/abs/not\n\n%BACKUP%\netc/x\tabc\n");
  REQUIRE(files.size() == 1);
  CHECK(files[0] == "/usr/lib/libcudnn.so.9");
  CHECK(parse_pacman_files("usr/lib/libcudnn.so.9\n").empty());  // outside %FILES%
  CHECK(parse_pacman_files("%FILES%\n.\nusr/../etc/x\nusr/lib/./y\n..\n").empty());
}

TEST_CASE("pip RECORD paths, quoted and not", "[owner_records]") {
  const auto p = parse_record_paths("nvidia/cudnn/lib/libcudnn.so.9,sha256=abc,123\n\"a,b\"\"c\",,\n,\n\x01x,1\n");
  REQUIRE(p.size() == 2);
  CHECK(p[0] == "nvidia/cudnn/lib/libcudnn.so.9");
  CHECK(p[1] == "a,b\"c");
}

TEST_CASE("conda-meta records: name, version, files, anything else refused", "[owner_records]") {
  const auto r = parse_conda_record(R"({"name":"libcudnn","version":"9.25.0.15","files":["lib/libcudnn.so.9",7,"lib/x"]})");
  REQUIRE(r);
  CHECK(r->name == "libcudnn");
  CHECK(r->files.size() == 2);
  CHECK_FALSE(parse_conda_record("{\"name\":1}"));
  CHECK_FALSE(parse_conda_record("[]"));
  CHECK_FALSE(parse_conda_record("not json\xff"));
  CHECK_FALSE(parse_conda_record(R"({"name":"a b","version":"1"})"));
}

TEST_CASE("dist-info folder names", "[owner_records]") {
  const auto d = parse_dist_info_name("nvidia_cudnn_cu12-9.1.0.70.dist-info");
  REQUIRE(d);
  CHECK(d->first == "nvidia-cudnn-cu12");
  CHECK(d->second == "9.1.0.70");
  CHECK_FALSE(parse_dist_info_name("torch.dist-info"));
  CHECK_FALSE(parse_dist_info_name("x-1.egg-info"));
}

TEST_CASE("NVIDIA's Windows installer folders", "[owner_records]") {
  const auto a = windows_installer_place(R"(C:\Program Files\NVIDIA\CUDNN\v9.1\bin\12.4\cudnn64_9.dll)");
  REQUIRE(a);
  CHECK(a->release == "9.1");
  CHECK(a->cuda == "12.4");
  CHECK(a->root == R"(C:\Program Files\NVIDIA\CUDNN\v9.1)");
  const auto b = windows_installer_place("/mnt/win/Program Files/NVIDIA/CUDNN/v9.19/bin/12.9/x64/cudnn64_9.dll");
  REQUIRE(b);
  CHECK(b->cuda == "12.9");
  const auto c = windows_installer_place(R"(C:\Program Files\NVIDIA\CUDNN\v9.1\bin)");
  REQUIRE(c);
  CHECK(c->cuda.empty());
  CHECK_FALSE(windows_installer_place(R"(C:\Program Files\NVIDIA\CUDNN\vX\bin\12.4\cudnn64_9.dll)"));
  CHECK_FALSE(windows_installer_place(R"(C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v12.4\bin\cudnn64_9.dll)"));
}
