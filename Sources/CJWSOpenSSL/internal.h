#ifndef CJWS_INTERNAL_H
#define CJWS_INTERNAL_H

/* Shared between the module's C files; not part of the module's interface to Swift. */

#include <openssl/evp.h>

/* Which cached verification context a caller wants: the ES256 leaf key of a token, or the issuer key
 * that checks a certificate's signature. */
typedef enum cjws_verify_slot {
    CJWS_VERIFY_SLOT_ES256 = 0,
    CJWS_VERIFY_SLOT_ISSUER = 1,
    CJWS_VERIFY_SLOT_COUNT = 2
} cjws_verify_slot;

/* This thread's verification context for `key` in slot `which`, initialized for EVP_PKEY_verify and
 * owned by the thread (shims.c). NULL on an allocation or fetch failure. */
EVP_PKEY_CTX *cjws_verify_context(cjws_verify_slot which, EVP_PKEY *key);

#endif
