/*
 * ES256 verification with a per-key fixed-base table (see CJWSOpenSSL.h, "ES256 keys").
 *
 * An ECDSA verification computes u1·G + u2·Q. OpenSSL's P-256 code multiplies the generator G with a
 * precomputed table and the key Q with a variable-base windowed multiplication, about two thirds of the
 * verification. A server verifies every App Store token with the same few leaf keys, so once a key
 * has verified enough signatures this file builds the same kind of table for Q (OpenSSL's
 * EC_GROUP_precompute_mult on a copy of the P-256 group whose generator is Q) and verifies with two
 * fixed-base multiplications. The arithmetic is OpenSSL's; this file only combines it, following the
 * verification steps of SEC 1 v2 §4.1.4 / FIPS 186-5 §6.4.2, which is what ECDSA_do_verify does:
 *   r, s in [1, n-1]; e = SHA-256(message) (256 bits, no truncation for P-256); w = s^-1 mod n;
 *   u1 = e·w mod n; u2 = r·w mod n; R = u1·G + u2·Q; reject R at infinity; accept iff x(R) mod n = r.
 * Verification handles public values only, so nothing here needs to be constant-time.
 */
#include "CJWSOpenSSL.h"

#include <stdatomic.h>
#include <stdlib.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/obj_mac.h>
#include <openssl/opensslv.h>

/* EC_GROUP_precompute_mult is deprecated in OpenSSL 3.0 with no replacement for a key's own table;
 * builds without the 3.0 deprecated API (or a later major version) keep OpenSSL's own path only. */
#if OPENSSL_VERSION_MAJOR == 3 && !defined(OPENSSL_NO_DEPRECATED_3_0)
#define CJWS_FIXED_BASE_TABLES 1
#else
#define CJWS_FIXED_BASE_TABLES 0
#endif

enum table_state { TABLE_NONE = 0, TABLE_BUILDING = 1, TABLE_READY = 2, TABLE_UNAVAILABLE = 3 };

struct cjws_es256_key {
    EVP_PKEY *pkey;             /* owned (one reference) */
    atomic_uint_fast64_t uses;  /* valid signatures verified before the table */
    atomic_int state;           /* enum table_state; READY is published with release order */
    EC_GROUP *group;            /* P-256, generator G (OpenSSL's built-in table); set when READY */
    EC_GROUP *key_group;        /* P-256 with generator Q and Q's table; set when READY */
    uint64_t threshold;         /* valid signatures before the table is built */
};

cjws_es256_key *cjws_es256_key_new(EVP_PKEY *pkey, uint64_t threshold) {
    if (pkey == NULL || EVP_PKEY_up_ref(pkey) != 1) {
        return NULL;
    }
    cjws_es256_key *key = calloc(1, sizeof *key);
    if (key == NULL) {
        EVP_PKEY_free(pkey);
        return NULL;
    }
    key->pkey = pkey;
    atomic_init(&key->uses, 0);
    int usable = CJWS_FIXED_BASE_TABLES && cjws_pkey_ec_curve_nid(pkey) == NID_X9_62_prime256v1;
    atomic_init(&key->state, usable ? TABLE_NONE : TABLE_UNAVAILABLE);
    key->threshold = threshold;
    return key;
}

void cjws_es256_key_free(cjws_es256_key *key) {
    if (key == NULL) {
        return;
    }
    EC_GROUP_free(key->group);
    EC_GROUP_free(key->key_group);
    EVP_PKEY_free(key->pkey);
    free(key);
}

#if CJWS_FIXED_BASE_TABLES
/* P-256 with generator Q (the key's point) and a precomputed table for it, plus the standard group;
 * 1 on success. */
static int build_table(cjws_es256_key *key) {
    int ok = 0;
    EC_GROUP *group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
    EC_GROUP *key_group = group != NULL ? EC_GROUP_dup(group) : NULL;
    EC_POINT *point = key_group != NULL ? EC_POINT_new(key_group) : NULL;
    BIGNUM *cofactor = BN_new();
    unsigned char encoded[65];
    size_t encoded_length = 0;
    if (point == NULL || cofactor == NULL || BN_one(cofactor) != 1) {
        goto done;
    }
    if (EVP_PKEY_get_octet_string_param(key->pkey, OSSL_PKEY_PARAM_PUB_KEY, encoded, sizeof encoded,
                                        &encoded_length) != 1) {
        goto done;
    }
    /* oct2point checks that the point is on the curve; the generator must not be the identity. */
    if (EC_POINT_oct2point(key_group, point, encoded, encoded_length, NULL) != 1 ||
        EC_POINT_is_at_infinity(key_group, point)) {
        goto done;
    }
    if (EC_GROUP_set_generator(key_group, point, EC_GROUP_get0_order(group), cofactor) != 1) {
        goto done;
    }
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    if (EC_GROUP_precompute_mult(key_group, NULL) != 1) {
        goto done;
    }
#pragma GCC diagnostic pop
    key->group = group;
    key->key_group = key_group;
    group = NULL;
    key_group = NULL;
    ok = 1;

done:
    EC_POINT_free(point);
    BN_free(cofactor);
    EC_GROUP_free(group);
    EC_GROUP_free(key_group);
    ERR_clear_error();
    return ok;
}

