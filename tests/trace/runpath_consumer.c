/* A program with a RUNPATH (set at build time to a folder of stand-in cuDNN 9.1.0 libraries) that opens
 * libcudnn.so.9 by name, as frameworks do, calls cudnnGetVersion (which opens a sub-library lazily) and prints
 * the version: the trace tests check that the RUNPATH step is named and the output passes through. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

int main(void) {
  void* h = dlopen("libcudnn.so.9", RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    fprintf(stderr, "%s\n", dlerror());
    return 3;
  }
  size_t (*get)(void) = NULL;
  void* sym = dlsym(h, "cudnnGetVersion");
  memcpy(&get, &sym, sizeof get); /* ISO C has no cast from an object pointer to a function pointer */
  printf("cudnnGetVersion %zu\n", get ? get() : (size_t)0);
  return 0;
}
