/* A tiny Windows DLL built with mingw-w64 that imports another (stands for cudnn64_9.dll -> cudnn_graph64_9.dll). */
#include <windows.h>
__declspec(dllimport) int fake_graph_version(void);
__declspec(dllexport) size_t cudnnGetVersion(void) { return (size_t)fake_graph_version() + (size_t)GetTickCount() * 0; }
