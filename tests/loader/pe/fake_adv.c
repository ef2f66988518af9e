/* cudnn_adv64_9.dll's stand-in: imports cudnn_graph64_9.dll and cudnn_ops64_9.dll, as NVIDIA's does. */
__declspec(dllimport) int fake_graph_version(void);
__declspec(dllimport) int fake_ops_version(void);
__declspec(dllexport) int fake_adv_version(void) { return fake_graph_version() + fake_ops_version(); }
