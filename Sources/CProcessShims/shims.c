#define _GNU_SOURCE
#include "CProcessShims.h"

#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

int CProcessShims_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

int CProcessShims_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}

int CProcessShims_limit_malloc_arenas(int count)
{
    return mallopt(M_ARENA_MAX, count);
}

void CProcessShims_set_thread_name(const char *name)
{
    char truncated[16];
    snprintf(truncated, sizeof truncated, "%s", name);
    pthread_setname_np(pthread_self(), truncated);
}
