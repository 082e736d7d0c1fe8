/*
 * CJWSSigning's private header: what the module's C files share (keys.c, sign.c), and CJWSTesting's too
 * (its internal.h includes this one first: one entry, one exit and one CJWSS_CHECK for both modules, which
 * link CJWSSigning). Not in include/, so not part of the module's interface to Swift; every C file of both
 * modules includes it first, because the two macros that hide OpenSSL's deprecated API (a compile error, not
 * a warning) must come before any OpenSSL header. Every function owns the OpenSSL objects it creates and frees them at its one exit (label `done`).
 */
#ifndef CJWSSIGNING_INTERNAL_H
#define CJWSSIGNING_INTERNAL_H

#define OPENSSL_API_COMPAT 30000
#define OPENSSL_NO_DEPRECATED 1

#include "CJWSSigning.h"
#include "CJWSOpenSSL.h" /* the error drain and the free functions */

/* Clears this thread's OpenSSL error queue: the entry of every exported function. */
void cjwss_internal_begin(void);

/* The exit of every exported function: on success (`ok` 1) empties the error queue; on failure leaves
 * OpenSSL's reasons in it and adds "function: step" (ERR_LIB_USER, for cjws_error_text). Returns `ok`. */
int cjwss_internal_finish(int ok, const char *function, const char *step);

/* In a function with a `const char *step` and a `done` label: on failure, records `what` as the failed step
 * and jumps to `done`. */
#define CJWSS_CHECK(condition, what)                                                                           \
    do {                                                                                                       \
        if (!(condition)) {                                                                                    \
            step = (what);                                                                                     \
            goto done;                                                                                         \
        }                                                                                                      \
    } while (0)

#endif /* CJWSSIGNING_INTERNAL_H */
