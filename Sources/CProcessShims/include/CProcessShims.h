#ifndef CPROCESSSHIMS_H
#define CPROCESSSHIMS_H
#include <spawn.h>

/*
 * CProcessShims: the few process calls Swift's Glibc module hides (they need _GNU_SOURCE or are variadic or
 * live in headers the module leaves out). Apart from CDBusShims, whose scope is libdbus, this is the only C.
 */

/// pipe2(O_CLOEXEC): Glibc's Swift overlay hides it (it needs _GNU_SOURCE), and a plain pipe() followed by
/// fcntl would leak the fds into children spawned by other threads in between. Returns 0 or -1 with errno.
int CProcessShims_pipe_cloexec(int fds[2]);

/// posix_spawn_file_actions_addclosefrom_np (glibc >= 2.34), hidden from Swift for the same _GNU_SOURCE
/// reason: makes a spawned child close every fd from `lowest` up, so it inherits only stdin/stdout/stderr.
int CProcessShims_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest);

/// mallopt(M_ARENA_MAX, count) (<malloc.h> is not in Swift's Glibc module): at most `count` malloc arenas for
/// the process. Returns 1 on success, 0 on failure.
int CProcessShims_limit_malloc_arenas(int count);

/// Names the calling thread (pthread_setname_np needs _GNU_SOURCE, prctl is variadic); `name` is cut to the
/// kernel's 15 bytes. Threads show by name in top -H, gdb and /proc/PID/task/*/comm.
void CProcessShims_set_thread_name(const char *name);

#endif
