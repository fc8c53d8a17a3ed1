/* Finds mdsim_ssh.so beside the running program (/proc/self/exe, so a
 * symlink or a relative path to mdsim does not matter) and takes its
 * table. The module resolves what it needs of mdsim (the lab lock, the
 * terminal, the login throttle) from the program, which exports them. */
#include "ssh.h"
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define MODULE "mdsim_ssh.so"

const struct ssh_module *ssh_module_load(char *err, size_t n)
{
    char path[PATH_MAX + sizeof MODULE];
    ssize_t len = readlink("/proc/self/exe", path, PATH_MAX - 1);
    path[len > 0 ? len : 0] = '\0';
    char *slash = strrchr(path, '/'); /* /proc/self/exe is absolute */
    if (!slash) {
        snprintf(err, n, "cannot find the program's directory for %s", MODULE);
        return NULL;
    }
    memcpy(slash + 1, MODULE, sizeof MODULE); /* path has room: PATH_MAX + sizeof MODULE */
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    const struct ssh_module *m = h ? dlsym(h, "mdsim_ssh_module") : NULL;
    if (!m) {
        snprintf(err, n, "SSH is in %s beside the program, which cannot be loaded: %s", MODULE, dlerror());
        if (h)
            dlclose(h);
        return NULL;
    }
    return m; /* stays loaded until the process ends */
}
