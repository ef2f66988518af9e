// The graph API (backend descriptors) and the legacy bias/ReLU calls of the fake libcudnn.so.9, strict
// enough that a wrong call sequence fails: attributes must have the type cuDNN documents for them, a
// finalized descriptor takes no more attributes, a descriptor refers only to finalized ones, and each
// kind needs its required attributes before it finalizes. Every call is appended to FAKE_BACKEND_LOG
// when set ("create 17", "set 17 902", "finalize 17", "get 4 202", "execute", "destroy 17").
// Execution computes conv + bias + ReLU on host memory for small fp16 problems, reading the shapes
// and strides back from the descriptors.
//   FAKE_ENGINE_CONFIGS=N        how many engine configs the heuristics propose (default 2)
//   FAKE_HEUR_STATUS=S           heuristics finalize fails with S
//   FAKE_PLAN_STATUS=S           every execution plan fails to finalize with S
//   FAKE_PLAN_FAIL_FIRST=1       only the first engine config's plan fails (3000: NOT_SUPPORTED)
//   FAKE_EXECUTE_STATUS=S        cudnnBackendExecute returns S
//   FAKE_WRONG_FUSED=1           the fused output is off by 0.5
// As in cuDNN 9 the graph's and the plan's handle are optional (deprecated attributes); a device-properties
// descriptor (38) from a JSON text can stand for the GPU; execution needs a handle.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "cudnnctl/gpu/half.hpp"

#include "fake_env.hpp"

namespace {

void log_call(const std::string& line) {
  const char* path = std::getenv("FAKE_BACKEND_LOG");
  if (!path) return;
  if (std::FILE* f = std::fopen(path, "a")) {
    std::fprintf(f, "%s\n", line.c_str());
    std::fclose(f);
  }
}

constexpr int BAD_PARAM = 2000, NOT_SUPPORTED = 3000, NOT_INITIALIZED = 1001;

struct Desc {
  int type;
  std::map<int, std::vector<unsigned char>> attrs;
  std::map<int, std::int64_t> counts;
  bool finalized = false;
  Desc* graph = nullptr;  // engine configs: the graph the heuristics proposed them for
  int index = 0;          // engine configs: their rank
};
std::set<Desc*> g_live;

// the attribute type cuDNN documents for each attribute the workload sets
int expected_type(int attr) {
  switch (attr) {
    case 0: return 14;                           // POINTWISE_MODE
    case 1: case 100: case 901: return 1;        // math precision, compute type, data type: DATA_TYPE
    case 101: return 7;                          // CONV_MODE
    case 102: case 103: case 104: case 105: case 106: case 900: case 902: case 903: case 906: case 1000: return 3;  // INT64
    case 200: return 8;                          // HEUR_MODE
    case 204: case 407:                          // DEVICEPROP: BACKEND_DESCRIPTOR
      return 15;
    case 2700: return 23;                        // the device id: INT32
    case 2702: return 24;                        // the JSON representation: CHAR
    case 201: case 401: case 702: case 703: case 704: case 705: case 750: case 751: case 752: case 753: case 801: return 15;
    case 400: case 800: return 0;                // HANDLE
    case 700: case 701: return 4;                // FLOAT (alpha, beta with float compute)
    case 907: return 2;                          // BOOLEAN
    case 1001: case 1003: return 6;              // VOID_PTR
    default: return -1;
  }
}
std::size_t type_size(int type) {
  switch (type) {
    case 2: case 24: return 1;
    case 3: return 8;
    case 4: return 4;
    case 0: case 6: case 15: return sizeof(void*);
    default: return 4;  // enums
  }
}

template <class T> std::vector<T> get(const Desc* d, int attr) {
  std::vector<T> out;
  const auto it = d->attrs.find(attr);
  if (it == d->attrs.end()) return out;
  out.resize(it->second.size() / sizeof(T));
  std::memcpy(out.data(), it->second.data(), out.size() * sizeof(T));
  return out;
}
Desc* ref(const Desc* d, int attr) {
  const auto v = get<Desc*>(d, attr);
  return v.empty() ? nullptr : v[0];
}
bool has(const Desc* d, std::initializer_list<int> attrs) {
  for (int a : attrs)
    if (!d->attrs.count(a)) return false;
  return true;
}
bool refs_final(const Desc* d, std::initializer_list<int> attrs) {
  for (int a : attrs)
    for (Desc* r : get<Desc*>(d, a))
      if (!g_live.count(r) || !r->finalized) return false;
  return true;
}

// conv + bias + ReLU of the graph behind `plan`, on host memory, for small fp16 problems
int compute(Desc* plan, Desc* pack) {
  Desc* cfg = ref(plan, 401);
  Desc* graph = cfg ? cfg->graph : nullptr;
  if (!graph) return BAD_PARAM;
  Desc *conv_op = nullptr, *add_op = nullptr, *relu_op = nullptr;
  for (Desc* op : get<Desc*>(graph, 801)) {
    if (op->type == 10) conv_op = op;
    else if (op->type == 13 && op->attrs.count(752)) add_op = op;
    else if (op->type == 13) relu_op = op;
  }
  if (!conv_op || !add_op || !relu_op) return BAD_PARAM;
  Desc *x = ref(conv_op, 704), *w = ref(conv_op, 703), *conv = ref(conv_op, 702), *b = ref(add_op, 752), *y = ref(relu_op, 753);
  const auto xd = get<std::int64_t>(x, 902), xs = get<std::int64_t>(x, 903), wd = get<std::int64_t>(w, 902), ws = get<std::int64_t>(w, 903);
  const auto bs = get<std::int64_t>(b, 903), yd = get<std::int64_t>(y, 902), ys = get<std::int64_t>(y, 903);
  const auto pad = get<std::int64_t>(conv, 105), stride = get<std::int64_t>(conv, 103);
  double flops = 2.0;
  for (const std::int64_t v : {yd[0], yd[1], yd[2], yd[3], xd[1], wd[2], wd[3]}) flops *= static_cast<double>(v);
  if (flops > 1e7 || get<int>(x, 901)[0] != 2) return 0;  // big or not fp16: nothing to compute here
  std::map<std::int64_t, void*> ptr;
  const auto uids = get<std::int64_t>(pack, 1000);
  const auto ptrs = get<void*>(pack, 1001);
  for (std::size_t i = 0; i < uids.size() && i < ptrs.size(); ++i) ptr[uids[i]] = ptrs[i];
  const auto uid = [](Desc* t) { return get<std::int64_t>(t, 906)[0]; };
  auto* X = static_cast<const std::uint16_t*>(ptr[uid(x)]);
  auto* W = static_cast<const std::uint16_t*>(ptr[uid(w)]);
  auto* B = static_cast<const std::uint16_t*>(ptr[uid(b)]);
  auto* Y = static_cast<std::uint16_t*>(ptr[uid(y)]);
  if (!X || !W || !B || !Y) return BAD_PARAM;
  const float off = env_or("FAKE_WRONG_FUSED", 0) ? 0.5f : 0.f;
  for (std::int64_t n = 0; n < yd[0]; ++n)
    for (std::int64_t k = 0; k < yd[1]; ++k)
      for (std::int64_t p = 0; p < yd[2]; ++p)
        for (std::int64_t q = 0; q < yd[3]; ++q) {
          float acc = 0;
          for (std::int64_t c = 0; c < xd[1]; ++c)
            for (std::int64_t r = 0; r < wd[2]; ++r)
              for (std::int64_t s = 0; s < wd[3]; ++s) {
                const std::int64_t h = p * stride[0] - pad[0] + r, ww = q * stride[1] - pad[1] + s;
                if (h < 0 || h >= xd[2] || ww < 0 || ww >= xd[3]) continue;
                acc += cudnnctl::half_to_float(X[n * xs[0] + c * xs[1] + h * xs[2] + ww * xs[3]]) *
                       cudnnctl::half_to_float(W[k * ws[0] + c * ws[1] + r * ws[2] + s * ws[3]]);
              }
          const float v = acc + cudnnctl::half_to_float(B[k * bs[1]]);
          Y[n * ys[0] + k * ys[1] + p * ys[2] + q * ys[3]] = cudnnctl::float_to_half((v > 0 ? v : 0) + off);
        }
  return 0;
}

} // namespace

