#include <catch2/catch.hpp>

#include "cudnnctl/env/display_path.hpp"

using namespace cudnnctl;

TEST_CASE("a Windows toolkit's folder is printed as the user here can use it", "[display_path]") {
  // on Windows, Windows' own separators
  CHECK(windows_toolkit_path_for("C:/CUDA/v13.0/bin/x64", Os::windows) == "C:\\CUDA\\v13.0\\bin\\x64");
  CHECK(windows_toolkit_path_for(".cudnnctl/backup-1", Os::windows) == ".cudnnctl\\backup-1");
  // a test tree or a mounted disk on Linux: as given, never \data\cuda (a path on neither system)
  CHECK(windows_toolkit_path_for("/data/cuda/bin/x64", Os::linux_os) == "/data/cuda/bin/x64");
  CHECK(windows_toolkit_path_for(".cudnnctl/backup-1", Os::linux_os) == ".cudnnctl/backup-1");
  // from WSL's drive mount: the path Windows itself uses (what goes on its PATH)
  CHECK(windows_toolkit_path_for("/mnt/c/Program Files/NVIDIA GPU Computing Toolkit/CUDA/v13.0/bin/x64", Os::linux_os) ==
        "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v13.0\\bin\\x64");
  CHECK(windows_toolkit_path_for("/mnt/d", Os::linux_os) == "D:\\");
  CHECK(windows_toolkit_path_for("/mnt/data/cuda", Os::linux_os) == "/mnt/data/cuda");
}
