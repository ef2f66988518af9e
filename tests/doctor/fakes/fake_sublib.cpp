// A stand-in for one cuDNN sub-library (libcudnn_ops.so.9, ...): it only has to load.
extern "C" int fake_cudnn_sublibrary() { return 1; }
#ifdef FAKE_NEEDS_DEPENDENCY
extern "C" int fake_dependency();
extern "C" int fake_uses_dependency() { return fake_dependency(); }
#endif
