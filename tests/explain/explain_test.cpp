#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "cudnnctl/explain/explain.hpp"

using namespace cudnnctl;

namespace {
std::string read_file(const std::string& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
std::string first_id(std::string_view line) {
  const auto m = explain_line(line, 1);
  return m.empty() ? std::string() : std::string(m.front().signature->id);
}
} // namespace

TEST_CASE("explain names the messages users paste, with cause and fix", "[explain]") {
  CHECK(first_id("Unable to register cuDNN factory: Attempting to register factory for plugin cuDNN when one has already been registered") ==
        "loader.factory-registered");
  CHECK(signature("loader.factory-registered").harmless);
  CHECK(first_id("Could not load library cudnn_cnn_infer64_8.dll. Error code 126") == "loader.cudnn-major");
  CHECK(first_id("Could not load library cudnn_cnn64_9.dll. Error code 126") == "files.complete");
  // an undefined cudnn* symbol in a cuDNN sub-library: sub-libraries of two releases are mixed
  CHECK(first_id("OSError: /usr/lib/libcudnn_graph.so.9: undefined symbol: cudnnGetLibConfig") == "files.versions.mixed");
  CHECK(first_id("Invalid handle. Cannot load symbol cudnnCreate") == "loader.load.aborted");
  CHECK(first_id("CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH") == "files.versions.mixed");
  CHECK(first_id("Loaded runtime CuDNN library: 9.1.0 but source was compiled with: 9.8.0.") == "framework.cudnn-older");
  CHECK(first_id("LoadLibrary failed with error 126 \"\" when trying to load \"onnxruntime_providers_cuda.dll\"") == "loader.onnxruntime");
  CHECK(first_id("CUDA error: system has unsupported display driver / cuda driver combination") == "driver.compat-shadows");
  CHECK(first_id("/sbin/ldconfig.real: /usr/lib/wsl/lib/libcuda.so.1 is not a symbolic link") == "driver.wsl.copies");
  CHECK(first_id("Could not load library libcudnn_cnn_infer.so.8. Error: libnvrtc.so: cannot open shared object file: No such file") ==
        "loader.runtime_deps");
  CHECK(first_id("epoch 3 loss 0.25") == "");
  CHECK(first_id("") == "");
}

TEST_CASE("explain reads what the line says: versions compared, the library or symbol named", "[explain]") {
  auto m = explain_line("Loaded runtime CuDNN library: 9.1.0 but source was compiled with: 9.8.0.", 7);
  REQUIRE(m.size() == 1);
  CHECK(m[0].line == 7);
  CHECK(m[0].detail.find("9.1.0, older than the 9.8.0") != std::string::npos);
  m = explain_line("OSError: libcublasLt.so.12: cannot open shared object file: No such file or directory", 1);
  REQUIRE(m.size() == 1);
  CHECK(m[0].signature->id == "loader.cuda-runtime");
  CHECK(m[0].detail == "cuBLASLt of CUDA 12 cannot be found (libcublasLt.so.12); it comes with the CUDA 12 toolkit or the nvidia-*-cu12 wheels, not with cuDNN");
  m = explain_line("libcudnn_graph.so.9: undefined symbol: cudnnGetLibConfig, version libcudnn_graph.so.9", 1);
  REQUIRE(m.size() == 1);
  CHECK(m[0].detail.find("needs cudnnGetLibConfig") != std::string::npos);
  CHECK(!m[0].also.empty());
}

TEST_CASE("explain keeps line numbers across a log and cuts long lines", "[explain]") {
  const auto text = read_file(CUDNNCTL_SOURCE_DIR "/tests/doctor/logs/mixed.log");
  const auto m = explain_text(text);
  std::vector<std::size_t> lines;
  for (const auto& x : m) lines.push_back(x.line);
  CHECK(lines == std::vector<std::size_t>{2, 3, 5, 6, 8, 9, 10, 11});
  const std::string long_line = std::string(100000, 'x') + " CUDNN_STATUS_NOT_INITIALIZED";
  CHECK(explain_text(long_line).empty());  // beyond the 4096 characters read per line
  CHECK(explain_text(std::string(4000, 'x') + " CUDNN_STATUS_NOT_INITIALIZED").at(0).text.size() == 500);
  CHECK(explain_text("a\r\nCUDNN_STATUS_NOT_INITIALIZED\r\n").at(0).line == 2);
}

// Every message the troubleshooting page shows (the backticked parts of each symptom) is recognised by
// explain as that signature or as one of the causes it lists: the table and explain stay in step.
TEST_CASE("explain recognises every message of the signature table as its own signature", "[explain]") {
  const std::set<std::string> not_messages{"torch.backends.cudnn.version()", "Aborted (core dumped)", "cudnnCreate"};
  static const std::regex ticked("`([^`]+)`");
  std::size_t checked = 0;
  for (const auto& s : signatures()) {
    const std::string symptom(s.symptom);
    for (auto it = std::sregex_iterator(symptom.begin(), symptom.end(), ticked); it != std::sregex_iterator(); ++it) {
      const auto message = (*it)[1].str();
      if (not_messages.contains(message)) continue;
      INFO(s.id << ": " << message);
      const auto m = explain_line(message, 1);
      REQUIRE(m.size() == 1);
      std::set<std::string_view> ids{m[0].signature->id};
      for (const auto* a : m[0].also) ids.insert(a->id);
      CHECK(ids.contains(s.id));
      ++checked;
    }
  }
  CHECK(checked >= 30);
}

TEST_CASE("every pattern names signatures of the table", "[explain]") {
  std::set<std::string_view> ids;
  for (const auto& s : signatures()) ids.insert(s.id);
  for (const auto& p : log_patterns())
    for (auto id : p.signatures)
      if (!id.empty()) CHECK(ids.contains(id));
}

namespace {
ExplainMatch only(std::string_view line) {
  auto m = explain_line(line, 1);
  REQUIRE(m.size() == 1);
  return m[0];
}
bool also_has(const ExplainMatch& m, std::string_view id) {
  for (const auto* s : m.also)
    if (s->id == id) return true;
  return false;
}
} // namespace

TEST_CASE("explain: no engine or execution plan is a workload limit first, an install fault second", "[explain]") {
  auto m = only("RuntimeError: GET was unable to find an engine to execute this computation");
  CHECK(m.signature->id == "workload.engine-not-found");
  CHECK(m.detail.find("heuristics (GET)") != std::string::npos);
  CHECK(also_has(m, "framework.cudnn-older"));
  CHECK(also_has(m, "device.arch.too-new-gpu"));
  CHECK(only("RuntimeError: FIND was unable to find an engine to execute this computation").detail.find("(FIND)") != std::string::npos);
  m = only("RuntimeError: cuDNN Frontend error: [cudnn_frontend] Error: No execution plans support the graph.");
  CHECK(m.signature->id == "workload.engine-not-found");
  CHECK(m.detail.find("cudnn-frontend") != std::string::npos);
  CHECK_FALSE(signature("workload.engine-not-found").harmless);
  CHECK(signature("workload.engine-not-found").fix.find("CUDNN_LOGERR_DBG=1") != std::string::npos);
}

TEST_CASE("explain: CUDA runtime libraries are named as such, with their CUDA major, on both platforms", "[explain]") {
  auto m = only("RuntimeError: Library cublas64_12.dll is not found or cannot be loaded");
  CHECK(m.signature->id == "loader.cuda-runtime");
  CHECK(m.detail.starts_with("cuBLAS of CUDA 12 cannot be found (cublas64_12.dll)"));
  m = only("Could not locate cublasLt64_12.dll. Please make sure it is in your library path!");
  CHECK(m.signature->id == "loader.cuda-runtime");
  CHECK(m.detail.starts_with("cuBLASLt of CUDA 12"));
  m = only("ImportError: libcudart.so.13: cannot open shared object file: No such file or directory");
  CHECK(m.signature->id == "loader.cuda-runtime");
  CHECK(m.detail.starts_with("cudart (the CUDA runtime) of CUDA 13 cannot be found (libcudart.so.13)"));
  m = only("Could not load library nvrtc64_120_0.dll: not found");
  CHECK(m.signature->id == "loader.cuda-runtime");
  CHECK(m.detail.starts_with("NVRTC of CUDA 12"));
  CHECK(only("Could not locate cublas64_10.dll.").detail.find("wheels") == std::string::npos);  // no pip wheels before CUDA 11
  // cuDNN opening NVRTC itself stays cuDNN's runtime dependency.
  CHECK(first_id("Could not load library libcudnn_cnn_infer.so.8. Error: libnvrtc.so: cannot open shared object file") == "loader.runtime_deps");
}

TEST_CASE("explain: a cuDNN of another major is named with the program's major, never as a missing sub-library", "[explain]") {
  auto m = only("Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared object file: No such file or directory");
  CHECK(m.signature->id == "loader.cudnn-major");
  CHECK(m.detail.find("built for cuDNN 8: it asks for libcudnn_ops_infer.so.8") != std::string::npos);
  CHECK(m.detail.find("cuDNN 9 has no such file") != std::string::npos);
  m = only("Could not locate cudnn_ops_infer64_8.dll. Please make sure it is in your library path!");
  CHECK(m.signature->id == "loader.cudnn-major");
  CHECK(m.detail.find("cudnn_ops_infer64_8.dll") != std::string::npos);
  m = only("ImportError: libcudnn.so.9: cannot open shared object file: No such file or directory");
  CHECK(m.signature->id == "loader.cudnn-major");
  CHECK(m.detail.rfind("the program was built for cuDNN 9: it asks for libcudnn.so.9", 0) == 0);
  CHECK(signature("loader.cudnn-major").fix.find("nvidia-cudnn-cu12<9") != std::string::npos);
  CHECK(signature("loader.cudnn-major").title.find("sub-library") == std::string::npos);
  // A cuDNN 9 sub-library missing beside its main library is a partial install; error 127 is a version mix.
  CHECK(first_id("Could not locate cudnn_ops64_9.dll. Please make sure it is in your library path!") == "files.complete");
  CHECK(first_id("Could not load library cudnn_cnn_infer64_8.dll. Error code 127") == "files.versions.mixed");
}

TEST_CASE("explain: Windows error 193 is a bad image (wrong architecture, damaged or emptied file)", "[explain]") {
  auto m = only("OSError: [WinError 193] %1 is not a valid Win32 application. Error loading \"C:\\venv\\Lib\\site-packages\\torch\\lib\\cublas64_12.dll\" or one of its dependencies.");
  CHECK(m.signature->id == "files.dlls.bad-image");
  CHECK(m.detail == "the DLL named: cublas64_12.dll");
  CHECK(also_has(m, "files.receipt"));
  CHECK(first_id("Could not load library cudnn_ops64_9.dll. Error code 193") == "files.dlls.bad-image");
  CHECK(first_id("OSError: [WinError 193] %1 \xe4\xb8\x8d\xe6\x98\xaf\xe6\x9c\x89\xe6\x95\x88\xe7\x9a\x84 Win32 \xe5\xba\x94\xe7\x94\xa8\xe7\xa8\x8b\xe5\xba\x8f\xe3\x80\x82") ==
        "files.dlls.bad-image");
  CHECK(signature("files.dlls.bad-image").cause.find("0-byte") != std::string::npos);
}

TEST_CASE("explain: framework wrappers carry the cuDNN fact inside", "[explain]") {
  auto m = only("E1027 cuda_dnn.cc:456] Loaded runtime CuDNN library: 9.10.1 but source was compiled with: 9.13.1.  CuDNN library needs to have matching major version");
  CHECK(m.signature->id == "framework.cudnn-older");
  CHECK(m.detail.rfind("the cuDNN loaded is 9.10.1, older than the 9.13.1 the program was built with", 0) == 0);
  CHECK(also_has(m, "files.search_path"));
  m = only("Loaded runtime CuDNN library: 8.9.7 but source was compiled with: 9.1.0.");
  CHECK(m.detail.find("the majors differ: install cuDNN 9 beside the 8") != std::string::npos);
  m = only("CUDA backend failed to initialize: Found cuDNN version 8600, but JAX was built against version 8906, which is newer.");
  CHECK(m.signature->id == "framework.cudnn-older");
  CHECK(m.detail.rfind("the cuDNN loaded is 8.6.0, older than the 8.9.6 the program was built with", 0) == 0);
  m = only("RuntimeError: cuDNN version incompatibility: PyTorch was compiled  against (9, 13, 0) but found runtime version (9, 10, 2).");
  CHECK(m.detail.rfind("the cuDNN loaded is 9.10.2, older than the 9.13.0 the program was built with", 0) == 0);
  CHECK(first_id("Outdated cuDNN installation found.") == "framework.cudnn-older");
  CHECK(first_id("CUDA backend failed to initialize: Unable to load cuDNN. Is it installed?") == "framework.cudnn-not-found");
  m = only("RuntimeError: (PreconditionNotMet) The third-party dynamic library (cudnn64_8.dll) that Paddle depends on is not configured correctly. (error code is 126)");
  CHECK(m.signature->id == "framework.paddle-dynload");
  CHECK(m.detail == "the program was built for cuDNN 8: it asks for cudnn64_8.dll");
  m = only("W1209 dynamic_loader.cc:314] The third-party dynamic library (libcublas.so) that Paddle depends on is not configured correctly. (error code is libcublas.so: cannot open shared object file: No such file or directory)");
  CHECK(m.signature->id == "framework.paddle-dynload");
  CHECK(m.detail == "the loader said: libcublas.so: cannot open shared object file: No such file or directory");
  m = only("[ONNXRuntimeError] : 1 : FAIL : Failed to load library libonnxruntime_providers_cuda.so with error: libcudnn.so.8: cannot open shared object file: No such file or directory");
  CHECK(m.signature->id == "loader.onnxruntime");
  CHECK(m.detail == "the program was built for cuDNN 8: it asks for libcudnn.so.8");
  m = only("Failed to create CUDAExecutionProvider. Require cuDNN 9.* and CUDA 12.*, and the latest MSVC runtime.");
  CHECK(m.signature->id == "loader.onnxruntime");
  CHECK(m.detail == "this onnxruntime-gpu build needs cuDNN 9.* and CUDA 12.*");
}

TEST_CASE("explain: pip and uv pins of nvidia wheels name the packages that disagree", "[explain]") {
  auto m = only("torch 2.6.0 requires nvidia-cudnn-cu12==9.1.0.70; platform_system == \"Linux\" and platform_machine == \"x86_64\", but you have nvidia-cudnn-cu12 9.8.0.87 which is incompatible.");
  CHECK(m.signature->id == "packages.pip-pin");
  CHECK(m.detail == "torch 2.6.0 pins nvidia-cudnn-cu12==9.1.0.70, but 9.8.0.87 is installed");
  m = only("ERROR: No matching distribution found for nvidia-cudnn-cu12==8.9.2.26");
  CHECK(m.detail == "the pin that cannot be met: nvidia-cudnn-cu12==8.9.2.26");
  CHECK(first_id("  ╰─▶ Because torch>=2.2.0,<=2.3.1 depends on nvidia-cudnn-cu12{platform_machine") == "packages.pip-pin");
  // Conflicts between other packages are not a cuDNN set-up problem.
  CHECK(first_id("torchvision 0.23.0 requires torch==2.8.0, but you have torch 2.7.1 which is incompatible.") == "");
  CHECK(signature("packages.pip-pin").fix.find("pip install --force-reinstall") != std::string::npos);
}

TEST_CASE("explain: glibc and libstdc++ symbol versions name the floor and who needs it", "[explain]") {
  auto m = only("ImportError: /usr/lib/x86_64-linux-gnu/libstdc++.so.6: version `GLIBCXX_3.4.29' not found (required by /opt/venv/lib/libcudnn_graph.so.9)");
  CHECK(m.signature->id == "loader.glibc");
  CHECK(m.detail == "needs GLIBCXX_3.4.29 (libstdc++) but this system's is older; required by /opt/venv/lib/libcudnn_graph.so.9");
  m = only("/lib64/libc.so.6: version `GLIBC_2.28' not found");
  CHECK(m.signature->id == "loader.glibc");
  CHECK(m.detail == "needs GLIBC_2.28 (glibc) but this system's is older");
  CHECK(signature("loader.glibc").fix.find("ldd --version") != std::string::npos);
}

TEST_CASE("explain: PyTorch's plan warning is harmless, and everyday errors are not set-up problems", "[explain]") {
  auto m = only("UserWarning: Plan failed with a cudnnException: CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR: cudnnFinalize Descriptor Failed cudnn_status: CUDNN_STATUS_NOT_SUPPORTED");
  CHECK(m.signature->id == "workload.plan-warning");
  CHECK(m.signature->harmless);
  CHECK(first_id("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.22 GiB.") == "");
  CHECK(first_id("ValueError: Expected 2D Tensor, got 1D.") == "");
  CHECK(first_id("Torch cuDNN version: 91300") == "");
}

TEST_CASE("explain: a cuDNN of another major names the installed major when the log shows it", "[explain]") {
  // onnxruntime-genai#694: the program wants cuDNN 8; the user's `find` listing shows cuDNN 9 in the system.
  const auto m = explain_text(
      "ImportError: libcudnn.so.8: cannot open shared object file: No such file or directory\n"
      "$ sudo find / -name \"*libcudnn.so*\"\n"
      "/usr/lib/x86_64-linux-gnu/libcudnn.so.9\n"
      "/usr/lib/x86_64-linux-gnu/libcudnn.so.9.2.1\n");
  REQUIRE(m.size() == 1);
  CHECK(m[0].signature->id == "loader.cudnn-major");
  CHECK(m[0].detail ==
        "the program was built for cuDNN 8: it asks for libcudnn.so.8 (cuDNN 8's main library); the log names cuDNN 9 on line 3: the major installed, so install cuDNN 8 "
        "beside it");
  // A version the framework prints counts too (packed 91300 = 9.13.0); without any, the detail stays the program's major.
  CHECK(explain_text("Torch cuDNN version: 91300\nCould not locate cudnn_ops_infer64_8.dll.\n").at(0).detail.find("cuDNN 9 on line 1") !=
        std::string::npos);
  CHECK(explain_text("Could not locate cudnn_ops_infer64_8.dll.\n").at(0).detail.find("the log names") == std::string::npos);
}

namespace {
std::string first_named(std::string_view line) {
  const auto m = explain_line(line, 1);
  return m.empty() ? std::string() : std::string(m[0].signature->id);
}
} // namespace

// CUDA's own errors, by name, text or number, name what they say about the set-up (issue 54, item 2).
TEST_CASE("explain: CUDA's errors are decoded by the CUDA error tables", "[explain]") {
  struct Row {
    const char* line;
    const char* id;  // "" : names nothing
  };
  const Row table[] = {
      {"RuntimeError: Unexpected error from cudaGetDeviceCount(). Error 803: system has unsupported display driver / cuda driver combination",
       "driver.compat-shadows"},
      {"ERROR 03-26 05:25:01 engine.py:389] Unexpected error from cudaGetDeviceCount(). Error 804: forward compatibility was attempted on non "
       "supported HW",
       "driver.version"},
      {"amrex::Abort::3::CUDA error 34 in file AMReX_GpuDevice.cpp line 164: CUDA driver is a stub library !!!", "driver.stub"},
      {"cupy.cuda.runtime.CUDARuntimeError: cudaErrorSystemNotReady: system not yet initialized", "driver.fabric-manager"},
      {"RuntimeError: CUDA error: unspecified launch failure", "workload.kernel-fault"},
      {"RuntimeError: CUDA error: invalid device ordinal", ""},
      {"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.22 GiB.", ""},
      {"CUDA error at kernel.cu:42 code=2(cudaErrorMemoryAllocation) with CUDNN_STATUS_ALLOC_FAILED", "workload.out-of-memory"},
      {"gml_cuda_init: failed to initialize CUDA: unknown error", "driver.init"},
  };
  for (const auto& r : table) {
    INFO(r.line);
    CHECK(first_named(r.line) == r.id);
  }
}

// Numbers read rather than remembered (item 4): the GPU's capability against the build's, the driver against ptxas.
TEST_CASE("explain: capability and version numbers decide", "[explain]") {
  CHECK(first_named("GeForce RTX 3080 with CUDA capability sm_86 is not compatible with the current PyTorch installation.") ==
        "device.arch.program-build");
  CHECK(first_named("TensorFlow was not built with CUDA kernel binaries compatible with compute capability 8.9. CUDA kernels will be "
                    "jit-compiled from PTX, which could take 30 minutes or longer.") == "");
  const auto m = explain_line("W external/xla/xla/service/gpu/nvptx_compiler.cc:760] The NVIDIA driver's CUDA version is 12.0 which is "
                              "older than the PTX compiler version (12.6.85). Because the driver is older than the PTX compiler version, XLA "
                              "is disabling parallel compilation",
                              1);
  REQUIRE(m.size() == 1);
  CHECK(m[0].signature->id == "driver.version");
  CHECK(m[0].detail.find("12.6") != std::string::npos);
}

TEST_CASE("explain: look-alikes whose wording names their cause", "[explain]") {
  CHECK(first_named("/pytorch/aten/src/ATen/native/cuda/Loss.cu:250: nll_loss_forward_reduce_cuda_kernel_2d: block: [0,0,0], thread: [5,0,0] "
                    "Assertion `t >= 0 && t < n_classes` failed.") == "workload.kernel-fault");
  CHECK(first_named("RuntimeError: CUDA error: CUBLAS_STATUS_NOT_INITIALIZED when calling `cublasCreate(handle)`") == "workload.out-of-memory");
  CHECK(first_named("RuntimeError: cuDNN error: CUDNN_STATUS_NOT_SUPPORTED. This error may appear if you passed in a non-contiguous input.") ==
        "workload.bad-param");
  CHECK(first_named("[TRT] [W] CUDA lazy loading is not enabled. Enabling it can significantly reduce device memory usage") == "");
  const auto b = explain_line("RuntimeError: nvrtc: error: failed to open libnvrtc-builtins.so.11.1.", 1);
  REQUIRE(b.size() == 1);
  CHECK(b[0].signature->id == "loader.cuda-runtime");
  CHECK(b[0].detail.find("CUDA 11.1") != std::string::npos);
  const auto l = explain_line("Unable to load any of {libcudnn_ops.so.9.1.0, libcudnn_ops.so.9.1, libcudnn_ops.so.9, libcudnn_ops.so}", 1);
  REQUIRE(l.size() == 1);
  CHECK(l[0].detail.find("cuDNN 9 only") != std::string::npos);
}
