#ifndef CJWS_INTERNAL_H
#define CJWS_INTERNAL_H

/* Shared between the module's C files, named cjws_internal_* / CJWS_INTERNAL_*; not part of the module's
 * interface to Swift. Every C file of the module includes it first.
 *
 * Deprecated OpenSSL APIs are hidden (OPENSSL_NO_DEPRECATED), so using one is a compile error, in every
 * file but fastpath/ec_key.c: its fixed-base tables need EC_GROUP_precompute_mult, deprecated in OpenSSL
 * 3.0 with no replacement, and it defines CJWS_INTERNAL_USES_DEPRECATED_EC before including this header.
 * The two macros must come before any OpenSSL header, which is why this header is included first. */
#ifndef CJWS_INTERNAL_USES_DEPRECATED_EC
#define OPENSSL_API_COMPAT 30000
#define OPENSSL_NO_DEPRECATED 1
#endif

#include <stddef.h>
#include <stdint.h>

#include <openssl/bn.h>
#include <openssl/evp.h>
#include <openssl/ocsp.h>
#include <openssl/x509.h>

#include "CJWSOpenSSL.h"

/* Which cached verification context a caller wants: the ES256 leaf key of a token, or the issuer key
 * that checks a certificate's signature. */
typedef enum cjws_internal_verify_slot {
    CJWS_INTERNAL_VERIFY_SLOT_ES256 = 0,
    CJWS_INTERNAL_VERIFY_SLOT_ISSUER = 1,
    /* The RSA key of an app receipt's signer (receipt.c). */
    CJWS_INTERNAL_VERIFY_SLOT_RSA = 2,
    CJWS_INTERNAL_VERIFY_SLOT_COUNT = 3
} cjws_internal_verify_slot;

/* An OCSP request with the CertID it asks about (ocsp.c builds it, ocsp_http.c sends it). OCSP
 * responses are a few KiB (Apple's: about 1.5 KiB); anything far larger is not one. */
#define CJWS_INTERNAL_OCSP_MAX_RESPONSE_BYTES (100 * 1024)

struct cjws_ocsp_request {
    OCSP_REQUEST *request; /* owned */
    OCSP_CERTID *id;       /* owned: an equal copy of the CertID inside `request` */
};

/* w = s^-1 mod order, for s in [1, order-1], order odd (inverse.c): the limb inversion, confirmed with
 * BN_mod_mul, else BN_mod_inverse (counted by cjws_ec_inverse_fallbacks). 1 on success. */
int cjws_internal_inverse_mod_order(BIGNUM *w, const BIGNUM *s, const BIGNUM *order, BN_CTX *context);

/* SHA-256, fetched once per process (errors.c). */
const EVP_MD *cjws_internal_sha256_md(void);

/* This thread's verification context for `key` in slot `which`, initialized for EVP_PKEY_verify and
 * owned by the thread (keys.c). NULL on an allocation or fetch failure. */
EVP_PKEY_CTX *cjws_internal_verify_context(cjws_internal_verify_slot which, EVP_PKEY *key);

/* This thread's context in the RSA slot for `key`, set to PKCS #1 v1.5 padding with digest `md` (set once
 * per key, digest and thread, then reused). NULL on a failure. */
EVP_PKEY_CTX *cjws_internal_rsa_verify_context(EVP_PKEY *key, const EVP_MD *md);

/* leaf.c, without the self-test gate (the self-test itself calls them): the keyless parse of a P-256
 * leaf and the check of a leaf under a known intermediate. Same contracts as
 * cjws_x509_from_der_p256_leaf and cjws_leaf_accepted_under. */
X509 *cjws_internal_keyless_p256_leaf(const void *der, size_t length, EVP_PKEY **key);
int cjws_internal_leaf_check(X509 *leaf, const void *leaf_der, size_t leaf_der_length, X509 *issuer,
                    cjws_ec_key *issuer_key, int64_t at_time, int *reason);

/* cjws_verify_chain with every certificate of `untrusted` offered (chain.c): the same configuration and
 * result; `intermediate_in_chain` compares with `intermediate` (may be NULL), and `second`, when not
 * NULL, receives the built chain's second certificate (a member of `untrusted` or a root of the store,
 * not a new reference), or NULL. Does not clear the error queue. */
int cjws_internal_verify_chain_offering(X509_STORE *store, X509 *leaf, STACK_OF(X509) *untrusted, X509 *intermediate,
                               int64_t at_time, cjws_chain_result *result, X509 **second);

/* SHA-1, fetched once per process (errors.c). */
const EVP_MD *cjws_internal_sha1_md(void);

#endif
