/* Finds a module of mdsim (mdsim_ssh.so, mdsim_http.so) and takes its
 * table: beside the running program first (the build tree), else where
 * the install put it, which CMakeLists.txt gives as MDSIM_MODULE_RELDIR,
 * a path from the program's directory: relative, so an installed tree
 * unpacked under another root (dpkg -x) still finds its own module. The
 * program is found through /proc/self/exe, so a symlink or a relative
 * path to mdsim does not matter. A module resolves what it needs of mdsim
 * (the lab lock, the terminal, the login throttle) from the program,
 * which exports them. */
#include "ssh.h"
#include "http.h"
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifndef MDSIM_MODULE_RELDIR
#define MDSIM_MODULE_RELDIR "../lib/mdsim"
#endif

/* what: the service, for the message ("SSH", "HTTP"). */
static const void *module_load(const char *module, const char *symbol, const char *what, char *err, size_t n)
{
    char dir[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", dir, sizeof dir - 1);
    dir[len > 0 ? len : 0] = '\0';
    char *slash = strrchr(dir, '/'); /* /proc/self/exe is absolute */
    if (!slash) {
        snprintf(err, n, "cannot find the program's directory for %s", module);
        return NULL;
    }
    *slash = '\0';
    char beside[PATH_MAX + 64], installed[PATH_MAX + sizeof MDSIM_MODULE_RELDIR + 64];
    snprintf(beside, sizeof beside, "%s/%s", dir, module);
    snprintf(installed, sizeof installed, "%s/%s/%s", dir, MDSIM_MODULE_RELDIR, module);
    /* The installed one only when there is none beside: a build tree's
     * program never takes an installed module of another build. */
    const char *path = access(beside, F_OK) != 0 && access(installed, F_OK) == 0 ? installed : beside;
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    const void *m = h ? dlsym(h, symbol) : NULL;
    if (!m) {
        snprintf(err, n, "%s is in %s beside the program or in %s/%s, which cannot be loaded: %s", what, module, dir,
                 MDSIM_MODULE_RELDIR, dlerror());
        if (h)
            dlclose(h);
        return NULL;
    }
    return m; /* stays loaded until the process ends */
}

const struct ssh_module *ssh_module_load(char *err, size_t n)
{
    return module_load("mdsim_ssh.so", "mdsim_ssh_module", "SSH", err, n);
}

const struct http_module *http_module_load(char *err, size_t n)
{
    return module_load("mdsim_http.so", "mdsim_http_module", "HTTP", err, n);
}
