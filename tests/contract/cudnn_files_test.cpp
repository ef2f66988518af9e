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

TEST_CASE("every file of a cuDNN release, whatever its sub-library, and nothing else (the stale rule's classifier)", "[cudnn_files][stale]") {
  struct Row {
    const char* name;
    Os os;
    bool cudnn;
  };
  const Row rows[] = {
      // Linux libraries of every era, and sub-libraries no list knew (cuDNN 9.2x: ext, engines_tensor_ir)
      {"libcudnn.so", Os::linux_os, true},
      {"libcudnn.so.9", Os::linux_os, true},
      {"libcudnn.so.9.19.0", Os::linux_os, true},
      {"libcudnn_ops.so.9.1.0", Os::linux_os, true},
      {"libcudnn_cnn_infer.so.8", Os::linux_os, true},
      {"libcudnn_adv_train.so", Os::linux_os, true},
      {"libcudnn_engines_runtime_compiled.so.9", Os::linux_os, true},
      {"libcudnn_ext.so.9", Os::linux_os, true},
      {"libcudnn_engines_tensor_ir.so.9.24.0", Os::linux_os, true},
      {"libcudnn_static_v8.a", Os::linux_os, true},
      {"libcudnn_static.a", Os::linux_os, true},
      {"libcudnn_ops_static.a", Os::linux_os, true},
      {"libcudnn_adv_static_v9.a", Os::linux_os, true},
      {"libcudnn_ext_static.a", Os::linux_os, true},
      // headers, plain and _vN
      {"cudnn.h", Os::linux_os, true},
      {"cudnn_v9.h", Os::linux_os, true},
      {"cudnn_version.h", Os::linux_os, true},
      {"cudnn_version_v8.h", Os::linux_os, true},
      {"cudnn_ops_infer.h", Os::linux_os, true},
      {"cudnn_backend.h", Os::windows, true},
      {"cudnn_ext.h", Os::linux_os, true},
      // Windows DLLs and import libraries, any case
      {"cudnn64_7.dll", Os::windows, true},
      {"cudnn64_8.dll", Os::windows, true},
      {"CUDNN_OPS_INFER64_8.DLL", Os::windows, true},
      {"cudnn_heuristic64_9.dll", Os::windows, true},
      {"cudnn_ext64_9.dll", Os::windows, true},
      {"cudnn_engines_tensor_ir64_9.dll", Os::windows, true},
      {"cudnn.lib", Os::windows, true},
      {"cudnn_graph.lib", Os::windows, true},
      {"cudnn_ext.lib", Os::windows, true},
      {"cudnn_ext64_9.lib", Os::windows, true},
      {"Cudnn_Engines_Tensor_IR.LIB", Os::windows, true},
      // cudnn-frontend, notes, cudnnctl's own names, and the other platform's libraries
      {"cudnn_frontend.h", Os::linux_os, false},
      {"cudnn_frontend_utils.h", Os::linux_os, false},
      {"cudnn_backend_base.h", Os::linux_os, false},
      {"libcudnn_frontend.so", Os::linux_os, false},
      {"cudnn_README.txt", Os::linux_os, false},
      {"cudnn_notes.md", Os::windows, false},
      {"libcudnn.so.9.cudnnctl-old", Os::linux_os, false},
      {"libcudnn.so.9.cudnnctl-part", Os::linux_os, false},
      {"cudnn.h.cudnnctl-edited", Os::linux_os, false},
      {"cudnnx.dll", Os::windows, false},
      {"cudnn.dll", Os::windows, false},
      {"cudnn64_9.dll", Os::linux_os, false},
      {"libcudnn.so.9", Os::windows, false},
      {"libcudnn_ops.so.x", Os::linux_os, false},
      {"zlibwapi.dll", Os::windows, false},
      {"libcublas.so.13", Os::linux_os, false},
      {"cudnn", Os::linux_os, false},
      {"", Os::linux_os, false},
  };
  for (const auto& r : rows) {
    INFO(r.name << (r.os == Os::windows ? " (Windows)" : " (Linux)"));
    CHECK(is_cudnn_release_file(r.name, r.os) == r.cudnn);
  }
}

TEST_CASE("what cuDNN opens by name at run time, per OS, cuDNN major and CUDA major", "[cudnn_files]") {
  struct Row {
    Os os;
    unsigned cudnn, cuda;
    std::vector<std::string> files;
  };
  const std::vector<Row> rows{
      {Os::linux_os, 9, 12, {"libcublasLt.so.12", "libnvrtc.so.12"}},
      {Os::linux_os, 9, 13, {"libcublasLt.so.13", "libnvrtc.so.13"}},
      {Os::linux_os, 8, 11, {"libnvrtc.so"}},
      {Os::windows, 9, 12, {"cublasLt64_12.dll", "nvrtc64_120_0.dll"}},
      {Os::windows, 9, 13, {"cublasLt64_13.dll", "nvrtc64_130_0.dll"}},
      {Os::windows, 8, 11, {"cublasLt64_11.dll", "nvrtc64_112_0.dll", "zlibwapi.dll"}},
      {Os::windows, 9, 0, {}},  // CUDA major unknown: nothing that depends on it
  };
  for (const auto& r : rows) {
    INFO(static_cast<int>(r.os) << " cuDNN " << r.cudnn << " CUDA " << r.cuda);
    std::vector<std::string> got;
    for (const auto& d : cudnn_runtime_dependencies(r.os, r.cudnn, r.cuda)) {
      got.push_back(d.file);
      CHECK_FALSE(d.needed_by.empty());
    }
    CHECK(got == r.files);
  }
  CHECK(windows_nvrtc_dll(11) == "nvrtc64_112_0.dll");
  CHECK(windows_nvrtc_dll(12) == "nvrtc64_120_0.dll");
}

TEST_CASE("sub-library kinds: the graph library and cuDNN 8's only names", "[cudnn_files]") {
  CHECK(classify_cudnn_file("libcudnn_graph.so.9", Os::linux_os)->graph());
  CHECK(classify_cudnn_file("cudnn_graph64_9.dll", Os::windows)->graph());
  CHECK_FALSE(classify_cudnn_file("libcudnn_ops.so.9", Os::linux_os)->graph());
  for (const auto* n : {"libcudnn_ops_infer.so.8", "libcudnn_cnn_train.so.8", "libcudnn_adv_infer.so.8"})
    CHECK(classify_cudnn_file(n, Os::linux_os)->cudnn8_only());
  CHECK(classify_cudnn_file("cudnn_cnn_infer64_8.dll", Os::windows)->cudnn8_only());
  for (const auto* n : {"libcudnn_ops.so.9", "libcudnn_engines_tensor_ir.so.9", "libcudnn_ext.so.9", "libcudnn.so.8"})
    CHECK_FALSE(classify_cudnn_file(n, Os::linux_os)->cudnn8_only());
}
