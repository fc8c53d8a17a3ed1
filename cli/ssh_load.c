/* Finds mdsim_ssh.so and takes its table: beside the running program
 * first (the build tree), else where the install put it, which
 * CMakeLists.txt gives as MDSIM_MODULE_RELDIR, a path from the program's
 * directory: relative, so an installed tree unpacked under another root
 * (dpkg -x) still finds its own module. The program is found through
 * /proc/self/exe, so a symlink or a relative path to mdsim does not
 * matter. The module resolves what it needs of mdsim (the lab lock, the
 * terminal, the login throttle) from the program, which exports them. */
#include "ssh.h"
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define MODULE "mdsim_ssh.so"
#ifndef MDSIM_MODULE_RELDIR
#define MDSIM_MODULE_RELDIR "../lib/mdsim"
#endif
#define INSTALLED "/" MDSIM_MODULE_RELDIR "/" MODULE

const struct ssh_module *ssh_module_load(char *err, size_t n)
{
    char dir[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", dir, sizeof dir - 1);
    dir[len > 0 ? len : 0] = '\0';
    char *slash = strrchr(dir, '/'); /* /proc/self/exe is absolute */
    if (!slash) {
        snprintf(err, n, "cannot find the program's directory for %s", MODULE);
        return NULL;
    }
    *slash = '\0';
    char beside[PATH_MAX + sizeof "/" MODULE], installed[PATH_MAX + sizeof INSTALLED];
    snprintf(beside, sizeof beside, "%s/%s", dir, MODULE);
    snprintf(installed, sizeof installed, "%s%s", dir, INSTALLED);
    /* The installed one only when there is none beside: a build tree's
     * program never takes an installed module of another build. */
    const char *path = access(beside, F_OK) != 0 && access(installed, F_OK) == 0 ? installed : beside;
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    const struct ssh_module *m = h ? dlsym(h, "mdsim_ssh_module") : NULL;
    if (!m) {
        snprintf(err, n, "SSH is in %s beside the program or in %s/%s, which cannot be loaded: %s", MODULE, dir,
                 MDSIM_MODULE_RELDIR, dlerror());
        if (h)
            dlclose(h);
        return NULL;
    }
    return m; /* stays loaded until the process ends */
}
