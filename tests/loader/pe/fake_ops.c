/* A cuDNN sub-DLL stand-in (cudnn_ops64_9.dll) that others import. */
__declspec(dllexport) int fake_ops_version(void) { return 91000; }
