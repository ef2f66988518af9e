// Stands for cudnn64_9.dll: exports cudnnGetVersion and imports cudnn_graph64_9.dll.
extern "C" __declspec(dllimport) unsigned long long fake_graph_version();
extern "C" __declspec(dllexport) unsigned long long cudnnGetVersion() { return fake_graph_version(); }
