// Stands for cudnn_graph64_9.dll: the main DLL imports it, as NVIDIA's does.
extern "C" __declspec(dllexport) unsigned long long fake_graph_version() { return 91900; }
