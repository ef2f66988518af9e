#include <algorithm>

#include <catch2/catch.hpp>

#include "cudnnctl/platform/environment.hpp"

using namespace cudnnctl::platform;

TEST_CASE("an overlay environment answers its own variables first, names matched without case as Windows does", "[environment]") {
  const MapEnvironment base({{"Path", "C:\\old"}, {"CUDA_PATH", "C:\\cuda"}});
  const OverlayEnvironment after(base, {{"PATH", "C:\\cuda\\bin;C:\\old"}});
  CHECK(after.get("Path") == "C:\\cuda\\bin;C:\\old");
  CHECK(after.get("PATH") == "C:\\cuda\\bin;C:\\old");
  CHECK(after.get("CUDA_PATH") == "C:\\cuda");
  CHECK_FALSE(after.get("CUDNN_PATH"));
  auto names = after.names();
  std::sort(names.begin(), names.end());
  CHECK(names == std::vector<std::string>{"CUDA_PATH", "PATH"});  // one PATH, not the base's Path beside it

  const OverlayEnvironment same(base, {});
  CHECK(same.get("Path") == "C:\\old");
  CHECK(same.names().size() == 2);
}
