/* The LD_AUDIT library of `cudnnctl trace` (Linux, glibc's rtld-audit interface). The dynamic linker loads it
 * into the traced program and into every program that program starts (they inherit LD_AUDIT), before
 * anything else, and calls it:
 *   la_version   once per process: a "P" line (pid, parent pid, the program);
 *   la_objsearch for every name and every candidate path the linker tries: an "S" line (pid, how the
 *                candidate came up, the name, the object whose load asked for it);
 *   la_objopen   for every object mapped: an "O" line (pid, path, the object that asked for it when known).
 * Only the CUDA libraries cudnnctl reports (cuDNN, cuBLAS/cuBLASLt, NVRTC, cudart, the driver) are written.
 * Lines go to the file named by CUDNNCTL_TRACE_FILE, opened O_APPEND and written with one write() each
 * (shorter than PIPE_BUF), so the processes of one run append whole lines. Nothing here changes what the
 * linker does: every callback returns the name it was given. Plain C and libc only. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int g_fd = -1;

static const char* base_name(const char* path) {
  const char* slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

static int interesting(const char* path) {
  static const char* const prefixes[] = {"libcudnn", "libcublas", "libnvrtc", "libcudart", "libcuda.so"};
  const char* b = base_name(path);
  for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; ++i)
    if (strncmp(b, prefixes[i], strlen(prefixes[i])) == 0) return 1;
  return 0;
}

/* Tabs and newlines cannot occur in the fields (they would break the line format): replaced by '?'. */
static size_t put(char* buf, size_t at, size_t cap, const char* s) {
  for (; s && *s && at + 1 < cap; ++s) buf[at++] = (*s == '\t' || *s == '\n') ? '?' : *s;
  return at;
}

static void emit(char kind, const char* a, const char* b, const char* c) {
  if (g_fd < 0) return;
  char buf[4000];
  const size_t cap = sizeof buf - 4; /* room for the separators and the newline */
  size_t n = (size_t)snprintf(buf, sizeof buf, "%c\t%ld\t", kind, (long)getpid());
  n = put(buf, n, cap, a);
  buf[n++] = '\t';
  n = put(buf, n, cap, b);
  buf[n++] = '\t';
  n = put(buf, n, cap, c);
  buf[n++] = '\n';
  ssize_t w = write(g_fd, buf, n);
  (void)w;
}

unsigned int la_version(unsigned int version) {
  const char* file = getenv("CUDNNCTL_TRACE_FILE");
  if (file && *file) g_fd = open(file, O_WRONLY | O_APPEND | O_CLOEXEC);
  char exe[2048];
  ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
  exe[len > 0 ? len : 0] = '\0';
  char ppid[32];
  snprintf(ppid, sizeof ppid, "%ld", (long)getppid());
  emit('P', ppid, exe, "");
  return version < LAV_CURRENT ? version : LAV_CURRENT;
}

static const char* requester(uintptr_t* cookie) {
  /* The cookie starts as the address of the requesting object's link_map (rtld-audit(7)); the main program's
   * l_name is "". */
  const struct link_map* m = cookie ? (const struct link_map*)*cookie : NULL;
  return m && m->l_name ? m->l_name : "";
}

char* la_objsearch(const char* name, uintptr_t* cookie, unsigned int flag) {
  if (name && interesting(name)) {
    const char* how = flag == LA_SER_ORIG      ? "asked"
                      : flag == LA_SER_LIBPATH ? "LD_LIBRARY_PATH"
                      : flag == LA_SER_RUNPATH ? "RUNPATH"
                      : flag == LA_SER_CONFIG  ? "ld.so cache"
                      : flag == LA_SER_DEFAULT ? "default folder"
                                               : "other";
    emit('S', how, name, requester(cookie));
  }
  return (char*)name;
}

unsigned int la_objopen(struct link_map* map, Lmid_t lmid, uintptr_t* cookie) {
  (void)lmid;
  (void)cookie;
  if (map && map->l_name && interesting(map->l_name)) emit('O', map->l_name, "", "");
  return 0;
}
