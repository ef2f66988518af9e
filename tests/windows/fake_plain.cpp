// A DLL with nothing to it, built as cublasLt64_12.dll (traced) and as plain_helper.dll (not traced).
extern "C" __declspec(dllexport) int fake_plain_answer() { return 42; }
