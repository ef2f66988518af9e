/* A cuDNN sub-DLL stand-in that imports others (cudnn_adv64_9.dll -> cudnn_ops64_9.dll, cudnn_graph64_9.dll). */
__declspec(dllimport) int fake_graph_version(void);
__declspec(dllexport) int fake_sub_version(void) { return fake_graph_version() + 1; }
