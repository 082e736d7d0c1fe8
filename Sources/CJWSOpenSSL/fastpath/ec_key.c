/*
 * ECDSA verification with a per-key fixed-base table (see CJWSOpenSSL.h, "EC verification keys").
 *
 * An ECDSA verification computes u1·G + u2·Q. OpenSSL multiplies the key Q with a variable-base
 * windowed multiplication (and, for P-384 in 3.0, G too), most of the verification. A server verifies
 * every App Store token with the same few leaf keys (P-256), and every new leaf with the same few
 * intermediate keys (P-384), so once a key has verified enough valid signatures this file builds a
 * precomputed table for Q (OpenSSL's EC_GROUP_precompute_mult on a copy of the curve's group whose
 * generator is Q) and verifies with two fixed-base multiplications. The arithmetic is OpenSSL's; this
 * file only combines it, following the verification steps of SEC 1 v2 §4.1.4 / FIPS 186-5 §6.4.2,
 * which is what OpenSSL's ECDSA verification does:
 *   r, s in [1, n-1]; e = the leftmost bits of the digest, as many as n has; w = s^-1 mod n;
 *   u1 = e·w mod n; u2 = r·w mod n; R = u1·G + u2·Q; reject R at infinity; accept iff x(R) mod n = r.
 * Verification handles public values only, so nothing here needs to be constant-time.
 *
 * How each curve's fixed-base multiplications run:
 *   P-256: OpenSSL's P-256 code (ecp_nistz256) has its own table for G and builds one for Q's group;
 *          EC_POINT_mul(group, r, u, NULL, NULL) uses them.
 *   P-384: OpenSSL 3.0 sends a generator-only multiplication to its constant-time ladder, which
 *          ignores any table (ec_wNAF_mul: "scalar != NULL && num == 0"). With one extra term, the
 *          point at infinity times zero, the same call takes the windowed (wNAF) path that uses the
 *          precomputed table: about 200 µs instead of 1,000 here. The extra term adds nothing to the
 *          sum. Both G's table (per key: 2 ms) and Q's are built with EC_GROUP_precompute_mult.
 */
/* The fixed-base tables need EC_GROUP_precompute_mult, deprecated in OpenSSL 3.0 with no replacement:
 * the one file of the module compiled with the deprecated API visible (see internal.h). */
#define CJWS_INTERNAL_USES_DEPRECATED_EC 1
#include "../internal.h"

#include <limits.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

struct cjws_ec_key {
    EVP_PKEY *pkey;            /* owned (one reference) */
    int nid;                   /* NID_X9_62_prime256v1 or NID_secp384r1 when a table is possible */
    atomic_uint_fast64_t uses; /* valid signatures verified before the table */
    atomic_int state;          /* enum table_state; READY is published with release order */
    EC_GROUP *group;           /* the curve, generator G with its table; set when READY */
    EC_GROUP *key_group;       /* the curve with generator Q and Q's table; set when READY */
    uint64_t threshold;        /* valid signatures before the table is built */
};

cjws_ec_key *cjws_ec_key_new(EVP_PKEY *pkey, uint64_t threshold) {
    if (pkey == NULL || EVP_PKEY_up_ref(pkey) != 1) {
        return NULL;
    }
    cjws_ec_key *key = calloc(1, sizeof *key);
    if (key == NULL) {
        EVP_PKEY_free(pkey);
        return NULL;
    }
    key->pkey = pkey;
    key->nid = cjws_pkey_ec_curve_nid(pkey);
    atomic_init(&key->uses, 0);
    int usable = CJWS_FIXED_BASE_TABLES && (key->nid == NID_X9_62_prime256v1 || key->nid == NID_secp384r1);
    atomic_init(&key->state, usable ? TABLE_NONE : TABLE_UNAVAILABLE);
    key->threshold = threshold;
    return key;
}

void cjws_ec_key_free(cjws_ec_key *key) {
    if (key == NULL) {
        return;
    }
    EC_GROUP_free(key->group);
    EC_GROUP_free(key->key_group);
    EVP_PKEY_free(key->pkey);
    free(key);
}

#if CJWS_FIXED_BASE_TABLES
/* The curve with generator Q (the key's point) and a precomputed table for it, plus the curve with
 * its own generator's table; 1 on success. */
