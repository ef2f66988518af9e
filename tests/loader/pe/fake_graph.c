/* A tiny Windows DLL built with mingw-w64 for the PE reader's tests (stands for cudnn_graph64_9.dll). */
__declspec(dllexport) int fake_graph_version(void) { return 91900; }
