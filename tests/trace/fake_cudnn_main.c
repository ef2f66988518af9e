/* A stand-in for an older libcudnn.so.9 (9.1.0) for the trace tests. Like NVIDIA's it opens its sub-library by
 * name at the first call, its exact release first, then the major, through the loader's search order (its
 * RUNPATH is $ORIGIN), so a missing sub-library is taken from wherever the loader finds one. */
#include <dlfcn.h>
#include <stddef.h>

size_t cudnnGetVersion(void) {
  if (!dlopen("libcudnn_graph.so.9.1.0", RTLD_NOW | RTLD_LOCAL)) dlopen("libcudnn_graph.so.9", RTLD_NOW | RTLD_LOCAL);
  return 90100;
}
