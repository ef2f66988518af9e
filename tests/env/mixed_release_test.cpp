// Mixed releases as a pure function: a place lacking a sub-library its release has, filled by another release
// on the loader's path (env/mixed_release.hpp).
#include <catch2/catch.hpp>

#include "cudnnctl/env/mixed_release.hpp"

using namespace cudnnctl;

namespace {

const std::vector<std::string> k_nine{"cudnn", "cudnn_adv", "cudnn_cnn", "cudnn_engines_precompiled", "cudnn_engines_runtime_compiled",
                                      "cudnn_graph", "cudnn_heuristic", "cudnn_ops"};

CudnnCopy system_copy(const std::string& version, std::vector<std::string> subs) {
  CudnnCopy c;
  c.dir = "/lib/x86_64-linux-gnu";
  c.via = "ld.so cache";
  c.major = 9;
  c.version = version;
  c.sub_libraries = std::move(subs);
  c.owner = Owner{OwnerKind::dpkg, "libcudnn9-cuda-12", "9.23.2.1-1", true, ""};
  return c;
}

} // namespace

TEST_CASE("a bundle without tensor_ir, the system's 9.23 with it: one gap, both owners", "[mixed_release]") {
  auto sys_subs = k_nine;
  sys_subs.push_back("cudnn_engines_tensor_ir");
  const LoadPlace bundle{"/venv/site-packages/nvidia/cudnn/lib", "9.21.0.82", 9, "pip: nvidia-cudnn-cu13 9.21.0.82", "make it complete", k_nine};
  const auto gaps = mixed_release_gaps({bundle}, {system_copy("9.23.2", sys_subs)}, Os::linux_os);
  REQUIRE(gaps.size() == 1);
  CHECK(gaps[0].file == "libcudnn_engines_tensor_ir.so.9");
  CHECK(gap_text(gaps[0]) ==
        "/venv/site-packages/nvidia/cudnn/lib (cuDNN 9.21.0.82, pip: nvidia-cudnn-cu13 9.21.0.82) has no libcudnn_engines_tensor_ir.so.9, "
        "which cuDNN 9.21.0.82 opens by name: the loader takes it from /lib/x86_64-linux-gnu (cuDNN 9.23.2, dpkg: libcudnn9-cuda-12 "
        "9.23.2.1-1 (held) via ld.so cache)");
  CHECK(gap_fix(gaps[0]).starts_with("remove the other copy the way its owner does (`sudo apt remove libcudnn9-cuda-12"));
}

TEST_CASE("no gap: a complete place, an older release that never had it, the same release, a JIT build", "[mixed_release]") {
  auto sys_subs = k_nine;
  sys_subs.push_back("cudnn_engines_tensor_ir");
  sys_subs.push_back("cudnn_ext");
  const auto sys = system_copy("9.24.0", sys_subs);
  auto complete = k_nine;
  complete.push_back("cudnn_engines_tensor_ir");
  CHECK(mixed_release_gaps({{"/b", "9.21.0.82", 9, "pip", "", complete}}, {sys}, Os::linux_os).empty());
  CHECK(mixed_release_gaps({{"/b", "9.19.0", 9, "pip", "", k_nine}}, {sys}, Os::linux_os).empty());    // 9.19 has no tensor_ir
  CHECK(mixed_release_gaps({{"/b", "9.24.0.1", 9, "pip", "", k_nine}}, {sys}, Os::linux_os).empty());  // the same release
  CHECK(mixed_release_gaps({{"/b", "9.21.0", 9, "conda", "", {"cudnn", "cudnn_engines_runtime_compiled", "cudnn_graph"}}}, {sys},
                           Os::linux_os).empty());  // libcudnn-jit
  CHECK(mixed_release_gaps({{"/b", "9.x", 9, "pip", "", {"cudnn"}}}, {sys}, Os::linux_os).empty());  // version unknown
  // 9.24's libcudnn_ext, missing from a 9.24 bundle, taken from a 9.25 copy
  const auto later = system_copy("9.25.0", sys_subs);
  auto no_ext = complete;
  const auto gaps = mixed_release_gaps({{"/b", "9.24.0.1", 9, "pip", "", no_ext}}, {later}, Os::linux_os);
  REQUIRE(gaps.size() == 1);
  CHECK(gaps[0].file == "libcudnn_ext.so.9");
  CHECK(mixed_release_gaps({{"C:/b", "9.24.0.1", 9, "pip", "", no_ext}}, {later}, Os::windows)[0].file == "cudnn_ext64_9.dll");
}

TEST_CASE("loader names only count as a place's sub-libraries", "[mixed_release]") {
  CHECK(loader_sub_libraries({"libcudnn.so.9", "libcudnn_ops.so.9.21.0", "libcudnn_ops.so.9", "libcudnn_cnn_infer.so.8", "x"}, 9, Os::linux_os) ==
        std::vector<std::string>{"cudnn", "cudnn_ops"});
}
