/* The forged ES256 signature for the point at infinity (the CJWSTesting.h function
 * cjwst_forge_es256_infinity). Real signatures of keys and tokens are CJWSSigning's (cjwss_sign), the
 * one signer, which takes the CJWST_DIGEST_* values as its own: */
#include "internal.h"

_Static_assert(CJWST_DIGEST_SHA1 == CJWSS_DIGEST_SHA1 && CJWST_DIGEST_SHA256 == CJWSS_DIGEST_SHA256 &&
                   CJWST_DIGEST_SHA384 == CJWSS_DIGEST_SHA384 && CJWST_DIGEST_SHA512 == CJWSS_DIGEST_SHA512,
               "CJWSTesting's digests are CJWSSigning's");

#include <limits.h>

#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>

static const unsigned char empty_message[1] = {0};

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

    cjwss_internal_begin();
    if (out_signature != NULL) *out_signature = NULL;
    CJWSS_CHECK(out_signature != NULL && out_len != NULL && (message != NULL || message_len == 0) &&
              (k == NULL || (k_len > 0 && k_len <= 32)),
          "invalid arguments");
    CJWSS_CHECK(EVP_Digest(input, message_len, digest, &digest_len, EVP_sha256(), NULL) == 1 &&
              digest_len == 32,
          "SHA-256");
    group = EC_GROUP_new_by_curve_name_ex(NULL, NULL, NID_X9_62_prime256v1);
    CJWSS_CHECK(group != NULL, "EC_GROUP_new_by_curve_name_ex");
    context = BN_CTX_new();
    CJWSS_CHECK(context != NULL, "BN_CTX_new");
    order = EC_GROUP_get0_order(group);
    CJWSS_CHECK(order != NULL, "EC_GROUP_get0_order");
    scalar = BN_new();
    x = BN_new();
    r = BN_new();
    s = BN_new();
    e = BN_bin2bn(digest, 32, NULL);
    inverse = BN_new();
    point = EC_POINT_new(group);
    CJWSS_CHECK(scalar != NULL && x != NULL && r != NULL && s != NULL && e != NULL && inverse != NULL &&
              point != NULL,
          "allocation");
    CJWSS_CHECK(BN_nnmod(e, e, order, context) == 1, "BN_nnmod (e)");
    for (int attempt = 0;; attempt++) {
        CJWSS_CHECK(attempt < 64 && (k == NULL || attempt == 0), "k gives r = 0 or s = 0");
        if (k != NULL) {
            CJWSS_CHECK(BN_bin2bn(k, (int)k_len, scalar) != NULL, "BN_bin2bn (k)");
            CJWSS_CHECK(BN_nnmod(scalar, scalar, order, context) == 1, "BN_nnmod (k)");
        } else {
            CJWSS_CHECK(BN_rand_range(scalar, order) == 1, "BN_rand_range");
        }
        if (BN_is_zero(scalar)) continue;
        CJWSS_CHECK(EC_POINT_mul(group, point, scalar, NULL, NULL, context) == 1, "EC_POINT_mul");
        CJWSS_CHECK(EC_POINT_get_affine_coordinates(group, point, x, NULL, context) == 1, "affine x");
        CJWSS_CHECK(BN_nnmod(r, x, order, context) == 1, "BN_nnmod (r)");
        CJWSS_CHECK(BN_mod_inverse(inverse, scalar, order, context) != NULL, "BN_mod_inverse");
        CJWSS_CHECK(BN_mod_mul(s, e, inverse, order, context) == 1, "BN_mod_mul");
        if (!BN_is_zero(r) && !BN_is_zero(s)) break;
    }
    raw = OPENSSL_malloc(64);
    CJWSS_CHECK(raw != NULL, "OPENSSL_malloc");
    CJWSS_CHECK(BN_bn2binpad(r, raw, 32) == 32 && BN_bn2binpad(s, raw + 32, 32) == 32, "BN_bn2binpad");
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
    return cjwss_internal_finish(ok, __func__, step);
}
