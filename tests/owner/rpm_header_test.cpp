// rpm header blobs (as rpmdb.sqlite stores them) read as untrusted bytes: the package, its files, and every
// bound a hostile blob can break.
#include <catch2/catch.hpp>

#include <string>

#include "cudnnctl/owner/rpm_header.hpp"
#include "sqlite_bytes.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;

namespace {

std::string rpmh_good() {
  return rpm_package_blob("libcudnn9-cuda-13", "9.19.0.56", "1", {"/usr/lib64/", "/usr/local/cuda-13.0/lib64/"},
                          {"libcudnn.so.9", "libcudnn.so.9.19.0", "libcudnn.so.9"}, {0, 0, 1});
}

// The blob with the 4 bytes at `at` (counted from its start) set to `v`.
std::string rpmh_bent(std::size_t at, std::uint32_t v) {
  std::string s = rpmh_good();
  put_be(s, at, v, 4);
  return s;
}

} // namespace

TEST_CASE("rpm header: name, version-release and the files", "[rpm_header]") {
  const auto p = parse_rpm_header(rpmh_good());
  REQUIRE(p);
  CHECK(p->name == "libcudnn9-cuda-13");
  CHECK(p->version == "9.19.0.56-1");
  CHECK(p->files == std::vector<std::string>{"/usr/lib64/libcudnn.so.9", "/usr/lib64/libcudnn.so.9.19.0", "/usr/local/cuda-13.0/lib64/libcudnn.so.9"});
  // the same after the 8-byte header magic (a .rpm file's header)
  const auto m = parse_rpm_header(std::string("\x8e\xad\xe8\x01\0\0\0\0", 8) + rpmh_good());
  REQUIRE(m);
  CHECK(m->files.size() == 3);
  // OLDFILENAMES where there are no BASENAMES; no files at all is a package too
  const auto old = parse_rpm_header(rpm_blob({rpm_string(1000, "old"), rpm_string(1001, "1.0"), rpm_string(1002, "2.el5"),
                                              rpm_strings(1027, {"/usr/lib/libcudnn.so.7", "relative/x"})}));
  REQUIRE(old);
  CHECK(old->version == "1.0-2.el5");
  CHECK(old->files == std::vector<std::string>{"/usr/lib/libcudnn.so.7"});
  const auto none = parse_rpm_header(rpm_blob({rpm_string(1000, "meta"), rpm_string(1001, "1"), rpm_string(1002, "1")}));
  REQUIRE(none);
  CHECK(none->files.empty());
}

TEST_CASE("rpm header: il, dl and the blob's length", "[rpm_header]") {
  const std::string good = rpmh_good();
  CHECK_FALSE(parse_rpm_header(""));
  CHECK_FALSE(parse_rpm_header(good.substr(0, 7)));
  CHECK_FALSE(parse_rpm_header(good.substr(0, good.size() - 1)));  // shorter than il and dl say
  CHECK_FALSE(parse_rpm_header(rpmh_bent(0, 0)));                  // no entries
  CHECK_FALSE(parse_rpm_header(rpmh_bent(0, 0x10000)));            // more than rpm's 65535
  CHECK_FALSE(parse_rpm_header(rpmh_bent(0, 0xffffffff)));
  CHECK_FALSE(parse_rpm_header(rpmh_bent(4, (32u << 20) + 1)));    // dl past the bound
  CHECK_FALSE(parse_rpm_header(rpmh_bent(4, 0xffffffff)));
  CHECK(parse_rpm_header(good + "trailing"));                      // bytes after the data are not read
}

