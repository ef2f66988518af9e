// An older cudnn64_9.dll planted earlier on the search order (System32, say).
extern "C" __declspec(dllexport) unsigned long long cudnnGetVersion() { return 90100; }
