/* Keys: EC generation (random or from a seed), random RSA generation, PEM in and out,
 * SubjectPublicKeyInfo (the CJWSTesting.h functions cjwst_key_* and cjwst_rsa_key_*). */
#include "internal.h"

#include <limits.h>
#include <string.h>

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/encoder.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/objects.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

static const char *curve_group_name(int curve) {
    switch (curve) {
    case CJWST_CURVE_P256: return SN_X9_62_prime256v1;
    case CJWST_CURVE_P384: return SN_secp384r1;
    default: return NULL;
    }
}

static int curve_nid(int curve) {
    switch (curve) {
    case CJWST_CURVE_P256: return NID_X9_62_prime256v1;
    case CJWST_CURVE_P384: return NID_secp384r1;
    default: return NID_undef;
    }
}

int cjwst_key_curve(const EVP_PKEY *pkey) {
    char name[64];
    size_t length = 0;
    if (pkey == NULL || !EVP_PKEY_is_a(pkey, "EC")) {
        return 0;
    }
    if (EVP_PKEY_get_group_name(pkey, name, sizeof name, &length) != 1) {
        return 0;
    }
    if (OBJ_txt2nid(name) == NID_X9_62_prime256v1 || strcmp(name, "P-256") == 0) {
        return CJWST_CURVE_P256;
    }
    if (OBJ_txt2nid(name) == NID_secp384r1 || strcmp(name, "P-384") == 0) {
        return CJWST_CURVE_P384;
    }
    return 0;
}

/* A key whose private scalar is `seed` mod n (rejecting 0), with its public point computed. */
static EVP_PKEY *key_from_seed(int curve, const void *seed, size_t seed_len, const char **step) {
    EVP_PKEY *result = NULL;
    EC_GROUP *group = NULL;
    BN_CTX *bn_context = NULL;
    BIGNUM *scalar = NULL;
    const BIGNUM *order = NULL; /* owned by `group` */
    EC_POINT *point = NULL;
    unsigned char *point_bytes = NULL;
    size_t point_len = 0;
    OSSL_PARAM_BLD *builder = NULL;
    OSSL_PARAM *params = NULL;
    EVP_PKEY_CTX *context = NULL;
    EVP_PKEY *pkey = NULL;

    *step = "seed length must be 32 bytes for P-256 and 48 bytes for P-384";
    if (seed_len != cjwst_internal_curve_field_bytes(curve) || seed_len > INT_MAX) goto done;
    *step = "EC_GROUP_new_by_curve_name_ex";
    group = EC_GROUP_new_by_curve_name_ex(NULL, NULL, curve_nid(curve));
    if (group == NULL) goto done;
    *step = "BN_CTX_secure_new_ex";
    bn_context = BN_CTX_secure_new_ex(NULL);
    if (bn_context == NULL) goto done;
    *step = "BN_bin2bn";
    scalar = BN_secure_new();
    if (scalar == NULL) goto done;
    if (BN_bin2bn(seed, (int)seed_len, scalar) == NULL) goto done;
    *step = "EC_GROUP_get0_order";
    order = EC_GROUP_get0_order(group);
    if (order == NULL || BN_is_zero(order)) goto done;
    *step = "BN_nnmod";
    if (BN_nnmod(scalar, scalar, order, bn_context) != 1) goto done;
    *step = "seed reduces to 0 modulo the group order";
    if (BN_is_zero(scalar)) goto done;
    *step = "EC_POINT_mul";
    point = EC_POINT_new(group);
    if (point == NULL) goto done;
    if (EC_POINT_mul(group, point, scalar, NULL, NULL, bn_context) != 1) goto done;
    *step = "EC_POINT_point2oct";
    point_len = EC_POINT_point2oct(group, point, POINT_CONVERSION_UNCOMPRESSED, NULL, 0, bn_context);
    if (point_len == 0) goto done;
    point_bytes = OPENSSL_malloc(point_len);
    if (point_bytes == NULL) goto done;
    if (EC_POINT_point2oct(group, point, POINT_CONVERSION_UNCOMPRESSED, point_bytes, point_len,
                           bn_context) != point_len)
        goto done;
    *step = "OSSL_PARAM_BLD";
    builder = OSSL_PARAM_BLD_new();
    if (builder == NULL) goto done;
    if (OSSL_PARAM_BLD_push_utf8_string(builder, OSSL_PKEY_PARAM_GROUP_NAME,
                                        curve_group_name(curve), 0) != 1)
        goto done;
    if (OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_PRIV_KEY, scalar) != 1) goto done;
    if (OSSL_PARAM_BLD_push_octet_string(builder, OSSL_PKEY_PARAM_PUB_KEY, point_bytes,
                                         point_len) != 1)
        goto done;
    params = OSSL_PARAM_BLD_to_param(builder);
    if (params == NULL) goto done;
    *step = "EVP_PKEY_fromdata";
    context = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    if (context == NULL) goto done;
    if (EVP_PKEY_fromdata_init(context) != 1) goto done;
    if (EVP_PKEY_fromdata(context, &pkey, EVP_PKEY_KEYPAIR, params) != 1) goto done;
    result = pkey;
    pkey = NULL;
