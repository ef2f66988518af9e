#include <catch2/catch.hpp>

#include "cudnnctl/explain/explain.hpp"
#include "cudnnctl/explain/verdict.hpp"

using namespace cudnnctl;

namespace {
std::string verdict_id(std::string_view line) {
  const auto v = verdict_from(decode_pieces(line));
  return v ? std::string(v->signature) : std::string();
}
std::string verdict_detail(std::string_view line) {
  const auto v = verdict_from(decode_pieces(line));
  return v ? v->detail : std::string();
}
} // namespace

// Messages written for this test in wordings no pattern knows: the answer follows from the pieces alone.
TEST_CASE("a verdict follows from the pieces of a message never seen before", "[verdict]") {
  CHECK(verdict_id("dlopen: cudnn_engines_precompiled64_9.dll could not be found") == "files.complete");
  CHECK(verdict_detail("dlopen: cudnn_engines_precompiled64_9.dll could not be found").find("beside cudnn64_9.dll") != std::string::npos);
  CHECK(verdict_id("fatal: libcudnn_adv.so.9: cannot open shared object file") == "files.complete");
  CHECK(verdict_id("loader: libcudnn_adv_infer.so.8 not found") == "loader.cudnn-major");
  CHECK(verdict_id("libcudnn_engines_runtime_compiled.so.9: undefined symbol: cudnnBackendFoo, version libcudnn_graph.so.9") ==
        "files.versions.mixed");
  CHECK(verdict_id("libtorch_cuda.so: undefined symbol: cudnnGetLibConfig, version libcudnn.so.9") == "framework.cudnn-older");
  CHECK(verdict_id("libcudnn_cnn.so.9: /opt/cuda-11/lib64/libnvrtc.so.11.2: undefined symbol: nvrtcGetCUBIN") == "loader.cuda-majors");
  CHECK(verdict_id("cannot load nvcuda.dll: The specified module could not be found") == "driver.none.windows");
  CHECK(verdict_id("[graph] cuDNN status CUDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED in conv") == "workload.out-of-memory");
  CHECK(verdict_id("mylib: cudnn call failed: CUDNN_STATUS_NOT_SUPPORTED_ARCH_MISMATCH") == "device.arch.dropped");
  CHECK(verdict_id("mylib: cudnn call failed: CUDNN_STATUS_INTERNAL_ERROR") == "workload.cudnn-status");
  CHECK(verdict_detail("mylib: cudnn call failed: CUDNN_STATUS_INTERNAL_ERROR").find("not known") != std::string::npos);
  CHECK(verdict_id("kernel.cu:12 launch failed: no kernel image is available for execution on the device (sm_120)") == "device.arch.program-build");
  CHECK(verdict_id("cuDNN error: no kernel image is available for execution on the device") == "device.arch.too-new-gpu");
  CHECK(verdict_id("my framework was built against cuDNN 9.8.0 but loaded cuDNN 8.9.7") == "framework.cudnn-older");
  CHECK(verdict_id("my framework was built against cuDNN 8.9.7 but loaded cuDNN 9.8.0") == "loader.cudnn-major");
  CHECK(verdict_id("epoch 3 loss 0.25") == "");
}

TEST_CASE("look-alikes are named as what they are, not as a set-up problem", "[verdict]") {
  CHECK(verdict_id("RuntimeError: cudnn RNN backward can only be called in training mode") == "workload.rnn-backward-eval");
  CHECK(verdict_id("RuntimeError: Unable to find a valid cuDNN algorithm to run convolution") == "workload.out-of-memory");
  CHECK(verdict_id("Could not create cudnn handle: CUDNN_STATUS_ALLOC_FAILED") == "workload.out-of-memory");
  CHECK(verdict_id("CUDNNError: CUDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH (code 2008)") == "workload.bad-param");
  CHECK(verdict_id("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.22 GiB.") == "");
}

TEST_CASE("a whole log folds to its first cause, the lines it explains under it", "[verdict]") {
  const auto m = explain_text(
      "I tensorflow/stream_executor/cuda/cuda_dnn.cc:359] Loaded cuDNN version 8301\n"
      "Could not locate cudnn_ops64_9.dll. Please make sure it is in your library path!\n"
      "Invalid handle. Cannot load symbol cudnnCreateTensorDescriptor\n"
      "Error: CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED; Reason: xDesc.finalize()\n"
      "RuntimeError: cudnn RNN backward can only be called in training mode\n");
  REQUIRE(m.size() == 4);
  CHECK(m[0].line == 2);
  CHECK(m[0].folded_under == 0);
  CHECK(m[1].folded_under == 2);
  CHECK(m[2].folded_under == 2);
  CHECK(m[3].folded_under == 0);  // another cause of its own
  CHECK(m[0].library == "cudnn_ops64_9.dll");
  CHECK(m[0].library_windows);
}
