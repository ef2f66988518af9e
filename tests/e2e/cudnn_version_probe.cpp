// Loads a cuDNN library by full path and prints cudnnGetVersion(): the end-to-end proof that an
// installed copy is complete enough to load (the shim pulls in libcudnn_graph on the first call).
#include <dlfcn.h>

#include <cstdio>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s /path/to/libcudnn.so.9\n", argv[0]);
    return 2;
  }
  void* lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    std::fprintf(stderr, "dlopen failed: %s\n", dlerror());
    return 1;
  }
  using GetVersion = std::size_t (*)();
  auto get_version = reinterpret_cast<GetVersion>(dlsym(lib, "cudnnGetVersion"));
  if (!get_version) {
    std::fprintf(stderr, "dlsym(cudnnGetVersion) failed: %s\n", dlerror());
    return 1;
  }
  std::printf("%zu\n", get_version());
  return 0;
}
