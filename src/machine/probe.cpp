#include "cudnnctl/machine/probe.hpp"

#include <algorithm>
#include <filesystem>
#include <ostream>
#include <regex>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cudnnctl/child/child_channel.hpp"
#include "cudnnctl/contract/cudnn_files.hpp"
#include "cudnnctl/base/log.hpp"
#include "cudnnctl/contract/layout.hpp"
#include "cudnnctl/gpu/abi.hpp"
#include "cudnnctl/gpu/status_names.hpp"
#include "cudnnctl/platform/dynlib.hpp"
#include "cudnnctl/platform/host.hpp"
#include "cudnnctl/base/utf8_path.hpp"

namespace cudnnctl {

namespace fs = std::filesystem;

std::vector<std::string> discover_sub_libraries(const std::string& dir, unsigned major, Os os) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(path_from_utf8(dir), ec)) names.push_back(utf8_of(e.path().filename()));
  return cudnn_sub_library_files(names, major, os);  // graph and ops first: the others need them
}

namespace {

using Size0 = std::size_t (*)();
using Status0 = int (*)();
using CreateFn = int (*)(void**);
using DestroyFn = int (*)(void*);
using LastErrorFn = void (*)(char*, std::size_t);
using CuInit = int (*)(unsigned);
using CuIntOut = int (*)(int*);
using CuDeviceGet = int (*)(int*, int);
using CuDeviceGetName = int (*)(char*, int, int);
using CuDeviceGetAttribute = int (*)(int*, int, int);

template <class F> F sym(void* lib, const char* name) { return reinterpret_cast<F>(platform::find_symbol(lib, name)); }

// Every sub-library by full path (a "load" step each), then the main library: its handle, or nothing
// when it does not load.
std::optional<void*> load_cudnn(const ProbeRequest& req, ChildChannel& out) {
  log::Phase phase("probe: load the cuDNN libraries");
  const auto os = platform::detect_host().os;
  for (const auto& sub : discover_sub_libraries(req.lib_dir, req.major, os)) {
    auto h = platform::load_library(utf8_of(path_from_utf8(req.lib_dir) / sub));
    out.emit("load", {{"file", sub}, {"loaded", h.has_value()}, {"error", h ? "" : h.error().message}});
  }
  const auto main_file = library_file_name(os, "cudnn", req.major);
  auto main = platform::load_library(utf8_of(path_from_utf8(req.lib_dir) / main_file));
  out.emit("load", {{"file", main_file}, {"loaded", main.has_value()}, {"error", main ? "" : main.error().message}, {"main", true}});
  if (!main) return std::nullopt;
  return *main;
}

// the version functions, then each sub-library's version check; the first call loads the
// sub-libraries by name, so a missing one aborts the process here
void report_versions(void* main, unsigned major, ChildChannel& out) {
  nlohmann::json v = nlohmann::json::object();
  if (auto f = sym<Size0>(main, "cudnnGetVersion")) v["version"] = f();
  if (auto f = sym<Size0>(main, "cudnnGetCudartVersion")) v["cudart_version"] = f();
  if (auto f = sym<Size0>(main, "cudnnGetMaxDeviceVersion")) v["max_device_version"] = f();
  log::info("probe: cuDNN reports version {}", v.contains("version") ? v["version"].dump() : "(no cudnnGetVersion)");
  out.emit("version", v);
  nlohmann::json checks = nlohmann::json::object();
  const std::vector<std::string> names = major >= 9
                                             ? std::vector<std::string>{"Graph", "Ops", "Cnn", "Adv"}
                                             : std::vector<std::string>{"OpsInfer", "OpsTrain", "CnnInfer", "CnnTrain", "AdvInfer", "AdvTrain"};
  for (const auto& n : names)
    if (auto f = sym<Status0>(main, fmt::format("cudnn{}VersionCheck", n).c_str())) checks[n] = f();
  out.emit("version_checks", {{"checks", checks}});
}

// what the driver step reports (the "driver" line), and how many devices the driver counted
struct DriverProbe {
  nlohmann::json report;
  int device_count = 0;
};

// each device's name and compute capability; one the driver cannot describe is reported as an error,
// not with zeros
void describe_devices(void* drv, DriverProbe& p) {
  nlohmann::json devices = nlohmann::json::array();
  auto count = sym<CuIntOut>(drv, "cuDeviceGetCount");
  auto get = sym<CuDeviceGet>(drv, "cuDeviceGet");
  auto name = sym<CuDeviceGetName>(drv, "cuDeviceGetName");
  auto attr = sym<CuDeviceGetAttribute>(drv, "cuDeviceGetAttribute");
  if (count && get && name && attr && count(&p.device_count) == 0) {
    for (int i = 0; i < p.device_count; ++i) {
      int dev = 0;
      char buf[256] = {0};
      int major = 0, minor = 0;
      int r = get(&dev, i);
      if (r == 0) r = name(buf, sizeof buf, dev);
      if (r == 0) r = attr(&major, abi::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
      if (r == 0) r = attr(&minor, abi::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
      if (r != 0) {
        p.report["device_error"] = fmt::format("device {}: {}", i, cu_result_name(r));
        continue;
      }
      devices.push_back({{"name", buf}, {"cc_major", major}, {"cc_minor", minor}});
    }
  }
  p.report["devices"] = devices;
}

// the driver step: loaded, cuInit, the driver API version and, after a good cuInit, the devices
DriverProbe probe_driver(const Result<void*>& drv) {
  log::Phase phase("probe: the driver");
  DriverProbe p;
  p.report = {{"loaded", drv.has_value()}, {"error", drv ? "" : drv.error().message}};
  if (!drv) return p;
  if (auto init = sym<CuInit>(*drv, "cuInit")) p.report["cu_init"] = init(0);
  if (auto ver = sym<CuIntOut>(*drv, "cuDriverGetVersion")) {
    int value = 0;
    if (ver(&value) == 0) p.report["driver_api_version"] = value;
  }
  if (p.report.value("cu_init", -1) != 0) return p;
  describe_devices(*drv, p);
  log::info("probe: cuInit succeeded, {} device(s) counted", p.device_count);
  return p;
}

// cudnnCreate (and cudnnDestroy): its status and cuDNN's last error text
nlohmann::json create_handle(void* main) {
  nlohmann::json c = nlohmann::json::object();
  auto create = sym<CreateFn>(main, "cudnnCreate");
  if (!create) return c;
  void* handle = nullptr;
  c["status"] = create(&handle);
  if (auto last = sym<LastErrorFn>(main, "cudnnGetLastErrorString")) {
    char buf[1024] = {0};
    last(buf, sizeof buf);
    c["last_error"] = buf;
  }
  if (handle)
    if (auto destroy = sym<DestroyFn>(main, "cudnnDestroy")) destroy(handle);
  log::info("probe: cudnnCreate returned {}", c["status"].dump());
  return c;
}

} // namespace

int run_probe_child(const ProbeRequest& req, std::ostream& stream) {
  ChildChannel out(stream);
  if (req.driver_only) {
    out.emit("driver", probe_driver(platform::load_library(req.driver_library)).report);
    out.emit("done");
    return 0;
  }
  const auto main = load_cudnn(req, out);
  if (!main) {
    out.emit("done");
    return 0;
  }
  report_versions(*main, req.major, out);
  if (req.with_driver) {
    const auto drv = platform::load_library(req.driver_library);
    const auto d = probe_driver(drv);
    out.emit("driver", d.report);
    if (drv && d.report.value("cu_init", -1) == 0 && d.device_count > 0) out.emit("create", create_handle(*main));
  }
  out.emit("done");
  return 0;
}

Result<ProbeResult> run_probe(const std::string& self_exe, const ProbeRequest& req, int timeout_ms) {
  std::vector<std::string> argv{self_exe, "__probe", "--lib-dir", req.lib_dir, "--major", std::to_string(req.major),
                                "--driver-library", req.driver_library};
  if (!req.with_driver) argv.push_back("--no-driver");
  if (req.driver_only) argv.push_back("--driver-only");
  CUDNNCTL_TRY_ASSIGN(auto child, run_child_steps(argv, timeout_ms));
  ProbeResult r;
  r.signal = child.signal;
  r.timed_out = child.timed_out;
  r.child_stderr = child.err;
  for (const auto& j : child.steps) {
    const auto step = j.value("step", "");
    if (step == "load") {
      r.loads.push_back({j.value("file", ""), j.value("loaded", false), j.value("error", "")});
      log::debug("probe child: load library {}: {}", r.loads.back().file, r.loads.back().loaded ? "loaded" : "failed: " + r.loads.back().error);
    }
    else if (step == "version") {
      if (j.contains("version")) r.version = j["version"].get<std::uint64_t>();
      if (j.contains("cudart_version")) r.cudart_version = j["cudart_version"].get<std::uint64_t>();
      if (j.contains("max_device_version")) r.max_device_version = j["max_device_version"].get<std::uint64_t>();
    } else if (step == "version_checks") {
      for (const auto& [k, v] : j["checks"].items()) r.version_checks[k] = v.get<int>();
    } else if (step == "driver") {
      r.driver_loaded = j.value("loaded", false);
      r.driver_error = j.value("error", "");
      if (j.contains("cu_init")) r.cu_init = j["cu_init"].get<int>();
      if (j.contains("driver_api_version")) r.driver_api_version = j["driver_api_version"].get<int>();
      if (j.contains("devices"))
        for (const auto& d : j["devices"]) r.devices.push_back({d.value("name", ""), d.value("cc_major", 0), d.value("cc_minor", 0)});
    } else if (step == "create") {
      if (j.contains("status")) r.create_status = j["status"].get<int>();
      r.last_error = j.value("last_error", "");
    } else if (step == "done") {
      r.completed = true;
    }
  }
  return r;
}

} // namespace cudnnctl
