#pragma once
// Private to the workload: the fused conv+bias+ReLU graph described through backend descriptors, and
// its heuristics and execution plans (fused_graph.cpp); run and timed by fused_conv.cpp.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "cudnnctl/workload/fused_conv.hpp"

namespace cudnnctl::fused {

// Every backend descriptor made for one graph, destroyed together (last made, first destroyed). The
// first failing call is kept (status, step, cuDNN's text); later calls do nothing.
class Backend {
public:
  Backend(const Api& api, unsigned major) : m_api(api), m_major(major) {}
  ~Backend();
  Backend(const Backend&) = delete;
  Backend& operator=(const Backend&) = delete;

  bool ok() const { return m_status == 0; }
  int status() const { return m_status; }
  std::string error() const;

  abi::cudnnBackendDescriptor_t make(int type, const char* step);
  void set(abi::cudnnBackendDescriptor_t d, int attr, int type, std::int64_t count, const void* values, const char* step);
  void set_desc(abi::cudnnBackendDescriptor_t d, int attr, abi::cudnnBackendDescriptor_t value, const char* step);
  void set_i64(abi::cudnnBackendDescriptor_t d, int attr, std::vector<std::int64_t> values, const char* step);
  void set_int(abi::cudnnBackendDescriptor_t d, int attr, int type, int value, const char* step);
  bool finalize(abi::cudnnBackendDescriptor_t d, const char* step);
  bool check(int status, const char* step);
  // a tensor: dimensions in NCHW order with NHWC strides
  abi::cudnnBackendDescriptor_t tensor(std::int64_t uid, std::vector<std::int64_t> dims, int dtype, bool is_virtual);
  // a failure that is not the graph's (a later engine config may still work): remembered, then cleared
  std::pair<int, std::string> take_failure();

private:
  const Api& m_api;
  unsigned m_major;
  std::vector<abi::cudnnBackendDescriptor_t> m_made;
  int m_status = 0;
  std::string m_step;
  std::string m_detail;
};

inline constexpr std::int64_t k_uid_x = 1, k_uid_w = 2, k_uid_b = 3, k_uid_y = 4, k_uid_conv = 101, k_uid_biased = 102;

// x, w, bias, y descriptors and the three operations in one graph, for `target`
abi::cudnnBackendDescriptor_t build_graph(Backend& b, const GraphTarget& target, const ConvShape& s);

struct Plan {
  abi::cudnnBackendDescriptor_t plan = nullptr;
  std::int64_t workspace = 0;
  int config = -1;
};

struct Planning {
  std::vector<Plan> plans;
  int configs = 0;  // engine configs the heuristics returned
  int tried = 0;
  std::pair<int, std::string> last_failure{0, ""};
};

// the engine configs heuristics mode A proposes (then the fallback list), each made into a plan until
// `wanted` plans finalize; a config that cannot run this graph is skipped
Planning make_plans(Backend& b, const Api& api, const GraphTarget& target, abi::cudnnBackendDescriptor_t graph, int wanted);

// The graph of `s` built and planned (build_graph, then make_plans): what running a layer and only
// planning it share. When no plan finalized, `status` and `error` say why.
struct GraphPlans {
  Planning planning;  // nothing tried when the graph could not be described
  int status = 0;     // the graph's or the last config's failure; 0 when the heuristics proposed none
  std::string error;  // decoded, with the step that failed
  bool ok() const { return !planning.plans.empty(); }
};
GraphPlans plan_graph(Backend& b, const Api& api, const GraphTarget& target, const ConvShape& s, int wanted);

} // namespace cudnnctl::fused