done:
    EVP_PKEY_free(pkey);
    EVP_PKEY_CTX_free(context);
    OSSL_PARAM_free(params);
    OSSL_PARAM_BLD_free(builder);
    OPENSSL_free(point_bytes);
    EC_POINT_free(point);
    BN_clear_free(scalar);
    BN_CTX_free(bn_context);
    EC_GROUP_free(group);
    return result;
}

/* A new random key: `type` "EC" on `curve` (CJWST_CURVE_*), or "RSA" of `bits` bits. */
static EVP_PKEY *generate_pkey(const char *type, int curve, int bits, const char **step) {
    EVP_PKEY_CTX *context = NULL;
    EVP_PKEY *pkey = NULL;

    *step = "EVP_PKEY_CTX_new_from_name";
    context = EVP_PKEY_CTX_new_from_name(NULL, type, NULL);
    if (context == NULL) goto done;
    *step = "EVP_PKEY_keygen_init";
    if (EVP_PKEY_keygen_init(context) != 1) goto done;
    if (curve != 0) {
        *step = "EVP_PKEY_CTX_set_group_name";
        if (EVP_PKEY_CTX_set_group_name(context, curve_group_name(curve)) != 1) goto done;
    } else {
        *step = "EVP_PKEY_CTX_set_rsa_keygen_bits";
        if (EVP_PKEY_CTX_set_rsa_keygen_bits(context, bits) != 1) goto done;
    }
    *step = "EVP_PKEY_generate";
    if (EVP_PKEY_generate(context, &pkey) != 1) pkey = NULL;
done:
    EVP_PKEY_CTX_free(context);
    return pkey;
}

EVP_PKEY *cjwst_key_generate(int curve, const void *seed, size_t seed_len) {
    const char *step = "unsupported curve";
    EVP_PKEY *pkey = NULL;

    cjwss_internal_begin();
    CJWSS_CHECK(curve_group_name(curve) != NULL, "unsupported curve");
    if (seed != NULL) {
        pkey = key_from_seed(curve, seed, seed_len, &step);
    } else {
        CJWSS_CHECK(seed_len == 0, "seed length without a seed");
        pkey = generate_pkey("EC", curve, 0, &step);
    }
done:
    cjwss_internal_finish(pkey != NULL, __func__, step);
    return pkey;
}

EVP_PKEY *cjwst_rsa_key_generate(int bits) {
    const char *step = "RSA key size must be 512...16384 bits";
    EVP_PKEY *pkey = NULL;

    cjwss_internal_begin();
    CJWSS_CHECK(bits >= 512 && bits <= 16384, "RSA key size must be 512...16384 bits");
    pkey = generate_pkey("RSA", 0, bits, &step);
done:
    cjwss_internal_finish(pkey != NULL, __func__, step);
    return pkey;
}

/* Reads an unencrypted private key of any type from PEM. */
static EVP_PKEY *read_private_pem(const void *pem, size_t pem_len, const char **step) {
    BIO *bio = NULL;
    EVP_PKEY *pkey = NULL;
    *step = "invalid arguments";
    if (pem == NULL || pem_len == 0 || pem_len > INT_MAX) return NULL;
    *step = "BIO_new_mem_buf";
    bio = BIO_new_mem_buf(pem, (int)pem_len);
    if (bio == NULL) return NULL;
    *step = "PEM_read_bio_PrivateKey";
    pkey = PEM_read_bio_PrivateKey(bio, NULL, cjwst_internal_no_password, NULL);
    BIO_free(bio);
    return pkey;
}

EVP_PKEY *cjwst_key_from_private_pem(const void *pem, size_t pem_len) {
    const char *step = "invalid arguments";
    EVP_PKEY *pkey = NULL;

    cjwss_internal_begin();
    pkey = read_private_pem(pem, pem_len, &step);
    if (pkey == NULL) goto done;
    if (cjwst_key_curve(pkey) == 0) {
        step = "not an EC key on P-256 or P-384";
        EVP_PKEY_free(pkey);
        pkey = NULL;
    }
done:
    cjwss_internal_finish(pkey != NULL, __func__, step);
    return pkey;
}

EVP_PKEY *cjwst_rsa_key_from_private_pem(const void *pem, size_t pem_len) {
    const char *step = "invalid arguments";
    EVP_PKEY *pkey = NULL;

    cjwss_internal_begin();
    pkey = read_private_pem(pem, pem_len, &step);
    if (pkey == NULL) goto done;
    if (!EVP_PKEY_is_a(pkey, "RSA")) {
        step = "not an RSA key";
        EVP_PKEY_free(pkey);
        pkey = NULL;
    }
done:
    cjwss_internal_finish(pkey != NULL, __func__, step);
    return pkey;
}