/* 1 valid, 0 invalid, -1 internal error; `digest` is SHA-256 of the message, `raw` is R || S. */
static int verify_with_table(const cjws_es256_key *key, const unsigned char *digest, const unsigned char *raw) {
    int result = -1;
    BN_CTX *context = BN_CTX_new();
    EC_POINT *sum = key->group != NULL ? EC_POINT_new(key->group) : NULL;
    EC_POINT *keyed = key->key_group != NULL ? EC_POINT_new(key->key_group) : NULL;
    if (context == NULL || sum == NULL || keyed == NULL) {
        goto done;
    }
    BN_CTX_start(context);
    BIGNUM *r = BN_CTX_get(context), *s = BN_CTX_get(context), *e = BN_CTX_get(context);
    BIGNUM *w = BN_CTX_get(context), *u1 = BN_CTX_get(context), *u2 = BN_CTX_get(context);
    BIGNUM *x = BN_CTX_get(context);
    if (x == NULL) {
        goto end;
    }
    const BIGNUM *order = EC_GROUP_get0_order(key->group);
    if (BN_bin2bn(raw, 32, r) == NULL || BN_bin2bn(raw + 32, 32, s) == NULL || BN_bin2bn(digest, 32, e) == NULL) {
        goto end;
    }
    /* r and s must lie in [1, n-1] (they are unsigned here). */
    if (BN_is_zero(r) || BN_is_zero(s) || BN_cmp(r, order) >= 0 || BN_cmp(s, order) >= 0) {
        result = 0;
        goto end;
    }
    if (BN_mod_inverse(w, s, order, context) == NULL || BN_mod_mul(u1, e, w, order, context) != 1 ||
        BN_mod_mul(u2, r, w, order, context) != 1) {
        goto end;
    }
    /* u1·G with OpenSSL's table for G, u2·Q with the key's table (Q is key_group's generator). */
    if (EC_POINT_mul(key->group, sum, u1, NULL, NULL, context) != 1 ||
        EC_POINT_mul(key->key_group, keyed, u2, NULL, NULL, context) != 1 ||
        EC_POINT_add(key->group, sum, sum, keyed, context) != 1) {
        goto end;
    }
    if (EC_POINT_is_at_infinity(key->group, sum)) {
        result = 0;
        goto end;
    }
    if (EC_POINT_get_affine_coordinates(key->group, sum, x, NULL, context) != 1 ||
        BN_nnmod(x, x, order, context) != 1) {
        goto end;
    }
    result = BN_cmp(x, r) == 0 ? 1 : 0;

end:
    BN_CTX_end(context);
done:
    EC_POINT_free(sum);
    EC_POINT_free(keyed);
    BN_CTX_free(context);
    return result;
}
#endif

int cjws_es256_key_prepare(cjws_es256_key *key) {
#if CJWS_FIXED_BASE_TABLES
    int expected = TABLE_NONE;
    if (atomic_compare_exchange_strong_explicit(&key->state, &expected, TABLE_BUILDING, memory_order_acq_rel,
                                                memory_order_acquire)) {
        int built = build_table(key);
        atomic_store_explicit(&key->state, built ? TABLE_READY : TABLE_UNAVAILABLE, memory_order_release);
        return built;
    }
    return expected == TABLE_READY;
#else
    (void)key;
    return 0;
#endif
}

int cjws_es256_key_has_table(cjws_es256_key *key) {
    return atomic_load_explicit(&key->state, memory_order_acquire) == TABLE_READY;
}

int cjws_es256_key_verify(cjws_es256_key *key, const void *message, size_t message_length, const void *signature,
                          size_t signature_length) {
    if (key == NULL) {
        return 0;
    }
#if CJWS_FIXED_BASE_TABLES
    if (atomic_load_explicit(&key->state, memory_order_acquire) == TABLE_READY) {
        ERR_clear_error();
        if (signature_length != 64) {
            return 0;
        }
        unsigned char digest[32];
        if (!cjws_sha256(message, message_length, digest)) {
            return -1;
        }
        int verdict = verify_with_table(key, digest, signature);
        if (verdict >= 0) {
            return verdict;
        }
        /* An internal error (allocation): OpenSSL's own path decides instead. */
        ERR_clear_error();
        return cjws_es256_verify(key->pkey, message, message_length, signature, signature_length);
    }
    int verdict = cjws_es256_verify(key->pkey, message, message_length, signature, signature_length);
    /* Only valid signatures count: only the key's real signer can make it hot (forged or altered
     * tokens under a copied chain cannot make it build a table). Counted only until the table exists,
     * so a hot key's verifications write no shared cache line. One thread builds (about 100 ms, once
     * per key); the others keep OpenSSL's path meanwhile. */
    if (verdict == 1 && atomic_load_explicit(&key->state, memory_order_relaxed) == TABLE_NONE &&
        atomic_fetch_add_explicit(&key->uses, 1, memory_order_relaxed) + 1 >= key->threshold) {
        cjws_es256_key_prepare(key);
    }
    return verdict;
#else
    return cjws_es256_verify(key->pkey, message, message_length, signature, signature_length);
#endif
}
