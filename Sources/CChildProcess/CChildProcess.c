#define _GNU_SOURCE
#include <errno.h>
#include <spawn.h>
#include "CChildProcess.h"

int child_process_add_chdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}

int child_process_add_closefrom(posix_spawn_file_actions_t *actions, int from) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
#else
    (void)actions; (void)from;
    return ENOSYS;
#endif
}
