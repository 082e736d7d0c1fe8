/* Signatures: ES256 and raw or DER ECDSA signatures of tokens, and the forged ES256 signature for
 * the point at infinity (the CJWSTesting.h functions cjwst_sign_*, cjwst_forge_es256_infinity). */
#include "internal.h"

#include <limits.h>

#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>

static const unsigned char empty_message[1] = {0};

static const char *digest_name(int digest) {
    switch (digest) {
    case CJWST_DIGEST_SHA1: return "SHA1";
    case CJWST_DIGEST_SHA256: return "SHA256";
    case CJWST_DIGEST_SHA384: return "SHA384";
    case CJWST_DIGEST_SHA512: return "SHA512";
    default: return NULL;
    }
}

/* DER ECDSA-Sig-Value over `message` hashed with `digest`. */
int cjwst_internal_sign_to_der(EVP_PKEY *pkey, int digest, const void *message,
                               size_t message_len, unsigned char **out_der, size_t *out_len) {
    int ok = 0;
    EVP_MD_CTX *context = NULL;
    unsigned char *signature = NULL;
    size_t signature_len = 0;
    const char *name = digest_name(digest);
    const unsigned char *input = message != NULL ? message : empty_message;

    if (name == NULL || (message == NULL && message_len != 0)) goto done;
    context = EVP_MD_CTX_new();
    if (context == NULL) goto done;
    if (EVP_DigestSignInit_ex(context, NULL, name, NULL, NULL, pkey, NULL) != 1) goto done;
    if (EVP_DigestSign(context, NULL, &signature_len, input, message_len) != 1) goto done;
    signature = OPENSSL_malloc(signature_len);
    if (signature == NULL) goto done;
    if (EVP_DigestSign(context, signature, &signature_len, input, message_len) != 1) goto done;
    *out_der = signature;
    *out_len = signature_len;
    signature = NULL;
    ok = 1;
done:
    OPENSSL_free(signature);
    EVP_MD_CTX_free(context);
    return ok;
}

/* Raw R||S, each half left-padded to the curve's field size. */
static int sign_raw(EVP_PKEY *key, int digest, const void *message, size_t message_len,
                    unsigned char **out_signature, size_t *out_len, const char **step) {
    int ok = 0;
    unsigned char *der = NULL;
    size_t der_len = 0;
    const unsigned char *cursor = NULL;
    ECDSA_SIG *signature = NULL;
    const BIGNUM *r = NULL;
    const BIGNUM *s = NULL;
    unsigned char *raw = NULL;
    size_t half = cjwst_internal_curve_field_bytes(cjwst_key_curve(key));

    *step = "unsupported curve";
    if (half == 0 || half > INT_MAX / 2) goto done;
    *step = "EVP_DigestSign";
    if (!cjwst_internal_sign_to_der(key, digest, message, message_len, &der, &der_len))
        goto done;
    *step = "d2i_ECDSA_SIG";
    if (der_len > LONG_MAX) goto done;
    cursor = der;
    signature = d2i_ECDSA_SIG(NULL, &cursor, (long)der_len);
    if (signature == NULL) goto done;
    ECDSA_SIG_get0(signature, &r, &s);
    if (r == NULL || s == NULL) goto done;
    *step = "BN_bn2binpad";
    raw = OPENSSL_malloc(2 * half);
    if (raw == NULL) goto done;
    if (BN_bn2binpad(r, raw, (int)half) != (int)half) goto done;
    if (BN_bn2binpad(s, raw + half, (int)half) != (int)half) goto done;
    *out_signature = raw;
    *out_len = 2 * half;
    raw = NULL;
    ok = 1;
done:
    OPENSSL_free(raw);
    ECDSA_SIG_free(signature);
    OPENSSL_free(der);
    return ok;
}

int cjwst_sign_es256(EVP_PKEY *key, const void *message, size_t message_len,
                     unsigned char **out_signature, size_t *out_len) {
    int ok = 0;
    const char *step = "invalid arguments";

    cjwst_internal_begin();
    if (out_signature != NULL) *out_signature = NULL;
    CHECK(key != NULL && out_signature != NULL && out_len != NULL,
          "invalid arguments");
    CHECK(cjwst_key_curve(key) == CJWST_CURVE_P256, "ES256 needs a P-256 key");
    ok = sign_raw(key, CJWST_DIGEST_SHA256, message, message_len, out_signature, out_len, &step);
done:
    return cjwst_internal_finish(ok, __func__, step);
}

int cjwst_sign_raw(EVP_PKEY *key, int digest, const void *message, size_t message_len,
                   unsigned char **out_signature, size_t *out_len) {
    int ok = 0;
    const char *step = "invalid arguments";

    cjwst_internal_begin();
    if (out_signature != NULL) *out_signature = NULL;
    CHECK(key != NULL && out_signature != NULL && out_len != NULL,
          "invalid arguments");
    ok = sign_raw(key, digest, message, message_len, out_signature, out_len, &step);
done:
    return cjwst_internal_finish(ok, __func__, step);
}