static int build_table(cjws_ec_key *key) {
    int ok = 0;
    EC_GROUP *group = EC_GROUP_new_by_curve_name(key->nid);
    EC_GROUP *key_group = group != NULL ? EC_GROUP_dup(group) : NULL;
    EC_POINT *point = key_group != NULL ? EC_POINT_new(key_group) : NULL;
    BIGNUM *cofactor = BN_new();
    unsigned char encoded[133]; /* an uncompressed point of up to 521 bits */
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
    /* P-256's G table is built into OpenSSL; P-384's is not. */
    if (key->nid != NID_X9_62_prime256v1 && EC_GROUP_precompute_mult(group, NULL) != 1) {
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

/* result = scalar · (group's generator), with the group's precomputed table (see the file comment). */
static int fixed_base_multiply(const cjws_ec_key *key, const EC_GROUP *group, EC_POINT *result, const BIGNUM *scalar,
                               BN_CTX *context) {
    if (key->nid == NID_X9_62_prime256v1) {
        return EC_POINT_mul(group, result, scalar, NULL, NULL, context);
    }
    int ok = 0;
    EC_POINT *infinity = EC_POINT_new(group);
    BIGNUM *zero = BN_new();
    if (infinity != NULL && zero != NULL && EC_POINT_set_to_infinity(group, infinity) == 1) {
        BN_zero(zero);
        const EC_POINT *points[1] = {infinity};
        const BIGNUM *scalars[1] = {zero};
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
        /* Deprecated in 3.0 like EC_GROUP_precompute_mult (same guard); EC_POINT_mul cannot pass
         * the extra term. */
        ok = EC_POINTs_mul(group, result, scalar, 1, points, scalars, context);
#pragma GCC diagnostic pop
    }
    EC_POINT_free(infinity);
    BN_free(zero);
    return ok;
}

/* 1 valid, 0 invalid, -1 internal error. `r` and `s` are the signature's integers, `digest` the
 * message digest (any length: its leftmost bits are used, as many as the order has). */
static int verify_with_table(const cjws_ec_key *key, const BIGNUM *r_in, const BIGNUM *s_in,
                             const unsigned char *digest, size_t digest_length) {
    int result = -1;
    BN_CTX *context = BN_CTX_new();
    EC_POINT *sum = key->group != NULL ? EC_POINT_new(key->group) : NULL;
    EC_POINT *keyed = key->key_group != NULL ? EC_POINT_new(key->key_group) : NULL;
    if (context == NULL || sum == NULL || keyed == NULL || digest_length > INT_MAX) {
        goto done;
    }
    BN_CTX_start(context);
    BIGNUM *e = BN_CTX_get(context), *w = BN_CTX_get(context), *u1 = BN_CTX_get(context);
    BIGNUM *u2 = BN_CTX_get(context), *x = BN_CTX_get(context);
    if (x == NULL) {
        goto end;
    }
    const BIGNUM *order = EC_GROUP_get0_order(key->group);
    /* r and s must lie in [1, n-1]. */
    if (BN_is_zero(r_in) || BN_is_zero(s_in) || BN_is_negative(r_in) || BN_is_negative(s_in) ||
        BN_cmp(r_in, order) >= 0 || BN_cmp(s_in, order) >= 0) {
        result = 0;
        goto end;
    }
    /* e: the leftmost bits of the digest, as many as the order has (SEC 1 §4.1.4 step 3). */
    int order_bits = BN_num_bits(order);
    size_t used = digest_length;
    if (8 * used > (size_t)order_bits) {
        used = ((size_t)order_bits + 7) / 8;
    }
    if (BN_bin2bn(digest, (int)used, e) == NULL) {
        goto end;
    }
    if (8 * used > (size_t)order_bits && BN_rshift(e, e, 8 - (order_bits & 7)) != 1) {
        goto end;
    }
    if (cjws_internal_inverse_mod_order(w, s_in, order, context) != 1 || BN_mod_mul(u1, e, w, order, context) != 1 ||
        BN_mod_mul(u2, r_in, w, order, context) != 1) {
        goto end;
    }
    /* u1·G with the table for G, u2·Q with the key's table (Q is key_group's generator). */
    if (fixed_base_multiply(key, key->group, sum, u1, context) != 1 ||
        fixed_base_multiply(key, key->key_group, keyed, u2, context) != 1 ||
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
    result = BN_cmp(x, r_in) == 0 ? 1 : 0;

end:
    BN_CTX_end(context);
done:
    EC_POINT_free(sum);
    EC_POINT_free(keyed);
    BN_CTX_free(context);
    return result;
}
#endif

int cjws_ec_key_prepare(cjws_ec_key *key) {
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

int cjws_ec_key_has_table(cjws_ec_key *key) {
    return atomic_load_explicit(&key->state, memory_order_acquire) == TABLE_READY;
}

/* Only valid signatures count: only the key's real signer can make it hot (forged or altered data
 * under a copied chain cannot make it build a table). Counted only until the table exists, so a hot
 * key's verifications write no shared cache line. One thread builds (once per key); the others keep
 * OpenSSL's path meanwhile. */
static void count_valid(cjws_ec_key *key) {
    if (atomic_load_explicit(&key->state, memory_order_relaxed) == TABLE_NONE &&
        atomic_fetch_add_explicit(&key->uses, 1, memory_order_relaxed) + 1 >= key->threshold) {
        cjws_ec_key_prepare(key);
    }
}

int cjws_ec_key_verify_es256(cjws_ec_key *key, const void *message, size_t message_length, const void *signature,
                             size_t signature_length) {
    if (key == NULL) {
        return 0;
    }
#if CJWS_FIXED_BASE_TABLES
    if (atomic_load_explicit(&key->state, memory_order_acquire) == TABLE_READY) {
        ERR_clear_error();
        if (signature_length != 64 || key->nid != NID_X9_62_prime256v1) {
            return 0;
        }
        unsigned char digest[32];
        if (!cjws_sha256(message, message_length, digest)) {
            return -1;
        }
        int verdict = -1;
        BIGNUM *r = BN_bin2bn(signature, 32, NULL);
        BIGNUM *s = BN_bin2bn((const unsigned char *)signature + 32, 32, NULL);
        if (r != NULL && s != NULL) {
            verdict = verify_with_table(key, r, s, digest, sizeof digest);
        }
        BN_free(r);
        BN_free(s);
        if (verdict >= 0) {
            return verdict;
        }
        /* An internal error (allocation): OpenSSL's own path decides instead. */
        ERR_clear_error();
        return cjws_es256_verify(key->pkey, message, message_length, signature, signature_length);
    }
    int verdict = cjws_es256_verify(key->pkey, message, message_length, signature, signature_length);
    if (verdict == 1) {
        count_valid(key);
    }
    return verdict;
#else
    return cjws_es256_verify(key->pkey, message, message_length, signature, signature_length);
#endif
}

/* OpenSSL's own verification of a DER signature over a digest, with this thread's cached context. */
static int verify_digest_with_openssl(cjws_ec_key *key, const unsigned char *digest, size_t digest_length,
                                      const unsigned char *signature, size_t signature_length) {
    EVP_PKEY_CTX *context = cjws_internal_verify_context(CJWS_INTERNAL_VERIFY_SLOT_ISSUER, key->pkey);
    if (context == NULL) {
        return -1;
    }
    /* OpenSSL's ECDSA verification refuses a signature that is not strict DER or has bytes after it. */
    int verdict = EVP_PKEY_verify(context, signature, signature_length, digest, digest_length);
    ERR_clear_error();
    return verdict == 1 ? 1 : 0;
}

int cjws_ec_key_verify_digest(cjws_ec_key *key, const unsigned char *digest, size_t digest_length,
                              const unsigned char *signature, size_t signature_length) {
    ERR_clear_error();
    if (key == NULL || digest == NULL || signature == NULL || signature_length == 0 || signature_length > INT_MAX) {
        return 0;
    }
#if CJWS_FIXED_BASE_TABLES
    if (atomic_load_explicit(&key->state, memory_order_acquire) == TABLE_READY) {
        /* Strict DER, nothing after it: what OpenSSL's ECDSA verification requires (it re-encodes
         * and compares). */
        const unsigned char *cursor = signature;
        ECDSA_SIG *parsed = d2i_ECDSA_SIG(NULL, &cursor, (long)signature_length);
        unsigned char *reencoded = NULL;
        int reencoded_length = parsed != NULL ? i2d_ECDSA_SIG(parsed, &reencoded) : -1;
        int strict = parsed != NULL && cursor == signature + signature_length && reencoded_length > 0 &&
                     (size_t)reencoded_length == signature_length &&
                     memcmp(reencoded, signature, signature_length) == 0;
        int verdict = 0;
        if (strict) {
            verdict = verify_with_table(key, ECDSA_SIG_get0_r(parsed), ECDSA_SIG_get0_s(parsed), digest, digest_length);
        }
        OPENSSL_free(reencoded);
        ECDSA_SIG_free(parsed);
        ERR_clear_error();
        if (verdict >= 0) {
            return verdict;
        }
        /* An internal error (allocation): OpenSSL's own path decides instead. */
        return verify_digest_with_openssl(key, digest, digest_length, signature, signature_length);
    }
    int verdict = verify_digest_with_openssl(key, digest, digest_length, signature, signature_length);
    if (verdict == 1) {
        count_valid(key);
    }
    return verdict;
#else
    return verify_digest_with_openssl(key, digest, digest_length, signature, signature_length);
#endif
}
