#include <catch2/catch.hpp>

#include "cudnnctl/explain/version_statement.hpp"

using namespace cudnnctl;

namespace {
struct Wording {
  const char* line;
  const char* built;
  const char* loaded;
  OlderSide older;
};
} // namespace

// Wordings from real logs (framework, product and order vary): which side is which, and which is older.
TEST_CASE("the version-statement reader finds both sides in any wording and order", "[version_statement]") {
  const Wording table[] = {
      {"Loaded runtime CuDNN library: 9.0.0 but source was compiled with: 9.3.0.  CuDNN library needs to have matching major", "9.3.0",
       "9.0.0", OlderSide::loaded},
      {"E tensorflow/stream_executor/cuda/cuda_dnn.cc:378] Loaded runtime CuDNN library: 7201 (compatibility version 7200) but source was "
       "compiled with 7004 (compatibility version 7000).",
       "7.0.4", "7.2.1", OlderSide::built},
      {"E1027 15:11:27.184481 3266602 cuda_dnn.cc:456] Loaded runtime CuDNN library: 9.10.1 but source was compiled with: 9.13.1.", "9.13.1",
       "9.10.1", OlderSide::loaded},
      {"CUDA backend failed to initialize: Found cuDNN version 8600, but JAX was built against version 8906, which is newer.", "8.9.6", "8.6.0",
       OlderSide::loaded},
      {"RuntimeError: cuDNN version incompatibility: PyTorch was compiled  against (8, 5, 0) but found runtime version (8, 4, 1).", "8.5.0",
       "8.4.1", OlderSide::loaded},
      {"RuntimeError: cuDNN version incompatibility: PyTorch was compiled against (9, 13, 0) but found runtime version (9, 10, 2).", "9.13.0",
       "9.10.2", OlderSide::loaded},
      {"RuntimeError: cuDNN version mismatch: PyTorch was compiled against 7102 but linked against 7600", "7.1.2", "7.6.0", OlderSide::built},
      {"RuntimeError: cuDNN version incompatibility: PyTorch was compiled against 7401 but linked against 7301", "7.4.1", "7.3.1",
       OlderSide::loaded},
      {"RuntimeError: [enforce fail at common_cudnn.h:108] version_match || backwards_compatible_7 || patch_compatible. cuDNN compiled (7102) "
       "and runtime (7005) versions mismatch",
       "7.1.2", "7.0.5", OlderSide::loaded},
      {"[TRT] TensorRT was linked against cuDNN 8.9.0 but loaded cuDNN 8.8.0", "8.9.0", "8.8.0", OlderSide::loaded},
      {"[07/01/2022-17:03:23] [W] [TRT] TensorRT was linked against cuDNN 8.1.0 but loaded cuDNN 8.0.5", "8.1.0", "8.0.5", OlderSide::loaded},
      {"WARNING: TensorRT was linked against cuDNN 7.6.3 but loaded cuDNN 7.4.1", "7.6.3", "7.4.1", OlderSide::loaded},
      {"W0608 17:24:55.806937 14489 device_context.h:360] WARNING: device: 0. The installed Paddle is compiled with CUDNN 7.6, but CUDNN "
       "version in your machine is 7.4, which may cause serious incompatible bug.",
       "7.6", "7.4", OlderSide::loaded},
      {"The installed Paddle is compiled with CUDNN 8.4, but CUDNN version in your machine is 8.3", "8.4", "8.3", OlderSide::loaded},
      {"Loaded runtime CuDNN library: 8.0.5 but source was compiled with: 8.1.0.", "8.1.0", "8.0.5", OlderSide::loaded},
      {"Loaded runtime CuDNN library: 7.5.0 but source was compiled with: 7.6.5. CuDNN library major and minor version needs to match", "7.6.5",
       "7.5.0", OlderSide::loaded},
      {"found cuDNN 8.9.7, but this build requires at least cuDNN 9.1.0", "9.1.0", "8.9.7", OlderSide::loaded},
      {"cuDNN expected 9.3.0, got 9.1.0", "9.3.0", "9.1.0", OlderSide::loaded},
      {"Loaded runtime CuDNN library: 8.9.7 but source was compiled with: 8.9.7.", "8.9.7", "8.9.7", OlderSide::same},
      {"Found cuDNN version 90100, but JAX was built against version 90300", "9.3.0", "9.1.0", OlderSide::loaded},
  };
  for (const auto& w : table) {
    INFO(w.line);
    const auto v = version_statement_in(w.line);
    REQUIRE(v);
    CHECK(v->product == VersionProduct::cudnn);
    CHECK(v->built.text() == w.built);
    CHECK(v->loaded.text() == w.loaded);
    CHECK(v->older == w.older);
    CHECK_FALSE(v->rule.empty());
  }
}

TEST_CASE("the driver's 'too old (found version N)' is the CUDA version the driver supports", "[version_statement]") {
  const auto v = version_statement_in("RuntimeError: The NVIDIA driver on your system is too old (found version 11040). Please update your GPU driver");
  REQUIRE(v);
  CHECK(v->product == VersionProduct::driver);
  CHECK(v->loaded.text() == "11.4");
  CHECK(v->older == OlderSide::loaded);
  CHECK(v->said().find("CUDA up to 11.4") != std::string::npos);
}

TEST_CASE("lines with one version or none are not version statements", "[version_statement]") {
  CHECK_FALSE(version_statement_in("Torch cuDNN version: 91300"));
  CHECK_FALSE(version_statement_in("I tensorflow/stream_executor/cuda/cuda_dnn.cc:359] Loaded cuDNN version 8301"));
  CHECK_FALSE(version_statement_in("W0608 17:24:46.596577 14489 device_context.cc:422] device: 0, cuDNN Version: 7.4."));
  CHECK_FALSE(version_statement_in("epoch 3 loss 0.25 compiled in 12.5 s"));
  CHECK(parse_cudnn_version("(8, 5, 0)")->text() == "8.5.0");
  CHECK(parse_cudnn_version("90100")->text() == "9.1.0");
  CHECK(parse_cuda_version("12080")->text() == "12.8");
}
