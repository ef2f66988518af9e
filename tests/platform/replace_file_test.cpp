#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#ifndef _WIN32
#include <sys/stat.h>
#endif

#include "cudnnctl/platform/process.hpp"
#include "cudnnctl/platform/replace_file.hpp"

using namespace cudnnctl;
namespace fs = std::filesystem;

namespace {
std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}
} // namespace

TEST_CASE("replace_file_atomically: the new content under the name, 0644, no temporary left, a link replaced", "[replace_file]") {
  const auto dir = fs::temp_directory_path() / ("cudnnctl-replace-" + platform::unique_id());
  fs::create_directories(dir);
  const auto target = dir / "cudnnctl.prom";
#ifndef _WIN32
  const auto old_umask = ::umask(077);  // a root cron job's umask: the file is still readable by the exporter's user
#endif
  REQUIRE(platform::replace_file_atomically(target.string(), "a 1\n"));
  REQUIRE(slurp(target) == "a 1\n");
  REQUIRE(platform::replace_file_atomically(target.string(), "a 2\n"));
  CHECK(slurp(target) == "a 2\n");
#ifndef _WIN32
  ::umask(old_umask);
  CHECK((fs::status(target).permissions() & fs::perms::all) ==
        (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read | fs::perms::others_read));
  // a link at the name is replaced by the file, its target untouched
  const auto other = dir / "other";
  { std::ofstream(other) << "keep"; }
  fs::remove(target);
  fs::create_symlink(other, target);
  REQUIRE(platform::replace_file_atomically(target.string(), "a 3\n"));
  CHECK_FALSE(fs::is_symlink(fs::symlink_status(target)));
  CHECK(slurp(other) == "keep");
#endif
  std::size_t entries = 0;
  for (const auto& e : fs::directory_iterator(dir)) entries += e.path().filename().string().starts_with(".") ? 100 : 1;
  CHECK(entries <= 2);  // no temporary dot file left beside it
  // a missing folder, a folder at the name: errors, nothing created
  auto missing = platform::replace_file_atomically((dir / "nope" / "x.prom").string(), "x");
  REQUIRE_FALSE(missing);
  CHECK(missing.error().code == ErrorCode::file_not_found);
  fs::create_directory(dir / "adir");
  auto folder = platform::replace_file_atomically((dir / "adir").string(), "x");
  REQUIRE_FALSE(folder);
  CHECK(fs::is_directory(dir / "adir"));
  fs::remove_all(dir);
}