int cjwst_key_private_pem(EVP_PKEY *key, int encoding, char **out_pem, size_t *out_len) {
    int ok = 0;
    const char *step = "invalid arguments";
    BIO *bio = NULL;
    OSSL_ENCODER_CTX *encoder = NULL;

    cjwss_internal_begin();
    if (out_pem != NULL) *out_pem = NULL;
    CJWSS_CHECK(key != NULL && out_pem != NULL && out_len != NULL,
          "invalid arguments");
    bio = BIO_new(BIO_s_mem());
    CJWSS_CHECK(bio != NULL, "BIO_new");
    if (encoding == CJWST_PEM_PKCS8) {
        CJWSS_CHECK(PEM_write_bio_PrivateKey(bio, key, NULL, NULL, 0, NULL, NULL) == 1,
              "PEM_write_bio_PrivateKey");
    } else if (encoding == CJWST_PEM_SEC1) {
        encoder = OSSL_ENCODER_CTX_new_for_pkey(key, EVP_PKEY_KEYPAIR, "PEM",
                                                "type-specific", NULL);
        CJWSS_CHECK(encoder != NULL, "OSSL_ENCODER_CTX_new_for_pkey");
        CJWSS_CHECK(OSSL_ENCODER_CTX_get_num_encoders(encoder) > 0, "no SEC1 PEM encoder");
        CJWSS_CHECK(OSSL_ENCODER_to_bio(encoder, bio) == 1, "OSSL_ENCODER_to_bio");
    } else {
        CJWSS_CHECK(0, "unknown PEM encoding");
    }
    CJWSS_CHECK(cjwst_internal_bio_to_text(bio, out_pem, out_len), "reading PEM");
    ok = 1;
done:
    OSSL_ENCODER_CTX_free(encoder);
    BIO_free(bio);
    return cjwss_internal_finish(ok, __func__, step);
}

int cjwst_key_public_spki_der(EVP_PKEY *key, unsigned char **out_der, size_t *out_len) {
    int ok = 0;
    const char *step = "invalid arguments";
    unsigned char *der = NULL;
    int length = 0;

    cjwss_internal_begin();
    if (out_der != NULL) *out_der = NULL;
    CJWSS_CHECK(key != NULL && out_der != NULL && out_len != NULL,
          "invalid arguments");
    length = i2d_PUBKEY(key, &der);
    CJWSS_CHECK(length > 0 && der != NULL, "i2d_PUBKEY");
    *out_der = der;
    *out_len = (size_t)length;
    der = NULL;
    ok = 1;
done:
    OPENSSL_free(der);
    return cjwss_internal_finish(ok, __func__, step);
}

int cjwst_key_public_spki_der_ex(EVP_PKEY *key, int point_form, int explicit_parameters,
                                 unsigned char **out_der, size_t *out_len) {
    int ok = 0;
    const char *step = "invalid arguments";
    EVP_PKEY *copy = NULL;
    unsigned char *der = NULL;
    int length = 0;

    cjwss_internal_begin();
    if (out_der != NULL) *out_der = NULL;
    CJWSS_CHECK(key != NULL && out_der != NULL && out_len != NULL &&
              (point_form == CJWST_POINT_UNCOMPRESSED || point_form == CJWST_POINT_COMPRESSED),
          "invalid arguments");
    copy = EVP_PKEY_dup(key);
    CJWSS_CHECK(copy != NULL, "EVP_PKEY_dup");
    CJWSS_CHECK(EVP_PKEY_set_utf8_string_param(copy, OSSL_PKEY_PARAM_EC_POINT_CONVERSION_FORMAT,
                                         point_form == CJWST_POINT_COMPRESSED
                                             ? OSSL_PKEY_EC_POINT_CONVERSION_FORMAT_COMPRESSED
                                             : OSSL_PKEY_EC_POINT_CONVERSION_FORMAT_UNCOMPRESSED) == 1,
          "point conversion format");
    if (explicit_parameters) {
        CJWSS_CHECK(EVP_PKEY_set_utf8_string_param(copy, OSSL_PKEY_PARAM_EC_ENCODING,
                                             OSSL_PKEY_EC_ENCODING_EXPLICIT) == 1,
              "explicit parameters");
    }
    length = i2d_PUBKEY(copy, &der);
    CJWSS_CHECK(length > 0 && der != NULL, "i2d_PUBKEY");
    *out_der = der;
    *out_len = (size_t)length;
    der = NULL;
    ok = 1;
done:
    OPENSSL_free(der);
    EVP_PKEY_free(copy);
    return cjwss_internal_finish(ok, __func__, step);
}
