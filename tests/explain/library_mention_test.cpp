#include <catch2/catch.hpp>

#include "cudnnctl/catalog/catalog.hpp"
#include "cudnnctl/contract/archive_name.hpp"
#include "cudnnctl/contract/layout.hpp"
#include "cudnnctl/explain/library_mention.hpp"
#include "cudnnctl/explain/loader_error.hpp"

using namespace cudnnctl;

// Every library file of every archive the catalog lists (both OSes, every major) is classified as the cuDNN
// sub-library and major it is, for the OS its name belongs to.
TEST_CASE("every library file of the catalog's archives is classified through the contract", "[library_mention]") {
  std::size_t checked = 0, windows = 0;
  for (const auto& a : Catalog::embedded().archives()) {
    const auto name = parse_archive_name(a.filename);
    if (!name || name->os == Os::macos) continue;
    const auto layout = expected_layout(*name);
    std::vector<std::string> files = layout.library_files;
    for (const auto& sub : layout.sub_libraries) files.push_back(library_file_name(name->os, sub, name->version.major()));
    for (const auto& file : files) {
      INFO(a.filename << ": " << file);
      const auto m = library_mention_of(file);
      REQUIRE(m);
      CHECK(m->family == LibraryFamily::cudnn);
      CHECK(m->major == name->version.major());
      CHECK(m->os == name->os);
      REQUIRE(m->cudnn);
      CHECK(m->described().find("cuDNN " + std::to_string(name->version.major())) == 0);
      ++checked;
      windows += name->os == Os::windows;
    }
  }
  CHECK(checked >= 100);
  CHECK(windows >= 20);
}

TEST_CASE("CUDA libraries, the driver and zlibwapi are named with their CUDA major and OS", "[library_mention]") {
  struct Row {
    const char* file;
    LibraryFamily family;
    unsigned major;
    Os os;
  };
  const Row rows[] = {
      {"libcublasLt.so.12", LibraryFamily::cublaslt, 12, Os::linux_os}, {"libcublas.so.13", LibraryFamily::cublas, 13, Os::linux_os},
      {"libcudart.so.11.0", LibraryFamily::cudart, 11, Os::linux_os},   {"libcudart.so.7.5", LibraryFamily::cudart, 7, Os::linux_os},
      {"libnvrtc.so.12", LibraryFamily::nvrtc, 12, Os::linux_os},       {"libnvrtc-builtins.so.12.4", LibraryFamily::nvrtc_builtins, 12, Os::linux_os},
      {"libnvrtc.so", LibraryFamily::nvrtc, 0, Os::linux_os},           {"cublas64_12.dll", LibraryFamily::cublas, 12, Os::windows},
      {"cublasLt64_11.dll", LibraryFamily::cublaslt, 11, Os::windows},  {"cudart64_110.dll", LibraryFamily::cudart, 11, Os::windows},
      {"cudart64_101.dll", LibraryFamily::cudart, 10, Os::windows},     {"cudart64_65.dll", LibraryFamily::cudart, 6, Os::windows},
      {"nvrtc64_120_0.dll", LibraryFamily::nvrtc, 12, Os::windows},     {"nvrtc64_112_0.dll", LibraryFamily::nvrtc, 11, Os::windows},
      {"cublas64_13.dll", LibraryFamily::cublas, 13, Os::windows},      {"libcuda.so.1", LibraryFamily::driver, 0, Os::linux_os},
      {"nvcuda.dll", LibraryFamily::driver, 0, Os::windows},            {"zlibwapi.dll", LibraryFamily::zlibwapi, 0, Os::windows},
      {"libonnxruntime_providers_cuda.so", LibraryFamily::framework, 0, Os::linux_os},
      {"cudnn64_6.dll", LibraryFamily::cudnn, 6, Os::windows},          {"libcudnn.so.5", LibraryFamily::cudnn, 5, Os::linux_os},
      {"libcudnn.so", LibraryFamily::cudnn, 0, Os::linux_os},
  };
  for (const auto& r : rows) {
    INFO(r.file);
    const auto m = library_mention_of(r.file);
    REQUIRE(m);
    CHECK(m->family == r.family);
    CHECK(m->major == r.major);
    CHECK(m->os == r.os);
  }
  CHECK_FALSE(library_mention_of("cudnn_frontend.h"));
}

TEST_CASE("the libraries of a line are found with the folder the line gives", "[library_mention]") {
  const auto libs = libraries_in(
      "Could not load library libcudnn_cnn_infer.so.8. Error: /usr/local/Cluster-Apps/cuda/8.0/lib64/libnvrtc.so: undefined symbol: nvrtcGetCUBIN");
  REQUIRE(libs.size() == 2);
  CHECK(libs[0].file == "libcudnn_cnn_infer.so.8");
  CHECK(libs[0].described() == "cuDNN 8's cnn_infer sub-library");
  CHECK(libs[1].path == "/usr/local/Cluster-Apps/cuda/8.0/lib64/");
  CHECK(libs[1].family == LibraryFamily::nvrtc);
}

TEST_CASE("the loader's error kinds on both OSes", "[loader_error]") {
  struct Row {
    const char* line;
    LoaderErrorKind kind;
  };
  const Row rows[] = {
      {"OSError: libcudnn.so.7: cannot open shared object file: No such file or directory", LoaderErrorKind::not_found},
      {"Could not locate cudnn_ops64_9.dll. Please make sure it is in your library path!", LoaderErrorKind::not_found},
      {"Unable to load DLL 'cudnn64_6.dll': The specified module could not be found. (Exception from HRESULT: 0x8007007E)",
       LoaderErrorKind::not_found},
      {"OSError: [WinError 126] The specified module cannot be found. Error loading \"C:\\t\\cudnn_cnn_infer64_8.dll\" or one of its dependencies.",
       LoaderErrorKind::dependency_missing},
      {"Could not load library cudnn_cnn_infer64_8.dll. Error code 127", LoaderErrorKind::undefined_symbol},
      {"Could not load library libcudnn_cnn_infer.so.8. Error: libcuda.so: wrong ELF class: ELFCLASS32", LoaderErrorKind::wrong_class},
      {"OSError: [WinError 193] %1 is not a valid Win32 application.", LoaderErrorKind::wrong_class},
      {"/lib64/libc.so.6: version `GLIBC_2.29' not found", LoaderErrorKind::glibc_version},
      {"Invalid handle. Cannot load symbol cudnnCreateTensorDescriptor", LoaderErrorKind::invalid_handle},
      {"OSError: [WinError 1455] The paging file is too small for this operation to complete.", LoaderErrorKind::paging_file},
  };
  for (const auto& r : rows) {
    INFO(r.line);
    const auto e = loader_error_in(r.line);
    REQUIRE(e);
    CHECK(e->kind == r.kind);
    CHECK_FALSE(e->meaning().empty());
  }
  const auto e = loader_error_in("libcudnn_ops_train.so.8 :undefined symbol: _ZN5cudnn3ops26JoinInternalPriorityStreamEP12cudnnContexti , version libcudnn_ops_infer.so.8");
  REQUIRE(e);
  CHECK(e->failing_file == "libcudnn_ops_train.so.8");
  CHECK(e->symbol == "_ZN5cudnn3ops26JoinInternalPriorityStreamEP12cudnnContexti");
  CHECK(e->symbol_owner == "libcudnn_ops_infer.so.8");
  CHECK_FALSE(loader_error_in("epoch 3 loss 0.25"));
}
