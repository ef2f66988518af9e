// As root, "permission denied" cannot be fixed by running as root: the hint says what else it may be.
#include <catch2/catch.hpp>

#include "../skip.hpp"

#include <cstdlib>

#include "../archive/test_archives.hpp"
#include "../install/toolkit_trees.hpp"
#include "cudnnctl/platform/process.hpp"
#include "run_cli.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;

TEST_CASE("install into an immutable toolkit as root does not say 'run as root'", "[cli][permission_hint]") {
  if (!platform::is_privileged()) {
    CUDNNCTL_SKIP("not root: the root-only hint cannot be shown here");
  }
  TempDir tmp;
  const auto root = linux_toolkit(tmp.path(), "12.4").string();
  const auto archive = (tmp.path() / (L91 + ".tar.xz")).string();
  fs::copy_file(test_archive("good/" + L91 + ".tar.xz"), archive);
  if (std::system(("chattr +i '" + root + "' 2>/dev/null").c_str()) != 0) {
    CUDNNCTL_SKIP("chattr +i is not supported on this file system");
  }
  const auto r = run({"install", archive, "--sha256", *sha256_file(archive), "--cuda-path", root});
  (void)std::system(("chattr -i '" + root + "'").c_str());
  CHECK(r.code != 0);
  CHECK(r.err.find("run as root") == std::string::npos);
  CHECK_THAT(r.err, Catch::Contains("already runs as root") && Catch::Contains("immutable"));
}
