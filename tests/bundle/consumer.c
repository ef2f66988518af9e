/* Stands in for PyTorch's libtorch_cuda.so: linked against libcudnn.so.9 and built with
   DT_RPATH $ORIGIN/../../nvidia/cudnn/lib (the test passes -Wl,--disable-new-dtags), so the loader finds
   the nvidia-cudnn wheel's copy before LD_LIBRARY_PATH, as it does for PyTorch. */
#include <stddef.h>
size_t cudnnGetVersion(void);
size_t consumer_cudnn_version(void) { return cudnnGetVersion(); }
