/* A failing allocator for OpenSSL, for tests of how the verification path behaves when OpenSSL runs
 * out of memory: installed once, before OpenSSL's first allocation in the process (so only in a
 * process of its own, such as a Swift Testing exit test), it passes every allocation to malloc until a
 * set number have been made and then fails the rest, until told otherwise.
 *
 * A Swift Testing exit test's process plans the whole test run before it runs the test's body, and
 * planning evaluates parameterized tests' arguments, some of which use OpenSSL: by then it is too late
 * to replace OpenSSL's allocator. So a constructor installs it when the process starts as an exit
 * test (Swift Testing sets SWT_EXIT_TEST_ID in it); until told to fail, it is malloc itself. */

#include "internal.h" /* first: it hides deprecated OpenSSL API */

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

static atomic_long allocations = 0;
static atomic_long failing_after = -1; /* -1: never fail */

static int should_fail(void) {
    long made = atomic_fetch_add(&allocations, 1);
    long limit = atomic_load(&failing_after);
    return limit >= 0 && made >= limit;
}

static void *failing_malloc(size_t size, const char *file, int line) {
    (void)file;
    (void)line;
    return should_fail() ? NULL : malloc(size);
}

static void *failing_realloc(void *pointer, size_t size, const char *file, int line) {
    (void)file;
    (void)line;
    return should_fail() ? NULL : realloc(pointer, size);
}

static void passing_free(void *pointer, const char *file, int line) {
    (void)file;
    (void)line;
    free(pointer);
}

static int installed = 0;

__attribute__((constructor)) static void install_in_exit_tests(void) {
    const char *exit_test = getenv("SWT_EXIT_TEST_ID");
    if (exit_test != NULL && exit_test[0] != '\0') {
        installed = CRYPTO_set_mem_functions(failing_malloc, failing_realloc, passing_free);
    }
}

int cjwst_install_failing_allocator(void) {
    if (!installed) {
        installed = CRYPTO_set_mem_functions(failing_malloc, failing_realloc, passing_free);
    }
    return installed;
}

void cjwst_fail_allocations_after(long count) {
    atomic_store(&allocations, 0);
    atomic_store(&failing_after, count);
}

long cjwst_allocations_made(void) { return atomic_load(&allocations); }