TEST_CASE("rpm header: entries outside the data, strings without their NUL, counts that cannot fit", "[rpm_header]") {
  // entry i's fields: 8 + 16 i + (0 tag, 4 type, 8 offset, 12 count); entries: NAME VERSION RELEASE DIRINDEXES BASENAMES DIRNAMES
  const std::string good = rpmh_good();
  const std::uint32_t dl = static_cast<std::uint32_t>(good.size() - 8 - 16 * 6);
  CHECK_FALSE(parse_rpm_header(rpmh_bent(8 + 8, dl)));            // NAME's offset at the end of the data
  CHECK_FALSE(parse_rpm_header(rpmh_bent(8 + 8, 0xfffffff0)));
  CHECK_FALSE(parse_rpm_header(rpmh_bent(8 + 16 * 3 + 12, 4)));   // DIRINDEXES: 4 values for 3 names
  CHECK_FALSE(parse_rpm_header(rpmh_bent(8 + 16 * 3 + 12, 0x40000000)));
  CHECK_FALSE(parse_rpm_header(rpmh_bent(8 + 16 * 3 + 8, dl - 2)));  // DIRINDEXES running past the data
  CHECK_FALSE(parse_rpm_header(rpmh_bent(8 + 16 * 4 + 12, 0xffffffff)));  // BASENAMES: more strings than bytes
  // more strings than an entry may have, each of them there (an empty string is one NUL)
  std::vector<std::string> empties((1u << 20) + 1);
  CHECK_FALSE(parse_rpm_header(rpm_blob({rpm_string(1000, "p"), rpm_string(1001, "1"), rpm_string(1002, "1"), rpm_strings(1027, empties)})));
  empties.pop_back();
  CHECK(parse_rpm_header(rpm_blob({rpm_string(1000, "p"), rpm_string(1001, "1"), rpm_string(1002, "1"), rpm_strings(1027, empties)})));
  CHECK_FALSE(parse_rpm_header(rpmh_bent(8 + 16 * 5 + 12, 3)));   // DIRNAMES: 3 strings, the data ends after 2
  CHECK_FALSE(parse_rpm_header(rpmh_bent(8 + 16 * 0 + 4, 4)));    // NAME typed INT32
  CHECK_FALSE(parse_rpm_header(rpmh_bent(8 + 16 * 3 + 4, 6)));    // DIRINDEXES typed STRING

  // the last string of the data without its NUL
  std::string open = rpmh_good();
  open.back() = 'x';
  CHECK_FALSE(parse_rpm_header(open));
  // a DIRINDEXES value past DIRNAMES
  CHECK_FALSE(parse_rpm_header(rpm_package_blob("p", "1", "1", {"/usr/lib64/"}, {"libcudnn.so.9"}, {1})));
  CHECK_FALSE(parse_rpm_header(rpm_package_blob("p", "1", "1", {"/usr/lib64/"}, {"libcudnn.so.9"}, {0xffffffff})));
}

TEST_CASE("rpm header: names and paths that are not plain", "[rpm_header]") {
  CHECK_FALSE(parse_rpm_header(rpm_package_blob("evil\x1b[31m", "1", "1", {"/usr/"}, {"x"}, {0})));
  CHECK_FALSE(parse_rpm_header(rpm_package_blob("p", "1 2", "1", {"/usr/"}, {"x"}, {0})));
  CHECK_FALSE(parse_rpm_header(rpm_package_blob("p", "1", "", {"/usr/"}, {"x"}, {0})));
  CHECK_FALSE(parse_rpm_header(rpm_blob({rpm_string(1000, "p"), rpm_string(1001, "1")})));  // no RELEASE
  const auto p = parse_rpm_header(rpm_package_blob("p", "1", "1", {"/usr/lib/../lib64/", "usr/lib64/", "/usr/lib64/", "/a/./b/"},
                                                   {"libcudnn.so.9", "libcudnn.so.9", "lib\ncudnn.so", "libcudnn.so.9", "ok", "x"},
                                                   {0, 1, 2, 3, 2, 2}));
  REQUIRE(p);
  CHECK(p->files == std::vector<std::string>{"/usr/lib64/ok", "/usr/lib64/x"});
  const auto huge = parse_rpm_header(rpm_package_blob("p", "1", "1", {"/" + std::string(5000, 'd') + "/"}, {"x"}, {0}));
  REQUIRE(huge);
  CHECK(huge->files.empty());
}
