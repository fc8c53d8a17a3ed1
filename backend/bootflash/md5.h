/* MD5 (RFC 1321), for `show file ... md5sum`: the check Ansible's
 * nxos_file_copy and netmiko make after a copy. Not for security. */
#ifndef MDSIM_MD5_H
#define MDSIM_MD5_H
#include <stddef.h>
#include <stdint.h>

/* The digest of data[0..n) as 32 lower-case hex digits and a NUL. */
void md5_hex(const unsigned char *data, size_t n, char out[33]);

#endif
