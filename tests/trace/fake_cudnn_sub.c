/* A stand-in for libcudnn_graph.so.9 of the older release (9.1.0), for the trace tests. */
int cudnnGraphFakeRelease(void) { return 90100; }
