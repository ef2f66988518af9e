#include <catch2/catch.hpp>

#include "cudnnctl/explain/library_list.hpp"

using namespace cudnnctl;

// Every entry of a loader's list is read with the major its name carries.
TEST_CASE("library lists are read entry by entry with their majors", "[library_list]") {
  struct Row {
    const char* line;
    std::size_t entries;
    std::vector<int> majors;
    const char* first_base;
  };
  const Row table[] = {
      {"Unable to load any of {libcudnn_ops.so.9.1.0, libcudnn_ops.so.9.1, libcudnn_ops.so.9, libcudnn_ops.so}", 4, {9}, "cudnn_ops"},
      {"Unable to load any of {libcudnn_cnn.so.9.1.0, libcudnn_cnn.so.9.1, libcudnn_cnn.so.9, libcudnn_cnn.so}", 4, {9}, "cudnn_cnn"},
      {"Unable to find nvrtc lib under the names [\"nvrtc\", \"nvrtc64\", \"nvrtc64_12\", \"nvrtc64_125\", \"nvrtc64_125_0\", "
       "\"nvrtc64_120_5\", \"nvrtc64_10\"]. Please open GitHub issue.",
       7, {12, 10}, "nvrtc"},
      {"Unable to dynamically load the \"cuda\" shared library - searched for library names: [\"cuda\", \"nvcuda\"].", 2, {}, "cuda"},
      {"could not load any of {libcublasLt.so.12, libcublasLt.so.11}", 2, {12, 11}, "cublaslt"},
  };
  for (const auto& r : table) {
    INFO(r.line);
    const auto l = library_list_in(r.line);
    REQUIRE(l);
    CHECK(l->entries.size() == r.entries);
    CHECK(l->majors == r.majors);
    CHECK(l->entries.front().base == r.first_base);
    CHECK_FALSE(l->said().empty());
  }
  CHECK(library_list_in("Unable to load any of {libcudnn_ops.so.9.1.0, libcudnn_ops.so.9}")->said() ==
        "it tried cudnn_ops under 2 names, for cuDNN 9 only");
  CHECK_FALSE(library_list_in("Could not load library libcudnn_cnn_infer.so.8"));
  CHECK_FALSE(library_list_in("{'error': 'RuntimeError', 'detail': ''}"));
  CHECK_FALSE(library_list_in("set {a}"));
}