int cjwst_sign_der(EVP_PKEY *key, int digest, const void *message, size_t message_len,
                   unsigned char **out_signature, size_t *out_len) {
    int ok = 0;
    const char *step = "invalid arguments";

    cjwst_internal_begin();
    if (out_signature != NULL) *out_signature = NULL;
    CHECK(key != NULL && out_signature != NULL && out_len != NULL,
          "invalid arguments");
    step = "EVP_DigestSign";
    ok = cjwst_internal_sign_to_der(key, digest, message, message_len, out_signature,
                                    out_len);
done:
    return cjwst_internal_finish(ok, __func__, step);
}

int cjwst_forge_es256_infinity(const void *message, size_t message_len, const void *k,
                               size_t k_len, unsigned char **out_signature, size_t *out_len) {
    int ok = 0;
    const char *step = "invalid arguments";
    EC_GROUP *group = NULL;
    BN_CTX *context = NULL;
    EC_POINT *point = NULL;
    BIGNUM *scalar = NULL, *x = NULL, *r = NULL, *s = NULL, *e = NULL, *inverse = NULL;
    const BIGNUM *order = NULL;
    unsigned char digest[32];
    unsigned int digest_len = 0;
    unsigned char *raw = NULL;
    const unsigned char *input = message != NULL ? message : empty_message;

    cjwst_internal_begin();
    if (out_signature != NULL) *out_signature = NULL;
    CHECK(out_signature != NULL && out_len != NULL && (message != NULL || message_len == 0) &&
              (k == NULL || (k_len > 0 && k_len <= 32)),
          "invalid arguments");
    CHECK(EVP_Digest(input, message_len, digest, &digest_len, EVP_sha256(), NULL) == 1 &&
              digest_len == 32,
          "SHA-256");
    group = EC_GROUP_new_by_curve_name_ex(NULL, NULL, NID_X9_62_prime256v1);
    CHECK(group != NULL, "EC_GROUP_new_by_curve_name_ex");
    context = BN_CTX_new();
    CHECK(context != NULL, "BN_CTX_new");
    order = EC_GROUP_get0_order(group);
    CHECK(order != NULL, "EC_GROUP_get0_order");
    scalar = BN_new();
    x = BN_new();
    r = BN_new();
    s = BN_new();
    e = BN_bin2bn(digest, 32, NULL);
    inverse = BN_new();
    point = EC_POINT_new(group);
    CHECK(scalar != NULL && x != NULL && r != NULL && s != NULL && e != NULL && inverse != NULL &&
              point != NULL,
          "allocation");
    CHECK(BN_nnmod(e, e, order, context) == 1, "BN_nnmod (e)");
    for (int attempt = 0;; attempt++) {
        CHECK(attempt < 64 && (k == NULL || attempt == 0), "k gives r = 0 or s = 0");
        if (k != NULL) {
            CHECK(BN_bin2bn(k, (int)k_len, scalar) != NULL, "BN_bin2bn (k)");
            CHECK(BN_nnmod(scalar, scalar, order, context) == 1, "BN_nnmod (k)");
        } else {
            CHECK(BN_rand_range(scalar, order) == 1, "BN_rand_range");
        }
        if (BN_is_zero(scalar)) continue;
        CHECK(EC_POINT_mul(group, point, scalar, NULL, NULL, context) == 1, "EC_POINT_mul");
        CHECK(EC_POINT_get_affine_coordinates(group, point, x, NULL, context) == 1, "affine x");
        CHECK(BN_nnmod(r, x, order, context) == 1, "BN_nnmod (r)");
        CHECK(BN_mod_inverse(inverse, scalar, order, context) != NULL, "BN_mod_inverse");
        CHECK(BN_mod_mul(s, e, inverse, order, context) == 1, "BN_mod_mul");
        if (!BN_is_zero(r) && !BN_is_zero(s)) break;
    }
    raw = OPENSSL_malloc(64);
    CHECK(raw != NULL, "OPENSSL_malloc");
    CHECK(BN_bn2binpad(r, raw, 32) == 32 && BN_bn2binpad(s, raw + 32, 32) == 32, "BN_bn2binpad");
    *out_signature = raw;
    *out_len = 64;
    raw = NULL;
    ok = 1;
done:
    OPENSSL_free(raw);
    BN_free(inverse);
    BN_free(e);
    BN_free(s);
    BN_free(r);
    BN_free(x);
    BN_clear_free(scalar);
    EC_POINT_free(point);
    BN_CTX_free(context);
    EC_GROUP_free(group);
    return cjwst_internal_finish(ok, __func__, step);
}
