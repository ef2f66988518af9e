#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>

#include "cudnnctl/explain/cuda_errors.hpp"
#include "cudnnctl/explain/signatures.hpp"
#include "../skip.hpp"

using namespace cudnnctl;

namespace {

std::string cuda_header_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// name -> number of one enum body of a CUDA header (the enumerators `name = number`).
std::map<std::string, int> enum_of(const std::string& header, const std::string& opening) {
  const auto begin = header.find(opening);
  REQUIRE(begin != std::string::npos);
  const auto end = header.find('}', begin);
  const std::string body = header.substr(begin, end - begin);
  static const std::regex entry(R"(\b(cudaError[A-Za-z0-9]+|cudaSuccess|CUDA_SUCCESS|CUDA_ERROR_[A-Z0-9_]+)\s*=\s*([0-9]+))");
  std::map<std::string, int> out;
  for (std::sregex_iterator it(body.begin(), body.end(), entry), stop; it != stop; ++it) out[(*it)[1].str()] = std::stoi((*it)[2].str());
  return out;
}

struct Said {
  const char* line;
  const char* name;  // the error the line is decoded to ("" : none)
  int number;        // the number the line gives (-1: none)
  bool old_numbering;
};

} // namespace

// The image's CUDA 13 headers are NVIDIA's real ones: every enumerator there has its row with that number.
TEST_CASE("every cudaError_t and CUresult of this image's CUDA 13 headers has a row with its number", "[cuda_errors]") {
  const std::string runtime_h = "/usr/local/cuda/include/driver_types.h", driver_h = "/usr/local/cuda/include/cuda.h";
  if (!std::filesystem::exists(runtime_h) || !std::filesystem::exists(driver_h)) CUDNNCTL_SKIP("no CUDA headers at /usr/local/cuda/include");
  const auto runtime = enum_of(cuda_header_text(runtime_h), "enum __device_builtin__ cudaError\n");
  const auto driver = enum_of(cuda_header_text(driver_h), "typedef enum cudaError_enum");
  CHECK(runtime.size() > 100);
  CHECK(driver.size() > 80);
  for (const auto& [name, number] : runtime) {
    if (name == "cudaSuccess") continue;
    INFO(name);
    const auto* e = find_cuda_error(name);
    REQUIRE(e);
    CHECK(e->api == CudaApi::runtime);
    CHECK(e->codes[2] == number);
    CHECK(cuda_error_by_code(CudaApi::runtime, number) == e);
  }
  for (const auto& [name, number] : driver) {
    if (name == "CUDA_SUCCESS") continue;
    INFO(name);
    const auto* e = find_cuda_error(name);
    REQUIRE(e);
    CHECK(e->api == CudaApi::driver);
    CHECK(e->codes[2] == number);
  }
}

