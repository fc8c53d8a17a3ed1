/*
 * Options built into every program of the sanitizer build (MDSIM_SANITIZE),
 * so that ctest, a test script and a developer running build-asan/mdsim by
 * hand get the same.
 *
 * intercept_tls_get_addr=0: up to GCC 13 (Debian 12 has 12.2) the runtime's
 * __tls_get_addr interceptor takes a dynamic TLS block that happens to start
 * 16 bytes into a page for one with glibc 2.19's header, and reads the two
 * words before it as an address and a length. LeakSanitizer's tracer then
 * faults at exit ("Tracer caught signal 11") and the process exits 1 with
 * no leak found. It struck serve's tests now and then, where libssh and
 * OpenSSL, loaded with the SSH module, hold dynamic TLS. Without the
 * interceptor LeakSanitizer still scans each thread's static TLS.
 */
#if defined(__SANITIZE_ADDRESS__)
const char *__asan_default_options(void);

const char *__asan_default_options(void)
{
    return "intercept_tls_get_addr=0";
}
#endif
