#include <catch2/catch.hpp>

#include "cudnnctl/contract/cudnn_files.hpp"

using namespace cudnnctl;

TEST_CASE("cudnn_version.h: the three macros, or nothing", "[cudnn_files]") {
  const auto v = parse_version_header("/* v */\n#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 19\n#  define CUDNN_PATCHLEVEL 0\n#define CUDNN_VERSION (CUDNN_MAJOR * 10000)\n");
  REQUIRE(v);
  CHECK(v->text() == "9.19.0");
  CHECK_FALSE(parse_version_header("#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 1\n"));
  CHECK_FALSE(parse_version_header("int CUDNN_MAJOR_X = 9;"));
  CHECK(version_header_names().front() == "cudnn_version.h");
}

TEST_CASE("cuDNN library file names, per OS", "[cudnn_files]") {
  const auto so = classify_cudnn_file("libcudnn_ops.so.9.19.0", Os::linux_os);
  REQUIRE(so);
  CHECK(so->sub_library == "cudnn_ops");
  CHECK(so->major == 9);
  CHECK(so->full_version == "9.19.0");
  const auto main = classify_cudnn_file("libcudnn.so.9", Os::linux_os);
  REQUIRE(main);
  CHECK(main->main());
  CHECK(main->full_version.empty());
  const auto dll = classify_cudnn_file("CUDNN_OPS_INFER64_8.DLL", Os::windows);
  REQUIRE(dll);
  CHECK(dll->sub_library == "cudnn_ops_infer");
  CHECK(dll->major == 8);
  for (const auto* n : {"libcudnn.so", "cudnn_frontend.h", "zlibwapi.dll", "libcudnn.so.9.txt", "cudnn64_9.dll.bak"}) {
    INFO(n);
    CHECK_FALSE(classify_cudnn_file(n, Os::linux_os));
    CHECK_FALSE(classify_cudnn_file(n, Os::windows));
  }
  CHECK(cudnn_sub_library_files({"libcudnn_adv.so.9", "libcudnn_graph.so.9", "libcudnn.so.9", "libcudnn_ops.so.9", "libcudnn_ops.so.9.1.0",
                                 "libcudnn_ops_infer.so.8"},
                                9, Os::linux_os) == std::vector<std::string>{"libcudnn_graph.so.9", "libcudnn_ops.so.9", "libcudnn_adv.so.9"});
}
