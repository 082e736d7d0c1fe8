/* Public keys and ES256 verification with per-thread verification contexts (the CJWSOpenSSL.h section
 * "keys and ES256"). */

#include "internal.h"

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/obj_mac.h>
#include <openssl/objects.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <openssl/x509v3.h>

/* ---- keys and ES256 -------------------------------------------------------------------------- */

EVP_PKEY *cjws_pkey_from_spki(const void *der, size_t length) {
    ERR_clear_error();
    if (length > LONG_MAX) {
        return NULL;
    }
    const unsigned char *cursor = der;
    EVP_PKEY *key = d2i_PUBKEY(NULL, &cursor, (long)length);
    if (key != NULL && cursor != (const unsigned char *)der + length) {
        EVP_PKEY_free(key);
        return NULL;
    }
    return key;
}

EVP_PKEY *cjws_pkey_p256_from_point(const void *point, size_t length) {
    ERR_clear_error();
    if (length != 65) {
        return NULL;
    }
    EVP_PKEY *key = NULL;
    EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    if (context == NULL) {
        return NULL;
    }
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, (char *)"prime256v1", 0),
        OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, (void *)point, length),
        OSSL_PARAM_construct_end(),
    };
    if (EVP_PKEY_fromdata_init(context) != 1 || EVP_PKEY_fromdata(context, &key, EVP_PKEY_PUBLIC_KEY, params) != 1) {
        key = NULL;
    }
    EVP_PKEY_CTX_free(context);
    return key;
}

void cjws_pkey_free(EVP_PKEY *key) { EVP_PKEY_free(key); }

int cjws_pkey_is_valid_p256(EVP_PKEY *key) {
    ERR_clear_error();
    if (key == NULL || cjws_pkey_ec_curve_nid(key) != NID_X9_62_prime256v1) {
        return 0;
    }
    EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
    if (context == NULL) {
        ERR_clear_error();
        return 0;
    }
    /* The quick check: not the point at infinity, coordinates below p, on the curve. The full check
     * would add n·Q = O, which every such point of P-256 satisfies (cofactor 1). */
    int valid = EVP_PKEY_public_check_quick(context) == 1;
    EVP_PKEY_CTX_free(context);
    ERR_clear_error();
    return valid;
}

int cjws_nid_p256(void) { return NID_X9_62_prime256v1; }
int cjws_nid_p384(void) { return NID_secp384r1; }

int cjws_pkey_ec_curve_nid(const EVP_PKEY *key) {
    if (key == NULL || EVP_PKEY_get_base_id(key) != EVP_PKEY_EC) {
        return 0;
    }
    char name[64];
    size_t name_length = 0;
    if (EVP_PKEY_get_utf8_string_param(key, OSSL_PKEY_PARAM_GROUP_NAME, name, sizeof name, &name_length) != 1) {
        ERR_clear_error();
        return 0;
    }
    int nid = OBJ_sn2nid(name);
    if (nid == NID_undef) {
        nid = EC_curve_nist2nid(name);
    }
    return nid == NID_undef ? 0 : nid;
}

/* Converts a raw R || S signature (2 * 32 bytes) to DER. Returns the DER length or -1. The caller
 * frees *der with OPENSSL_free. */
static int raw_signature_to_der(const unsigned char *raw, size_t half, unsigned char **der) {
    ECDSA_SIG *signature = ECDSA_SIG_new();
    if (signature == NULL) {
        return -1;
    }
    BIGNUM *r = BN_bin2bn(raw, (int)half, NULL);
    BIGNUM *s = BN_bin2bn(raw + half, (int)half, NULL);
    if (r == NULL || s == NULL) {
        BN_free(r);
        BN_free(s);
        ECDSA_SIG_free(signature);
        return -1;
    }
    /* ECDSA_SIG_set0 takes ownership of r and s on success. */
    if (ECDSA_SIG_set0(signature, r, s) != 1) {
        BN_free(r);
        BN_free(s);
        ECDSA_SIG_free(signature);
        return -1;
    }
    *der = NULL;
    int length = i2d_ECDSA_SIG(signature, der);
    ECDSA_SIG_free(signature);
    return length;
}

/* Verification contexts per thread, reused while the thread verifies with the same key (the warm
 * path: every token of a chain has the same leaf key; every new leaf under a known intermediate has
 * the same issuer key). In OpenSSL 3.0, EVP_PKEY_CTX_new and EVP_PKEY_verify_init fetch the ECDSA
 * implementation from the provider store under process-wide locks; doing that once per key and thread
 * removes both the cost and the contention between threads. A context holds its own reference to its
 * key (EVP_PKEY_CTX_new up-refs it), so a cached key cannot be freed and its address reused while it
 * is cached: pointer equality is identity. One slot per use (cjws_internal_verify_slot), so that a token's
 * leaf key and its certificate's issuer key do not evict each other. */
