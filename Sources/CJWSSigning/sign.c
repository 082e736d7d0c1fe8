/* Signatures (the CJWSSigning.h section "signatures"): ECDSA through EVP_DigestSign, as DER or as r||s, and
 * the entry and exit of every exported function of the module. */
#include "internal.h"

#include <limits.h>

#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>

void cjwss_internal_begin(void) { ERR_clear_error(); }

int cjwss_internal_finish(int ok, const char *function, const char *step) {
    if (ok) {
        ERR_clear_error();
        return 1;
    }
    ERR_raise_data(ERR_LIB_USER, 0, "%s: %s", function, step != NULL ? step : "failed");
    return 0;
}

static const unsigned char empty_message[1] = {0};

static const char *digest_name(int digest) {
    switch (digest) {
    case CJWSS_DIGEST_SHA1: return "SHA1";
    case CJWSS_DIGEST_SHA256: return "SHA256";
    case CJWSS_DIGEST_SHA384: return "SHA384";
    case CJWSS_DIGEST_SHA512: return "SHA512";
    default: return NULL;
    }
}

/* OpenSSL's signature of `message` hashed with `digest` (ECDSA: DER ECDSA-Sig-Value). */
static int digest_sign(EVP_PKEY *key, int digest, const void *message, size_t message_length,
                       unsigned char **out_signature, size_t *out_length, const char **failed) {
    int ok = 0;
    const char *step = "unsupported digest";
    EVP_MD_CTX *context = NULL;
    unsigned char *signature = NULL;
    size_t signature_length = 0;
    const char *name = digest_name(digest);
    const unsigned char *input = message != NULL ? message : empty_message;

    CJWSS_CHECK(name != NULL, "unsupported digest");
    context = EVP_MD_CTX_new();
    CJWSS_CHECK(context != NULL, "EVP_MD_CTX_new");
    CJWSS_CHECK(EVP_DigestSignInit_ex(context, NULL, name, NULL, NULL, key, NULL) == 1, "EVP_DigestSignInit_ex");
    CJWSS_CHECK(EVP_DigestSign(context, NULL, &signature_length, input, message_length) == 1, "EVP_DigestSign");
    signature = OPENSSL_malloc(signature_length);
    CJWSS_CHECK(signature != NULL, "OPENSSL_malloc");
    CJWSS_CHECK(EVP_DigestSign(context, signature, &signature_length, input, message_length) == 1,
                "EVP_DigestSign");
    *out_signature = signature;
    *out_length = signature_length;
    signature = NULL;
    ok = 1;
done:
    if (!ok) *failed = step;
    OPENSSL_free(signature);
    EVP_MD_CTX_free(context);
    return ok;
}

/* A DER ECDSA-Sig-Value as r||s, each half left-padded to `half` bytes. */
static int der_to_raw(const unsigned char *der, size_t der_length, size_t half, unsigned char **out_signature,
                      size_t *out_length, const char **failed) {
    int ok = 0;
    const char *step = "d2i_ECDSA_SIG";
    const unsigned char *cursor = der;
    ECDSA_SIG *signature = NULL;
    const BIGNUM *r = NULL;
    const BIGNUM *s = NULL;
    unsigned char *raw = NULL;

    CJWSS_CHECK(der_length <= LONG_MAX && half > 0 && half <= INT_MAX / 2, "signature size");
    signature = d2i_ECDSA_SIG(NULL, &cursor, (long)der_length);
    CJWSS_CHECK(signature != NULL && cursor == der + der_length, "d2i_ECDSA_SIG");
    ECDSA_SIG_get0(signature, &r, &s);
    CJWSS_CHECK(r != NULL && s != NULL, "ECDSA_SIG_get0");
    raw = OPENSSL_malloc(2 * half);
    CJWSS_CHECK(raw != NULL, "OPENSSL_malloc");
    CJWSS_CHECK(BN_bn2binpad(r, raw, (int)half) == (int)half && BN_bn2binpad(s, raw + half, (int)half) == (int)half,
                "BN_bn2binpad");
    *out_signature = raw;
    *out_length = 2 * half;
    raw = NULL;
    ok = 1;
done:
    if (!ok) *failed = step;
    OPENSSL_free(raw);
    ECDSA_SIG_free(signature);
    return ok;
}

int cjwss_sign(EVP_PKEY *key, int digest, int raw, const void *message, size_t message_length,
               unsigned char **out_signature, size_t *out_length) {
    int ok = 0;
    const char *step = "invalid arguments";
    unsigned char *der = NULL;
    size_t der_length = 0;

    cjwss_internal_begin();
    if (out_signature != NULL) *out_signature = NULL;
    CJWSS_CHECK(key != NULL && out_signature != NULL && out_length != NULL && (message != NULL || message_length == 0),
                "invalid arguments");
    CJWSS_CHECK(!raw || EVP_PKEY_is_a(key, "EC"), "r||s needs an EC key");
    if (!digest_sign(key, digest, message, message_length, raw ? &der : out_signature, raw ? &der_length : out_length,
                     &step))
        goto done;
    if (raw) {
        /* The order's size in bytes: EVP_PKEY_get_bits of an EC key is the bit length of its group order. */
        int bits = EVP_PKEY_get_bits(key);
        CJWSS_CHECK(bits > 0, "EVP_PKEY_get_bits");
        if (!der_to_raw(der, der_length, ((size_t)bits + 7) / 8, out_signature, out_length, &step)) goto done;
    }
    ok = 1;
done:
    OPENSSL_free(der);
    return cjwss_internal_finish(ok, __func__, step);
}

int cjwss_sign_es256(EVP_PKEY *key, const void *message, size_t message_length, unsigned char **out_signature,
                     size_t *out_length) {
    if (out_signature != NULL) *out_signature = NULL;
    if (key == NULL || !cjwss_key_is_p256(key)) {
        cjwss_internal_begin();
        return cjwss_internal_finish(0, __func__, "ES256 needs a P-256 key");
    }
    return cjwss_sign(key, CJWSS_DIGEST_SHA256, 1, message, message_length, out_signature, out_length);
}

int cjwss_sign_es256_der(EVP_PKEY *key, const void *message, size_t message_length,
                         unsigned char **out_signature, size_t *out_length) {
    if (out_signature != NULL) *out_signature = NULL;
    if (key == NULL || !cjwss_key_is_p256(key)) {
        cjwss_internal_begin();
        return cjwss_internal_finish(0, __func__, "ECDSA P-256 needs a P-256 key");
    }
    return cjwss_sign(key, CJWSS_DIGEST_SHA256, 0, message, message_length, out_signature, out_length);
}
