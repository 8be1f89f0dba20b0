/*
 * sigsuspend-copy: preloaded into programs run under valgrind 3.19 by session-benchmark --callgrind.
 *
 * Valgrind 3.19 writes into the signal mask passed to sigsuspend(2) while it emulates the call. libdispatch
 * (under every Swift program that uses Dispatch or Swift concurrency) passes a mask that lives in read-only
 * memory, so valgrind itself crashes ("the 'impossible' happened", SIGSEGV in the valgrind core) as soon as the
 * daemon's main thread parks. This sigsuspend copies the mask to the stack first; the program's behaviour is
 * unchanged.
 *
 * Build: cc -O2 -shared -fPIC -o sigsuspend-copy.so sigsuspend-copy.c
 */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

int sigsuspend(const sigset_t *mask)
{
    sigset_t copy = *mask;
    return (int)syscall(SYS_rt_sigsuspend, &copy, _NSIG / 8);
}