typedef struct verify_slot {
    EVP_PKEY *key;         /* not owned: kept alive by ctx */
    EVP_PKEY_CTX *ctx;     /* owned */
    const EVP_MD *rsa_md;  /* the digest ctx was set to PKCS #1 v1.5 with (cjws_internal_rsa_verify_context);
                              NULL while it has not been set */
} verify_slot;

static pthread_key_t verify_slot_key;
static int verify_slot_key_ready = 0;
static pthread_once_t verify_slot_once = PTHREAD_ONCE_INIT;

static void free_verify_slots(void *pointer) {
    verify_slot *slots = pointer;
    for (int index = 0; index < CJWS_INTERNAL_VERIFY_SLOT_COUNT; index++) {
        EVP_PKEY_CTX_free(slots[index].ctx);
    }
    free(slots);
}

static void make_verify_slot_key(void) {
    verify_slot_key_ready = pthread_key_create(&verify_slot_key, free_verify_slots) == 0;
}

EVP_PKEY_CTX *cjws_internal_verify_context(cjws_internal_verify_slot which, EVP_PKEY *key) {
    if (which < 0 || which >= CJWS_INTERNAL_VERIFY_SLOT_COUNT || key == NULL) {
        return NULL;
    }
    pthread_once(&verify_slot_once, make_verify_slot_key);
    if (!verify_slot_key_ready) {
        return NULL;
    }
    verify_slot *slots = pthread_getspecific(verify_slot_key);
    if (slots == NULL) {
        slots = calloc(CJWS_INTERNAL_VERIFY_SLOT_COUNT, sizeof *slots);
        if (slots == NULL) {
            return NULL;
        }
        if (pthread_setspecific(verify_slot_key, slots) != 0) {
            free(slots);
            return NULL;
        }
    }
    verify_slot *slot = &slots[which];
    if (slot->ctx != NULL && slot->key == key) {
        return slot->ctx;
    }
    EVP_PKEY_CTX_free(slot->ctx);
    slot->ctx = NULL;
    slot->key = NULL;
    slot->rsa_md = NULL;
    EVP_PKEY_CTX *context = EVP_PKEY_CTX_new(key, NULL);
    if (context == NULL) {
        return NULL;
    }
    if (EVP_PKEY_verify_init(context) != 1) {
        EVP_PKEY_CTX_free(context);
        return NULL;
    }
    slot->ctx = context;
    slot->key = key;
    return context;
}

EVP_PKEY_CTX *cjws_internal_rsa_verify_context(EVP_PKEY *key, const EVP_MD *md) {
    EVP_PKEY_CTX *context = cjws_internal_verify_context(CJWS_INTERNAL_VERIFY_SLOT_RSA, key);
    if (context == NULL || md == NULL) {
        return NULL;
    }
    /* The slot exists: cjws_internal_verify_context made it. Padding and digest stay set on the context
     * across EVP_PKEY_verify calls, so they are set once per (key, digest) and thread: setting them is a
     * provider parameter exchange that costs about a sixth of an RSA-2048 verification. */
    verify_slot *slot = &((verify_slot *)pthread_getspecific(verify_slot_key))[CJWS_INTERNAL_VERIFY_SLOT_RSA];
    if (slot->rsa_md == md) {
        return context;
    }
    slot->rsa_md = NULL;
    if (EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_PADDING) != 1 || EVP_PKEY_CTX_set_signature_md(context, md) != 1) {
        return NULL;
    }
    slot->rsa_md = md;
    return context;
}

int cjws_es256_verify(EVP_PKEY *key, const void *message, size_t message_length, const void *signature,
                      size_t signature_length) {
    ERR_clear_error();
    if (key == NULL || signature_length != 64) {
        return 0;
    }
    unsigned char digest[32];
    if (!cjws_sha256(message, message_length, digest)) {
        return -1;
    }
    unsigned char *der = NULL;
    int der_length = raw_signature_to_der(signature, 32, &der);
    if (der_length <= 0) {
        return -1;
    }
    int result = -1;
    EVP_PKEY_CTX *context = cjws_internal_verify_context(CJWS_INTERNAL_VERIFY_SLOT_ES256, key); /* owned by this thread's slot */
    if (context != NULL) {
        int verdict = EVP_PKEY_verify(context, der, (size_t)der_length, digest, sizeof digest);
        /* 1: valid; 0: invalid; negative: malformed signature or internal error. A well-formed
         * R || S pair with R or S out of range is an invalid signature, not an error. */
        result = verdict == 1 ? 1 : 0;
        ERR_clear_error();
    }
    OPENSSL_free(der);
    return result;
}