extern "C" {
int cudnnBackendCreateDescriptor(int type, void** out) {
  auto* d = new Desc{type, {}, {}};
  g_live.insert(d);
  *out = d;
  log_call("create " + std::to_string(type));
  return 0;
}

int cudnnBackendDestroyDescriptor(void* p) {
  auto* d = static_cast<Desc*>(p);
  if (!g_live.count(d)) return BAD_PARAM;
  log_call("destroy " + std::to_string(d->type));
  g_live.erase(d);
  delete d;
  return 0;
}

int cudnnBackendSetAttribute(void* p, int attr, int type, std::int64_t count, const void* values) {
  auto* d = static_cast<Desc*>(p);
  if (!g_live.count(d)) return BAD_PARAM;
  log_call("set " + std::to_string(d->type) + " " + std::to_string(attr));
  if (d->finalized) return NOT_INITIALIZED;  // cuDNN: a finalized descriptor is read-only
  if (expected_type(attr) != type || count < 1 || !values) return BAD_PARAM;
  const auto* bytes = static_cast<const unsigned char*>(values);
  d->attrs[attr].assign(bytes, bytes + static_cast<std::size_t>(count) * type_size(type));
  d->counts[attr] = count;
  return 0;
}

int cudnnBackendFinalize(void* p) {
  auto* d = static_cast<Desc*>(p);
  if (!g_live.count(d)) return BAD_PARAM;
  log_call("finalize " + std::to_string(d->type));
  if (d->finalized) return BAD_PARAM;
  bool ok = true;
  switch (d->type) {
    case 17: ok = has(d, {900, 901, 902, 903, 906}) && d->counts[902] == d->counts[903]; break;
    case 1: ok = has(d, {100, 101, 102, 103, 104, 105, 106}); break;
    case 0: ok = has(d, {0, 1}); break;
    case 10: ok = has(d, {700, 701, 702, 703, 704, 705}) && refs_final(d, {702, 703, 704, 705}); break;
    case 13: ok = has(d, {750, 751, 753}) && refs_final(d, {750, 751, 752, 753}); break;
    case 15: ok = has(d, {801}) && refs_final(d, {801}); break;
    case 38: ok = has(d, {2702}) || has(d, {2700}); break;
    case 4:
      ok = has(d, {200, 201}) && refs_final(d, {201, 204});
      if (ok && env_or("FAKE_HEUR_STATUS", 0)) return static_cast<int>(env_or("FAKE_HEUR_STATUS", 0));
      break;
    case 5: {
      ok = has(d, {401}) && refs_final(d, {401, 407});
      if (!ok) break;
      if (env_or("FAKE_PLAN_STATUS", 0)) return static_cast<int>(env_or("FAKE_PLAN_STATUS", 0));
      if (env_or("FAKE_PLAN_FAIL_FIRST", 0) && ref(d, 401)->index == 0) return NOT_SUPPORTED;
      break;
    }
    case 16: ok = has(d, {1000, 1001, 1003}) && d->counts[1000] == d->counts[1001]; break;
    default: ok = false;
  }
  if (!ok) return BAD_PARAM;
  d->finalized = true;
  return 0;
}

int cudnnBackendGetAttribute(void* p, int attr, int type, std::int64_t requested, std::int64_t* count, void* values) {
  auto* d = static_cast<Desc*>(p);
  if (!g_live.count(d)) return BAD_PARAM;
  log_call("get " + std::to_string(d->type) + " " + std::to_string(attr));
  if (!d->finalized) return NOT_INITIALIZED;
  if (d->type == 4 && attr == 202 && type == 15) {  // heuristics' engine configs
    const std::int64_t n = env_or("FAKE_ENGINE_CONFIGS", 2);
    if (!values) {
      *count = n;
      return 0;
    }
    auto** out = static_cast<Desc**>(values);
    *count = std::min(n, requested);
    for (std::int64_t i = 0; i < *count; ++i) {
      if (!g_live.count(out[i]) || out[i]->type != 3) return BAD_PARAM;
      out[i]->graph = ref(d, 201);
      out[i]->index = static_cast<int>(i);
      out[i]->finalized = true;
    }
    return 0;
  }
  if (d->type == 38 && attr == 2702 && type == 24) {  // the GPU as JSON: what was given, or the fake GPU's
    const char* name = std::getenv("FAKE_GPU_NAME");
    const auto given = d->attrs.find(2702);
    const std::string text = given != d->attrs.end() ? std::string(given->second.begin(), given->second.end())
                                                     : std::string("{\"deviceName\": \"") + (name ? name : "NVIDIA Fake GPU") +
                                                           "\", \"deviceVer\": 800, \"multiProcessorCount\": 1}";
    *count = static_cast<std::int64_t>(text.size());
    if (values) std::memcpy(values, text.data(), static_cast<std::size_t>(std::min<std::int64_t>(requested, *count)));
    return 0;
  }
  if (d->type == 5 && attr == 402 && type == 3 && requested >= 1 && values) {
    *static_cast<std::int64_t*>(values) = env_or("FAKE_FUSED_WORKSPACE", 4096);
    if (count) *count = 1;
    return 0;
  }
  return BAD_PARAM;
}

int cudnnBackendExecute(void* handle, void* plan, void* pack) {
  auto* pl = static_cast<Desc*>(plan);
  auto* vp = static_cast<Desc*>(pack);
  log_call("execute");
  if (!handle) return 2002;  // CUDNN_STATUS_BAD_PARAM_NULL_POINTER
  if (!g_live.count(pl) || !g_live.count(vp) || pl->type != 5 || vp->type != 16 || !pl->finalized || !vp->finalized) return BAD_PARAM;
  if (const long st = env_or("FAKE_EXECUTE_STATUS", 0)) return static_cast<int>(st);
  return compute(pl, vp);
}

// the unfused epilogue: bias and ReLU as separate calls (nothing computed: only the fused path is checked)
struct Activation { int mode; };
int cudnnAddTensor(void*, const void*, void*, const void*, const void*, void*, void*) { return 0; }
int cudnnCreateActivationDescriptor(Activation** a) {
  *a = new Activation{};
  return 0;
}
int cudnnDestroyActivationDescriptor(Activation* a) {
  delete a;
  return 0;
}
int cudnnSetActivationDescriptor(Activation* a, int mode, int, double) {
  a->mode = mode;
  return 0;
}
int cudnnActivationForward(void*, Activation* a, const void*, void*, const void*, const void*, void*, void*) {
  return a->mode == 1 ? 0 : BAD_PARAM;
}
}
