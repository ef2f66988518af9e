// Stands for libz.so.1: a library a sub-library is linked against (DT_NEEDED).
extern "C" int fake_dependency() { return 42; }