TEST_CASE("the CUDA error table gives the set-up meaning of the numbers that have one", "[cuda_errors]") {
  struct Row {
    CudaApi api;
    int code;
    const char* name;
    CudaErrorKind kind;
    const char* signature;
  };
  const Row table[] = {
      {CudaApi::runtime, 35, "cudaErrorInsufficientDriver", CudaErrorKind::setup, "driver.version"},
      {CudaApi::runtime, 34, "cudaErrorStubLibrary", CudaErrorKind::setup, "driver.stub"},
      {CudaApi::driver, 34, "CUDA_ERROR_STUB_LIBRARY", CudaErrorKind::setup, "driver.stub"},
      {CudaApi::runtime, 100, "cudaErrorNoDevice", CudaErrorKind::setup, "driver.no-device"},
      {CudaApi::runtime, 209, "cudaErrorNoKernelImageForDevice", CudaErrorKind::setup, "device.arch.program-build"},
      {CudaApi::driver, 209, "CUDA_ERROR_NO_BINARY_FOR_GPU", CudaErrorKind::setup, "device.arch.program-build"},
      {CudaApi::runtime, 222, "cudaErrorUnsupportedPtxVersion", CudaErrorKind::setup, "driver.version"},
      {CudaApi::runtime, 802, "cudaErrorSystemNotReady", CudaErrorKind::setup, "driver.fabric-manager"},
      {CudaApi::runtime, 803, "cudaErrorSystemDriverMismatch", CudaErrorKind::setup, "driver.compat-shadows"},
      {CudaApi::runtime, 804, "cudaErrorCompatNotSupportedOnDevice", CudaErrorKind::setup, "driver.version"},
      {CudaApi::runtime, 805, "cudaErrorMpsConnectionFailed", CudaErrorKind::setup, "driver.init"},
      {CudaApi::runtime, 999, "cudaErrorUnknown", CudaErrorKind::setup, "driver.init"},
      {CudaApi::driver, 999, "CUDA_ERROR_UNKNOWN", CudaErrorKind::setup, "driver.init"},
      {CudaApi::runtime, 700, "cudaErrorIllegalAddress", CudaErrorKind::kernel, "workload.kernel-fault"},
      {CudaApi::runtime, 710, "cudaErrorAssert", CudaErrorKind::kernel, "workload.kernel-fault"},
      {CudaApi::runtime, 719, "cudaErrorLaunchFailure", CudaErrorKind::kernel, "workload.kernel-fault"},
      {CudaApi::runtime, 2, "cudaErrorMemoryAllocation", CudaErrorKind::memory, "workload.out-of-memory"},
      {CudaApi::runtime, 101, "cudaErrorInvalidDevice", CudaErrorKind::program, ""},
      {CudaApi::runtime, 801, "cudaErrorNotSupported", CudaErrorKind::unknown, ""},
  };
  for (const auto& r : table) {
    INFO(r.name);
    const auto* e = cuda_error_by_code(r.api, r.code);
    REQUIRE(e);
    CHECK(e->name == r.name);
    CHECK(e->kind == r.kind);
    CHECK(e->signature == r.signature);
    CHECK_FALSE(e->meaning.empty());
    if (!e->signature.empty()) CHECK(signature(e->signature).id == e->signature);  // the table names signatures that exist
  }
  CHECK(cuda_error_by_code(CudaApi::runtime, 38) == nullptr);  // CUDA 10.0's cudaErrorNoDevice: renumbered 100 in 10.1
  CHECK(cuda_error_by_code(CudaApi::runtime, 59) == nullptr);  // CUDA 10.0's cudaErrorAssert (710 since)
  CHECK(find_cuda_error("cudaerrornodevice") == find_cuda_error("cudaErrorNoDevice"));
  for (const auto& e : cuda_errors()) {
    INFO(e.name);
    if (e.kind == CudaErrorKind::setup) CHECK_FALSE(e.signature.empty());
    CHECK(e.code() >= 1);
  }
}

