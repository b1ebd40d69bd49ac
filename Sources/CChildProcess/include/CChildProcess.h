#ifndef CCHILDPROCESS_H
#define CCHILDPROCESS_H
#include <spawn.h>

/// posix_spawn_file_actions_addchdir_np (glibc ≥ 2.29, macOS ≥ 10.15), which Swift's Glibc module does not expose.
int child_process_add_chdir(posix_spawn_file_actions_t *actions, const char *path);
/// posix_spawn_file_actions_addclosefrom_np (glibc ≥ 2.34): close every descriptor from `from` in the child;
/// returns ENOSYS where the C library has none.
int child_process_add_closefrom(posix_spawn_file_actions_t *actions, int from);

#endif
