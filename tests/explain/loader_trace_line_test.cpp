#include <catch2/catch.hpp>

#include "cudnnctl/explain/loader_trace_line.hpp"

using namespace cudnnctl;

TEST_CASE("LD_DEBUG and Process Monitor lines decode to one loader event each", "[loader_trace_line]") {
  struct Row {
    const char* line;
    TraceEvent event;
    const char* library;
    const char* path;
    const char* via;
    bool windows;
  };
  const Row table[] = {
      {"     18570:\tfind library=libcudnn.so.9 [0]; searching", TraceEvent::find, "libcudnn.so.9", "", "", false},
      {"     18570:\t search path=/opt/a/lib:/usr/lib/nvidia\t\t(LD_LIBRARY_PATH)", TraceEvent::search_path, "", "/opt/a/lib:/usr/lib/nvidia",
       "LD_LIBRARY_PATH", false},
      {"      1651:\t search path=/home/u/julia/bin/../lib/tls:/home/u/julia/bin/../lib\t\t(RPATH from file julia)", TraceEvent::search_path, "",
       "/home/u/julia/bin/../lib/tls:/home/u/julia/bin/../lib", "RPATH from file julia", false},
      {"     18570:\t search cache=/etc/ld.so.cache", TraceEvent::search_path, "", "/etc/ld.so.cache", "ld.so.cache", false},
      {"     18570:\t  trying file=/usr/lib/nvidia/libcuda.so.1", TraceEvent::trying, "libcuda.so.1", "/usr/lib/nvidia/libcuda.so.1", "", false},
      {"     18570:\tcalling init: /usr/lib/x86_64-linux-gnu/libcudnn.so.9", TraceEvent::loaded, "libcudnn.so.9",
       "/usr/lib/x86_64-linux-gnu/libcudnn.so.9", "", false},
      {"10:41:03.1234  python.exe  4242  CreateFile  C:\\venv\\Lib\\site-packages\\torch\\lib\\cudnn_ops64_9.dll  NAME NOT FOUND  Desired "
       "Access: Read",
       TraceEvent::not_found, "cudnn_ops64_9.dll", "C:\\venv\\Lib\\site-packages\\torch\\lib\\cudnn_ops64_9.dll", "", true},
      {R"("10:41:03.1234","python.exe","4242","CreateFile","C:\Windows\System32\cublasLt64_12.dll","PATH NOT FOUND","Desired Access: Read")",
       TraceEvent::not_found, "cublasLt64_12.dll", "C:\\Windows\\System32\\cublasLt64_12.dll", "", true},
      {"python.exe  4242  Load Image  C:\\CUDNN\\v9.1\\bin\\12.3\\cudnn64_9.dll  SUCCESS  Image Base: 0x7ff8", TraceEvent::loaded,
       "cudnn64_9.dll", "C:\\CUDNN\\v9.1\\bin\\12.3\\cudnn64_9.dll", "", true},
  };
  for (const auto& r : table) {
    INFO(r.line);
    const auto t = loader_trace_line_in(r.line);
    REQUIRE(t);
    CHECK(t->event == r.event);
    CHECK(t->library == r.library);
    CHECK(t->path == r.path);
    CHECK(t->via == r.via);
    CHECK(t->windows == r.windows);
  }
  CHECK_FALSE(loader_trace_line_in("python.exe  4242  QueryOpen  C:\\x\\cudnn64_9.dll  SUCCESS"));
  CHECK_FALSE(loader_trace_line_in("trying file=/x/libcudnn.so.9"));  // no LD_DEBUG process-id prefix: not a loader trace
  CHECK_FALSE(loader_trace_line_in("Could not load library libcudnn_cnn_infer.so.8"));
}