TEST_CASE("cuda_errors_in reads CUDA errors by name, text and number in the wordings programs use", "[cuda_errors]") {
  const Said table[] = {
      {"RuntimeError: Unexpected error from cudaGetDeviceCount(). Error 803: system has unsupported display driver / cuda driver combination",
       "cudaErrorSystemDriverMismatch", 803, false},
      {"ERROR 03-26 05:25:01 engine.py:389] ... Error 804: forward compatibility was attempted on non supported HW",
       "cudaErrorCompatNotSupportedOnDevice", -1, false},  // no CUDA named: the text decides, the number is not read
      {"ExternalError:  Cuda error(35), CUDA driver version is insufficient for CUDA runtime version.", "cudaErrorInsufficientDriver", 35, false},
      {"Check failed: cudaSuccess == cudaStat (0 vs. 35) Cuda Error: CUDA driver version is insufficient for CUDA runtime version",
       "cudaErrorInsufficientDriver", 35, false},
      {"Check failed: error == cudaSuccess (77 vs. 0)  an illegal memory access was encountered", "cudaErrorIllegalAddress", 77, true},
      {"RuntimeError: CUDA failure 77: an illegal memory access was encountered", "cudaErrorIllegalAddress", 77, true},
      {"Name: Check failed: err == cudaSuccess (209 vs. 0) : rand_generator_seed_kernel ErrStr:no kernel image is available for execution "
       "on the device",
       "cudaErrorNoKernelImageForDevice", 209, false},
      {"amrex::Abort::3::CUDA error 34 in file AMReX_GpuDevice.cpp line 164: CUDA driver is a stub library !!!", "cudaErrorStubLibrary", 34,
       false},
      {"`CUDA error 999: unknown error`", "cudaErrorUnknown", 999, false},
      {"THCudaCheck FAIL file=/pytorch/aten/src/THC/THCGeneral.cpp line=50 error=999 : unknown error", "cudaErrorUnknown", 999, false},
      {"RuntimeError: cuda runtime error (802) : system not yet initialized at /opt/conda/conda-bld/pytorch/work/aten/src/THC/THCGeneral.cpp:50",
       "cudaErrorSystemNotReady", 802, false},
      {"cupy.cuda.runtime.CUDARuntimeError: cudaErrorInsufficientDriver: CUDA driver version is insufficient for CUDA runtime version",
       "cudaErrorInsufficientDriver", -1, false},
      {"E tensorflow/stream_executor/cuda/cuda_driver.cc:314] failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected",
       "CUDA_ERROR_NO_DEVICE", -1, false},
      {"numba.cuda.cudadrv.driver.CudaAPIError: [209] Call to cuModuleLoadDataEx results in CUDA_ERROR_NO_BINARY_FOR_GPU",
       "CUDA_ERROR_NO_BINARY_FOR_GPU", 209, false},
      {"numba.cuda.cudadrv.driver.CudaAPIError: [999] Call to cuInit results in", "CUDA_ERROR_UNKNOWN", 999, false},
      {"cudaGetDeviceCount returned 100", "cudaErrorNoDevice", 100, false},
      {"RuntimeError: cuda runtime error (38) : no CUDA-capable device is detected at torch/csrc/cuda/Module.cpp:87", "cudaErrorNoDevice", 38,
       true},
      {"Error 38: bad value on line 4 of the config", "", -1, false},
      {"an unknown error happened while parsing the config", "", -1, false},
      {"Error 804: forward compatibility was attempted on non supported HW", "cudaErrorCompatNotSupportedOnDevice", -1, false},
      {"Epoch 3: loss 0.21, returned 35 batches", "", -1, false},
  };
  for (const auto& t : table) {
    INFO(t.line);
    const auto got = cuda_errors_in(t.line);
    if (std::string(t.name).empty()) {
      CHECK(got.empty());
      continue;
    }
    REQUIRE_FALSE(got.empty());
    CHECK(got.front().error->name == t.name);
    CHECK(got.front().number == t.number);
    CHECK(got.front().old_numbering == t.old_numbering);
  }
}

TEST_CASE("a broken CUDA error table is refused with what is wrong", "[cuda_errors]") {
  CHECK_FALSE(cuda_error_table_problem(R"({"schema": 1, "errors": []})"));
  CHECK(cuda_error_table_problem("not json"));
  CHECK(cuda_error_table_problem(R"({"schema": 2, "errors": []})"));
  const auto row = [](const char* extra) {
    return std::string(R"({"schema": 1, "errors": [{"name": "cudaErrorX", "api": "runtime", "codes": {"11": 1, "12": 1, "13": 1}, )") + extra +
           "}]}";
  };
  CHECK_FALSE(cuda_error_table_problem(row(R"("kind": "unknown", "meaning": "m")")));
  CHECK(cuda_error_table_problem(row(R"("kind": "setup", "meaning": "m")")).value().find("without a signature") != std::string::npos);
  CHECK(cuda_error_table_problem(row(R"("kind": "odd", "meaning": "m")")).value().find("kind") != std::string::npos);
  CHECK(cuda_error_table_problem(R"({"schema": 1, "errors": [{"name": "cudaErrorX", "api": "runtime", "codes": {"11": null, "12": null, "13": null}, "kind": "unknown", "meaning": "m"}]})"));
}
