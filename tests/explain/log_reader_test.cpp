#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "cudnnctl/explain/log_reader.hpp"

using namespace cudnnctl;

namespace {

std::vector<ExplainMatch> read_log(const std::vector<std::string>& lines) {
  LogReader reader;
  std::vector<ExplainMatch> out;
  for (std::size_t i = 0; i < lines.size(); ++i)
    for (auto& m : reader.feed(lines[i], i + 1)) out.push_back(std::move(m));
  for (auto& m : reader.finish()) out.push_back(std::move(m));
  return out;
}

} // namespace

TEST_CASE("the first error of a log is its root, the cuDNN and CUDA errors after it are collateral", "[log_reader]") {
  SECTION("an illegal address, then cuDNN's status") {
    const auto m = read_log({"RuntimeError: CUDA error: an illegal memory access was encountered",
                             "RuntimeError: cuDNN error: CUDNN_STATUS_EXECUTION_FAILED"});
    REQUIRE(m.size() == 2);
    CHECK(m[0].signature->id == "workload.kernel-fault");
    CHECK(m[0].folded_under == 0);
    CHECK(m[1].folded_under == 1);
  }
  SECTION("a device-side assertion, then cuBLAS and cuDNN") {
    const auto m = read_log({"/pytorch/aten/src/ATen/native/cuda/Loss.cu:250: nll_loss_forward_reduce_cuda_kernel_2d: block: [0,0,0], "
                             "thread: [5,0,0] Assertion `t >= 0 && t < n_classes` failed.",
                             "RuntimeError: cuDNN error: CUDNN_STATUS_MAPPING_ERROR"});
    REQUIRE(m.size() == 2);
    CHECK(m[0].signature->id == "workload.kernel-fault");
    CHECK(m[1].folded_under == 1);
  }
  SECTION("an out of memory is the root of the cuDNN error after it, and alone names nothing") {
    const auto m = read_log({"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.",
                             "RuntimeError: cuDNN error: CUDNN_STATUS_INTERNAL_ERROR"});
    REQUIRE(m.size() == 2);
    CHECK(m[0].signature->id == "workload.out-of-memory");
    CHECK(m[0].line == 1);
    CHECK(m[1].folded_under == 1);
    CHECK(read_log({"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.", "Epoch 3 done"}).empty());
  }
  SECTION("a missing library before the out of memory stays the first cause") {
    const auto m = read_log({"Could not load library libcudnn_cnn_infer.so.8. Error: libcudnn_cnn_infer.so.8: cannot open shared object file",
                             "RuntimeError: CUDA error: an illegal memory access was encountered"});
    REQUIRE(m.size() == 2);
    CHECK(m[0].folded_under == 0);
    CHECK(m[0].signature->layer == 3);
  }
}

TEST_CASE("a vague driver message takes the cause a following line names", "[log_reader]") {
  const auto m = read_log({"E tensorflow/stream_executor/cuda/cuda_driver.cc:314] failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable "
                           "device is detected",
                           "I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:156] kernel driver does not appear to be running on this host "
                           "(abc): /proc/driver/nvidia/version does not exist"});
  REQUIRE(m.size() == 1);
  CHECK(m[0].signature->id == "driver.none");
  CHECK(m[0].line == 2);
  CHECK(m[0].detail.find("line 1") != std::string::npos);
  const auto alone = read_log({"failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected", "a", "b", "c", "d"});
  REQUIRE(alone.size() == 1);
  CHECK(alone[0].signature->id == "driver.no-device");
}
