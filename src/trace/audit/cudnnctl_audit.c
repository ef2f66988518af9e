/* The LD_AUDIT library of `cudnnctl trace` (Linux, glibc's rtld-audit interface). The dynamic linker loads it
 * into the traced program and into every program that program starts (they inherit LD_AUDIT), before
 * anything else, and calls it:
 *   la_version   once per process: a "P" line (pid, parent pid, the program);
 *   la_objsearch for every name and every candidate path the linker tries: an "S" line (pid, how the
 *                candidate came up, the name, the object whose load asked for it);
 *   la_objopen   for every object mapped: an "O" line (pid, path, the object that asked for it when known).
 * Only the CUDA libraries cudnnctl reports (cuDNN, cuBLAS/cuBLASLt, NVRTC, cudart, the driver) are written.
 * Lines go to the file named by CUDNNCTL_TRACE_FILE. The file is opened by path for each line (O_APPEND,
 * close-on-exec), written with one write() (shorter than PIPE_BUF) and closed again, so the processes of one run
 * append whole lines and no descriptor of the program is ever written to or held: a program that closes its
 * descriptors and opens its own files (even on 0-2) never gets a trace line, and its later loads are still
 * recorded. Each line starts with CUDNNCTL_TRACE_TOKEN, a random per-run value: cudnnctl parses only lines that
 * carry it, so whatever else reaches the file is not taken for a load. Nothing here changes what the linker
 * does: every callback returns the name it was given. Plain C and libc only. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char g_file[4096];
static char g_token[80];

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
  if (!g_file[0] || !g_token[0]) return;
  char buf[4000];
  const size_t cap = sizeof buf - 4; /* room for the separators and the newline */
  size_t n = (size_t)snprintf(buf, sizeof buf, "%s\t%c\t%ld\t", g_token, kind, (long)getpid());
  n = put(buf, n, cap, a);
  buf[n++] = '\t';
  n = put(buf, n, cap, b);
  buf[n++] = '\t';
  n = put(buf, n, cap, c);
  buf[n++] = '\n';
  /* Opened for this line only: the descriptor exists for the duration of one write and is never the
   * program's (a program that had closed 0-2 could get that number for its own next open, which is why the
   * token, not the descriptor, decides which lines are the audit library's). */
  const int fd = open(g_file, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return;
  ssize_t w = write(fd, buf, n);
  (void)w;
  close(fd);
}

static void copy_env(char* to, size_t cap, const char* name) {
  const char* v = getenv(name);
  to[0] = '\0';
  if (v && strlen(v) < cap) memcpy(to, v, strlen(v) + 1);
}

unsigned int la_version(unsigned int version) {
  copy_env(g_file, sizeof g_file, "CUDNNCTL_TRACE_FILE");
  copy_env(g_token, sizeof g_token, "CUDNNCTL_TRACE_TOKEN");
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
