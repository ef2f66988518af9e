/* A stand-in cuDNN library for archives of versions this machine has no real release of: its
   cudnnGetVersion() returns FAKE_VERSION, so a consumer that prints it shows which copy it loaded. */
#include <stddef.h>
size_t cudnnGetVersion(void) { return FAKE_VERSION; }
