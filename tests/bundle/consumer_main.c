/* Loads the consumer library by path (as Python imports torch) and prints the version of the cuDNN it
   bound to and the file that cuDNN came from. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  void* h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    fprintf(stderr, "%s\n", dlerror());
    return 1;
  }
  size_t (*fn)(void) = (size_t (*)(void))dlsym(h, "consumer_cudnn_version");
  void* get = dlsym(h, "cudnnGetVersion");
  Dl_info info = {0};
  if (!fn || !get || !dladdr(get, &info)) return 3;
  printf("%zu %s\n", fn(), info.dli_fname);
  return 0;
}
