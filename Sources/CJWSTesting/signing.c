/*
 * CJWSTesting: test keys, test certificates and ES256 signatures, with OpenSSL 3 EVP APIs.
 *
 * Only the signing side of JWSVerify's tests uses this file; see include/CJWSTesting.h for the
 * contract. Deprecated OpenSSL APIs are hidden on purpose (OPENSSL_NO_DEPRECATED), so using one
 * is a compile error rather than a warning.
 *
 * Ownership: every function owns the OpenSSL objects it creates and frees them on its single
 * exit path (label `done`). Objects handed to OpenSSL containers are noted where ownership moves.
 */
#define OPENSSL_API_COMPAT 30000
#define OPENSSL_NO_DEPRECATED 1

#include "CJWSTesting.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <openssl/asn1.h>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/encoder.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/objects.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

struct cjwst_key {
    EVP_PKEY *pkey; /* owned */
    int curve;      /* CJWST_CURVE_* */
};

/* ---------------------------------------------------------------------------------------------
 * Errors
 * ------------------------------------------------------------------------------------------- */

static _Thread_local char last_error[512];

/* Clears the OpenSSL error queue; called on entry of every exported function. */
static void begin(void) { ERR_clear_error(); }

/* Records a failure message (function, failed step, first queued OpenSSL error) when `ok` is 0,
 * then drains the error queue. Returns `ok`. */
static int finish(int ok, const char *function, const char *step) {
    if (!ok) {
        unsigned long code = ERR_peek_error();
        char reason[256] = "";
        if (code != 0) {
            ERR_error_string_n(code, reason, sizeof reason);
        }
        snprintf(last_error, sizeof last_error, "%s: %s%s%s", function,
                 step != NULL ? step : "failed", code != 0 ? ": " : "", reason);
    }
    ERR_clear_error();
    return ok;
}

#define CHECK(condition, what)                                                                     \
    do {                                                                                           \
        if (!(condition)) {                                                                        \
            step = (what);                                                                         \
            goto done;                                                                             \
        }                                                                                          \
    } while (0)

size_t cjwst_last_error(char *buffer, size_t capacity) {
    size_t length = strlen(last_error);
    if (buffer != NULL && capacity > 0) {
        size_t copied = length < capacity - 1 ? length : capacity - 1;
        memcpy(buffer, last_error, copied);
        buffer[copied] = '\0';
    }
    return length;
}

void cjwst_free(void *buffer) { OPENSSL_free(buffer); }

/* ---------------------------------------------------------------------------------------------
 * Helpers
 * ------------------------------------------------------------------------------------------- */

static const unsigned char empty_message[1] = {0};

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

static size_t curve_field_bytes(int curve) {
    switch (curve) {
    case CJWST_CURVE_P256: return 32;
    case CJWST_CURVE_P384: return 48;
    default: return 0;
    }
}

static const char *digest_name(int digest) {
    switch (digest) {
    case CJWST_DIGEST_SHA256: return "SHA256";
    case CJWST_DIGEST_SHA384: return "SHA384";
    case CJWST_DIGEST_SHA512: return "SHA512";
    default: return NULL;
    }
}

/* The CJWST_CURVE_* of an EC key on a supported curve, or 0. */
static int pkey_curve(const EVP_PKEY *pkey) {
    char name[64];
    size_t length = 0;
    if (!EVP_PKEY_is_a(pkey, "EC")) {
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

/* Wraps `pkey` (ownership moves in) in a new cjwst_key; frees `pkey` on failure. */
static cjwst_key *wrap_key(EVP_PKEY *pkey, int curve) {
    cjwst_key *key = OPENSSL_zalloc(sizeof *key);
    if (key == NULL) {
        EVP_PKEY_free(pkey);
        return NULL;
    }
    key->pkey = pkey;
    key->curve = curve;
    return key;
}

/* Copies the contents of a memory BIO into a new NUL-terminated OpenSSL buffer. */
static int bio_to_text(BIO *bio, char **out_text, size_t *out_len) {
    char *data = NULL;
    long length = BIO_get_mem_data(bio, &data);
    if (length <= 0 || data == NULL) {
        return 0;
    }
    char *copy = OPENSSL_malloc((size_t)length + 1);
    if (copy == NULL) {
        return 0;
    }
    memcpy(copy, data, (size_t)length);
    copy[length] = '\0';
    *out_text = copy;
    *out_len = (size_t)length;
    return 1;
}

/* Parses a whole DER certificate (no trailing bytes). */
static X509 *parse_certificate(const void *der, size_t length) {
    if (der == NULL || length == 0 || length > LONG_MAX) {
        return NULL;
    }
    const unsigned char *cursor = der;
    X509 *certificate = d2i_X509(NULL, &cursor, (long)length);
    if (certificate != NULL && cursor != (const unsigned char *)der + length) {
        X509_free(certificate);
        return NULL;
    }
    return certificate;
}

/* Key identifier per RFC 5280 4.2.1.2 method 1: SHA-1 of the subjectPublicKey BIT STRING. */
static int key_identifier(EVP_PKEY *pkey, unsigned char identifier[SHA_DIGEST_LENGTH]) {
    int ok = 0;
    X509_PUBKEY *public_key = NULL;
    const unsigned char *bits = NULL;
    int bits_length = 0;
    unsigned int digest_length = 0;

    if (X509_PUBKEY_set(&public_key, pkey) != 1) goto done;
    if (X509_PUBKEY_get0_param(NULL, &bits, &bits_length, NULL, public_key) != 1) goto done;
    if (bits == NULL || bits_length <= 0) goto done;
    if (EVP_Digest(bits, (size_t)bits_length, identifier, &digest_length, EVP_sha1(), NULL) != 1)
        goto done;
    ok = digest_length == SHA_DIGEST_LENGTH;
done:
    X509_PUBKEY_free(public_key);
    return ok;
}

static int add_name_entry(X509_NAME *name, int nid, const char *value) {
    if (value == NULL) {
        return 1;
    }
    return X509_NAME_add_entry_by_NID(name, nid, MBSTRING_UTF8, (const unsigned char *)value, -1,
                                      -1, 0) == 1;
}

/* Builds CN, OU, O, C (in Apple's order); CN and O are required. */
static X509_NAME *build_name(const cjwst_name *spec) {
    if (spec->common_name == NULL || spec->organization == NULL) {
        return NULL;
    }
    X509_NAME *name = X509_NAME_new();
    if (name == NULL) {
        return NULL;
    }
    if (!add_name_entry(name, NID_commonName, spec->common_name) ||
        !add_name_entry(name, NID_organizationalUnitName, spec->organizational_unit) ||
        !add_name_entry(name, NID_organizationName, spec->organization) ||
        !add_name_entry(name, NID_countryName, spec->country)) {
        X509_NAME_free(name);
        return NULL;
    }
    return name;
}

static int set_time(X509 *certificate, int64_t seconds, int not_after) {
    ASN1_TIME *time = ASN1_TIME_set(NULL, (time_t)seconds);
    if (time == NULL) {
        return 0;
    }
    int ok = not_after ? X509_set1_notAfter(certificate, time) : X509_set1_notBefore(certificate, time);
    ASN1_TIME_free(time);
    return ok == 1;
}

static int add_basic_constraints(X509 *certificate, int is_ca, int path_length) {
    int ok = 0;
    BASIC_CONSTRAINTS *constraints = BASIC_CONSTRAINTS_new();
    if (constraints == NULL) goto done;
    constraints->ca = is_ca ? 0xFF : 0;
    if (is_ca && path_length >= 0) {
        constraints->pathlen = ASN1_INTEGER_new(); /* owned by `constraints` */
        if (constraints->pathlen == NULL) goto done;
        if (ASN1_INTEGER_set(constraints->pathlen, path_length) != 1) goto done;
    }
    ok = X509_add1_ext_i2d(certificate, NID_basic_constraints, constraints, 1,
                           X509V3_ADD_DEFAULT) == 1;
done:
    BASIC_CONSTRAINTS_free(constraints);
    return ok;
}

static int add_key_usage(X509 *certificate, unsigned int usage) {
    int ok = 0;
    ASN1_BIT_STRING *bits = ASN1_BIT_STRING_new();
    if (bits == NULL) goto done;
    for (int bit = 0; bit < 9; bit++) {
        if ((usage & (1u << bit)) != 0 && ASN1_BIT_STRING_set_bit(bits, bit, 1) != 1) goto done;
    }
    ok = X509_add1_ext_i2d(certificate, NID_key_usage, bits, 1, X509V3_ADD_DEFAULT) == 1;
done:
    ASN1_BIT_STRING_free(bits);
    return ok;
}

static int add_subject_key_identifier(X509 *certificate, EVP_PKEY *subject) {
    int ok = 0;
    unsigned char identifier[SHA_DIGEST_LENGTH];
    ASN1_OCTET_STRING *value = NULL;
    if (!key_identifier(subject, identifier)) goto done;
    value = ASN1_OCTET_STRING_new();
    if (value == NULL) goto done;
    if (ASN1_OCTET_STRING_set(value, identifier, sizeof identifier) != 1) goto done;
    ok = X509_add1_ext_i2d(certificate, NID_subject_key_identifier, value, 0, X509V3_ADD_DEFAULT) == 1;
done:
    ASN1_OCTET_STRING_free(value);
    return ok;
}

static int add_authority_key_identifier(X509 *certificate, EVP_PKEY *issuer) {
    int ok = 0;
    unsigned char identifier[SHA_DIGEST_LENGTH];
    AUTHORITY_KEYID *authority = NULL;
    if (!key_identifier(issuer, identifier)) goto done;
    authority = AUTHORITY_KEYID_new();
    if (authority == NULL) goto done;
    authority->keyid = ASN1_OCTET_STRING_new(); /* owned by `authority` */
    if (authority->keyid == NULL) goto done;
    if (ASN1_OCTET_STRING_set(authority->keyid, identifier, sizeof identifier) != 1) goto done;
    ok = X509_add1_ext_i2d(certificate, NID_authority_key_identifier, authority, 0,
                           X509V3_ADD_DEFAULT) == 1;
done:
    AUTHORITY_KEYID_free(authority);
    return ok;
}

static int add_ocsp_access(X509 *certificate, const char *url) {
    int ok = 0;
    AUTHORITY_INFO_ACCESS *access = NULL;
    ACCESS_DESCRIPTION *description = NULL;
    ASN1_IA5STRING *uri = NULL;

    access = sk_ACCESS_DESCRIPTION_new_null();
    if (access == NULL) goto done;
    description = ACCESS_DESCRIPTION_new();
    if (description == NULL) goto done;
    uri = ASN1_IA5STRING_new();
    if (uri == NULL) goto done;
    if (ASN1_STRING_set(uri, url, -1) != 1) goto done;
    ASN1_OBJECT_free(description->method);
    description->method = OBJ_nid2obj(NID_ad_OCSP); /* static object */
    if (description->method == NULL) goto done;
    if (description->location == NULL) {
        description->location = GENERAL_NAME_new();
        if (description->location == NULL) goto done;
    }
    GENERAL_NAME_set0_value(description->location, GEN_URI, uri);
    uri = NULL; /* owned by `description` now */
    if (sk_ACCESS_DESCRIPTION_push(access, description) <= 0) goto done;
    description = NULL; /* owned by `access` now */
    ok = X509_add1_ext_i2d(certificate, NID_info_access, access, 0, X509V3_ADD_DEFAULT) == 1;
done:
    ASN1_IA5STRING_free(uri);
    ACCESS_DESCRIPTION_free(description);
    AUTHORITY_INFO_ACCESS_free(access);
    return ok;
}

static int add_marker(X509 *certificate, const char *oid) {
    static const unsigned char der_null[2] = {0x05, 0x00};
    int ok = 0;
    ASN1_OBJECT *object = NULL;
    ASN1_OCTET_STRING *value = NULL;
    X509_EXTENSION *extension = NULL;

    object = OBJ_txt2obj(oid, 1); /* numeric form only */
    if (object == NULL) goto done;
    value = ASN1_OCTET_STRING_new();
    if (value == NULL) goto done;
    if (ASN1_OCTET_STRING_set(value, der_null, sizeof der_null) != 1) goto done;
    extension = X509_EXTENSION_create_by_OBJ(NULL, object, 0, value);
    if (extension == NULL) goto done;
    ok = X509_add_ext(certificate, extension, -1) == 1; /* copies `extension` */
done:
    X509_EXTENSION_free(extension);
    ASN1_OCTET_STRING_free(value);
    ASN1_OBJECT_free(object);
    return ok;
}

/* DER ECDSA-Sig-Value over `message` hashed with `digest`. */
static int sign_to_der(EVP_PKEY *pkey, int digest, const void *message, size_t message_len,
                       unsigned char **out_der, size_t *out_len) {
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

/* ---------------------------------------------------------------------------------------------
 * Keys
 * ------------------------------------------------------------------------------------------- */

void cjwst_key_free(cjwst_key *key) {
    if (key == NULL) {
        return;
    }
    EVP_PKEY_free(key->pkey);
    OPENSSL_free(key);
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
    if (seed_len != curve_field_bytes(curve) || seed_len > INT_MAX) goto done;
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

int cjwst_key_generate(int curve, const void *seed, size_t seed_len, cjwst_key **out_key) {
    int ok = 0;
    const char *step = "invalid arguments";
    EVP_PKEY_CTX *context = NULL;
    EVP_PKEY *pkey = NULL;
    cjwst_key *key = NULL;

    begin();
    if (out_key != NULL) *out_key = NULL;
    CHECK(out_key != NULL && curve_group_name(curve) != NULL, "unsupported curve");
    if (seed != NULL) {
        pkey = key_from_seed(curve, seed, seed_len, &step);
        if (pkey == NULL) goto done;
    } else {
        CHECK(seed_len == 0, "seed length without a seed");
        context = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
        CHECK(context != NULL, "EVP_PKEY_CTX_new_from_name");
        CHECK(EVP_PKEY_keygen_init(context) == 1, "EVP_PKEY_keygen_init");
        CHECK(EVP_PKEY_CTX_set_group_name(context, curve_group_name(curve)) == 1,
              "EVP_PKEY_CTX_set_group_name");
        CHECK(EVP_PKEY_generate(context, &pkey) == 1, "EVP_PKEY_generate");
    }
    key = wrap_key(pkey, curve);
    pkey = NULL; /* owned by `key` (or freed by wrap_key) */
    CHECK(key != NULL, "allocation");
    *out_key = key;
    ok = 1;
done:
    EVP_PKEY_free(pkey);
    EVP_PKEY_CTX_free(context);
    return finish(ok, __func__, step);
}

/* A password callback that refuses: encrypted keys fail instead of prompting on a terminal. */
static int no_password(char *buffer, int size, int rwflag, void *userdata) {
    (void)buffer;
    (void)size;
    (void)rwflag;
    (void)userdata;
    return 0;
}

int cjwst_key_from_private_pem(const void *pem, size_t pem_len, cjwst_key **out_key) {
    int ok = 0;
    const char *step = "invalid arguments";
    BIO *bio = NULL;
    EVP_PKEY *pkey = NULL;
    cjwst_key *key = NULL;
    int curve = 0;

    begin();
    if (out_key != NULL) *out_key = NULL;
    CHECK(out_key != NULL && pem != NULL && pem_len > 0 && pem_len <= INT_MAX, "invalid arguments");
    bio = BIO_new_mem_buf(pem, (int)pem_len);
    CHECK(bio != NULL, "BIO_new_mem_buf");
    pkey = PEM_read_bio_PrivateKey(bio, NULL, no_password, NULL);
    CHECK(pkey != NULL, "PEM_read_bio_PrivateKey");
    curve = pkey_curve(pkey);
    CHECK(curve != 0, "not an EC key on P-256 or P-384");
    key = wrap_key(pkey, curve);
    pkey = NULL;
    CHECK(key != NULL, "allocation");
    *out_key = key;
    ok = 1;
done:
    EVP_PKEY_free(pkey);
    BIO_free(bio);
    return finish(ok, __func__, step);
}

int cjwst_key_curve(const cjwst_key *key, int *out_curve) {
    const char *step = NULL;
    int ok = 0;
    begin();
    CHECK(key != NULL && key->pkey != NULL && out_curve != NULL, "invalid arguments");
    *out_curve = key->curve;
    ok = 1;
done:
    return finish(ok, __func__, step);
}

int cjwst_key_private_pem(const cjwst_key *key, int encoding, char **out_pem, size_t *out_len) {
    int ok = 0;
    const char *step = "invalid arguments";
    BIO *bio = NULL;
    OSSL_ENCODER_CTX *encoder = NULL;

    begin();
    if (out_pem != NULL) *out_pem = NULL;
    CHECK(key != NULL && key->pkey != NULL && out_pem != NULL && out_len != NULL,
          "invalid arguments");
    bio = BIO_new(BIO_s_mem());
    CHECK(bio != NULL, "BIO_new");
    if (encoding == CJWST_PEM_PKCS8) {
        CHECK(PEM_write_bio_PrivateKey(bio, key->pkey, NULL, NULL, 0, NULL, NULL) == 1,
              "PEM_write_bio_PrivateKey");
    } else if (encoding == CJWST_PEM_SEC1) {
        encoder = OSSL_ENCODER_CTX_new_for_pkey(key->pkey, EVP_PKEY_KEYPAIR, "PEM",
                                                "type-specific", NULL);
        CHECK(encoder != NULL, "OSSL_ENCODER_CTX_new_for_pkey");
        CHECK(OSSL_ENCODER_CTX_get_num_encoders(encoder) > 0, "no SEC1 PEM encoder");
        CHECK(OSSL_ENCODER_to_bio(encoder, bio) == 1, "OSSL_ENCODER_to_bio");
    } else {
        CHECK(0, "unknown PEM encoding");
    }
    CHECK(bio_to_text(bio, out_pem, out_len), "reading PEM");
    ok = 1;
done:
    OSSL_ENCODER_CTX_free(encoder);
    BIO_free(bio);
    return finish(ok, __func__, step);
}

int cjwst_key_public_spki_der(const cjwst_key *key, unsigned char **out_der, size_t *out_len) {
    int ok = 0;
    const char *step = "invalid arguments";
    unsigned char *der = NULL;
    int length = 0;

    begin();
    if (out_der != NULL) *out_der = NULL;
    CHECK(key != NULL && key->pkey != NULL && out_der != NULL && out_len != NULL,
          "invalid arguments");
    length = i2d_PUBKEY(key->pkey, &der);
    CHECK(length > 0 && der != NULL, "i2d_PUBKEY");
    *out_der = der;
    *out_len = (size_t)length;
    der = NULL;
    ok = 1;
done:
    OPENSSL_free(der);
    return finish(ok, __func__, step);
}

/* ---------------------------------------------------------------------------------------------
 * Certificates
 * ------------------------------------------------------------------------------------------- */

int cjwst_cert_create(const cjwst_cert_params *params, const cjwst_key *subject_key,
                      const cjwst_key *issuer_key, unsigned char **out_der, size_t *out_len) {
    int ok = 0;
    const char *step = "invalid arguments";
    X509 *certificate = NULL;
    X509_NAME *subject = NULL;
    X509_NAME *issuer = NULL;
    BIGNUM *serial_number = NULL;
    ASN1_INTEGER *serial = NULL;
    const EVP_MD *digest = NULL;
    unsigned char *der = NULL;
    int der_len = 0;
    int self_signed = 0;
    EVP_PKEY *signer = NULL;

    begin();
    if (out_der != NULL) *out_der = NULL;
    CHECK(params != NULL && subject_key != NULL && subject_key->pkey != NULL && out_der != NULL &&
              out_len != NULL,
          "invalid arguments");
    CHECK(params->serial != NULL && params->serial_len > 0 && params->serial_len <= 20,
          "serial must be 1...20 bytes");
    self_signed = issuer_key == NULL || issuer_key == subject_key;
    signer = self_signed ? subject_key->pkey : issuer_key->pkey;
    CHECK(signer != NULL, "invalid issuer key");
    switch (params->signature_digest) {
    case CJWST_DIGEST_SHA256: digest = EVP_sha256(); break;
    case CJWST_DIGEST_SHA384: digest = EVP_sha384(); break;
    default: CHECK(0, "unsupported signature digest");
    }
    CHECK(digest != NULL, "EVP_sha384/EVP_sha256");

    certificate = X509_new();
    CHECK(certificate != NULL, "X509_new");
    CHECK(X509_set_version(certificate, X509_VERSION_3) == 1, "X509_set_version");

    serial_number = BN_bin2bn(params->serial, (int)params->serial_len, NULL);
    CHECK(serial_number != NULL, "BN_bin2bn (serial)");
    CHECK(!BN_is_zero(serial_number), "serial must not be 0");
    serial = BN_to_ASN1_INTEGER(serial_number, NULL);
    CHECK(serial != NULL, "BN_to_ASN1_INTEGER");
    CHECK(X509_set_serialNumber(certificate, serial) == 1, "X509_set_serialNumber");

    subject = build_name(&params->subject);
    CHECK(subject != NULL, "subject name (CN and O are required)");
    CHECK(X509_set_subject_name(certificate, subject) == 1, "X509_set_subject_name");
    if (self_signed) {
        CHECK(X509_set_issuer_name(certificate, subject) == 1, "X509_set_issuer_name");
    } else {
        issuer = build_name(&params->issuer);
        CHECK(issuer != NULL, "issuer name (CN and O are required)");
        CHECK(X509_set_issuer_name(certificate, issuer) == 1, "X509_set_issuer_name");
    }

    CHECK(set_time(certificate, params->not_before, 0), "notBefore");
    CHECK(set_time(certificate, params->not_after, 1), "notAfter");
    CHECK(X509_set_pubkey(certificate, subject_key->pkey) == 1, "X509_set_pubkey");

    CHECK(add_basic_constraints(certificate, params->is_ca, params->path_length),
          "basicConstraints");
    if (params->key_usage != 0) {
        CHECK(add_key_usage(certificate, params->key_usage), "keyUsage");
    }
    if (params->subject_key_identifier) {
        CHECK(add_subject_key_identifier(certificate, subject_key->pkey), "subjectKeyIdentifier");
    }
    if (params->authority_key_identifier) {
        CHECK(add_authority_key_identifier(certificate, signer), "authorityKeyIdentifier");
    }
    if (params->ocsp_url != NULL) {
        CHECK(add_ocsp_access(certificate, params->ocsp_url), "authorityInfoAccess");
    }
    if (params->marker_oid != NULL) {
        CHECK(add_marker(certificate, params->marker_oid), "marker extension (OID text)");
    }

    CHECK(X509_sign(certificate, signer, digest) > 0, "X509_sign");
    der_len = i2d_X509(certificate, &der);
    CHECK(der_len > 0 && der != NULL, "i2d_X509");
    *out_der = der;
    *out_len = (size_t)der_len;
    der = NULL;
    ok = 1;
done:
    OPENSSL_free(der);
    ASN1_INTEGER_free(serial);
    BN_free(serial_number);
    X509_NAME_free(issuer);
    X509_NAME_free(subject);
    X509_free(certificate);
    return finish(ok, __func__, step);
}

int cjwst_cert_public_spki_der(const void *cert_der, size_t cert_len, unsigned char **out_der,
                               size_t *out_len) {
    int ok = 0;
    const char *step = "invalid arguments";
    X509 *certificate = NULL;
    unsigned char *der = NULL;
    int der_len = 0;

    begin();
    if (out_der != NULL) *out_der = NULL;
    CHECK(out_der != NULL && out_len != NULL, "invalid arguments");
    certificate = parse_certificate(cert_der, cert_len);
    CHECK(certificate != NULL, "d2i_X509");
    der_len = i2d_X509_PUBKEY(X509_get_X509_PUBKEY(certificate), &der);
    CHECK(der_len > 0 && der != NULL, "i2d_X509_PUBKEY");
    *out_der = der;
    *out_len = (size_t)der_len;
    der = NULL;
    ok = 1;
done:
    OPENSSL_free(der);
    X509_free(certificate);
    return finish(ok, __func__, step);
}

int cjwst_cert_subject_attribute(const void *cert_der, size_t cert_len, int attribute,
                                 char **out_text, size_t *out_len) {
    int ok = 0;
    const char *step = "invalid arguments";
    X509 *certificate = NULL;
    unsigned char *text = NULL;
    int text_len = 0;
    int nid = NID_undef;
    int index = -1;
    const X509_NAME *name = NULL;
    const X509_NAME_ENTRY *entry = NULL;

    begin();
    if (out_text != NULL) *out_text = NULL;
    CHECK(out_text != NULL && out_len != NULL, "invalid arguments");
    switch (attribute) {
    case CJWST_NAME_CN: nid = NID_commonName; break;
    case CJWST_NAME_OU: nid = NID_organizationalUnitName; break;
    case CJWST_NAME_O: nid = NID_organizationName; break;
    case CJWST_NAME_C: nid = NID_countryName; break;
    default: CHECK(0, "unknown name attribute");
    }
    certificate = parse_certificate(cert_der, cert_len);
    CHECK(certificate != NULL, "d2i_X509");
    name = X509_get_subject_name(certificate);
    CHECK(name != NULL, "X509_get_subject_name");
    index = X509_NAME_get_index_by_NID(name, nid, -1);
    CHECK(index >= 0, "attribute absent");
    entry = X509_NAME_get_entry(name, index);
    CHECK(entry != NULL, "X509_NAME_get_entry");
    text_len = ASN1_STRING_to_UTF8(&text, X509_NAME_ENTRY_get_data(entry));
    CHECK(text_len >= 0 && text != NULL, "ASN1_STRING_to_UTF8");
    *out_text = (char *)text;
    *out_len = (size_t)text_len;
    text = NULL;
    ok = 1;
done:
    OPENSSL_free(text);
    X509_free(certificate);
    return finish(ok, __func__, step);
}

/* Seconds from the Unix epoch to `time`. */
static int time_to_unix(const ASN1_TIME *time, int64_t *out_seconds) {
    int ok = 0;
    int days = 0;
    int seconds = 0;
    ASN1_TIME *epoch = NULL;
    /* ASN1_TIME_diff treats a NULL time as "now"; a missing time is an error here. */
    if (time == NULL) goto done;
    epoch = ASN1_TIME_set(NULL, 0);
    if (epoch == NULL) goto done;
    if (ASN1_TIME_diff(&days, &seconds, epoch, time) != 1) goto done;
    *out_seconds = (int64_t)days * 86400 + seconds;
    ok = 1;
done:
    ASN1_TIME_free(epoch);
    return ok;
}

int cjwst_cert_validity(const void *cert_der, size_t cert_len, int64_t *out_not_before,
                        int64_t *out_not_after) {
    int ok = 0;
    const char *step = "invalid arguments";
    X509 *certificate = NULL;

    begin();
    CHECK(out_not_before != NULL && out_not_after != NULL, "invalid arguments");
    certificate = parse_certificate(cert_der, cert_len);
    CHECK(certificate != NULL, "d2i_X509");
    CHECK(time_to_unix(X509_get0_notBefore(certificate), out_not_before), "notBefore");
    CHECK(time_to_unix(X509_get0_notAfter(certificate), out_not_after), "notAfter");
    ok = 1;
done:
    X509_free(certificate);
    return finish(ok, __func__, step);
}

int cjwst_cert_der_to_pem(const void *cert_der, size_t cert_len, char **out_pem, size_t *out_len) {
    int ok = 0;
    const char *step = "invalid arguments";
    X509 *certificate = NULL;
    BIO *bio = NULL;

    begin();
    if (out_pem != NULL) *out_pem = NULL;
    CHECK(out_pem != NULL && out_len != NULL, "invalid arguments");
    certificate = parse_certificate(cert_der, cert_len);
    CHECK(certificate != NULL, "d2i_X509");
    bio = BIO_new(BIO_s_mem());
    CHECK(bio != NULL, "BIO_new");
    CHECK(PEM_write_bio_X509(bio, certificate) == 1, "PEM_write_bio_X509");
    CHECK(bio_to_text(bio, out_pem, out_len), "reading PEM");
    ok = 1;
done:
    BIO_free(bio);
    X509_free(certificate);
    return finish(ok, __func__, step);
}

int cjwst_cert_pem_to_der(const void *pem, size_t pem_len, unsigned char **out_der,
                          size_t *out_len) {
    int ok = 0;
    const char *step = "invalid arguments";
    BIO *bio = NULL;
    X509 *certificate = NULL;
    unsigned char *der = NULL;
    int der_len = 0;

    begin();
    if (out_der != NULL) *out_der = NULL;
    CHECK(pem != NULL && pem_len > 0 && pem_len <= INT_MAX && out_der != NULL && out_len != NULL,
          "invalid arguments");
    bio = BIO_new_mem_buf(pem, (int)pem_len);
    CHECK(bio != NULL, "BIO_new_mem_buf");
    certificate = PEM_read_bio_X509(bio, NULL, no_password, NULL);
    CHECK(certificate != NULL, "PEM_read_bio_X509");
    der_len = i2d_X509(certificate, &der);
    CHECK(der_len > 0 && der != NULL, "i2d_X509");
    *out_der = der;
    *out_len = (size_t)der_len;
    der = NULL;
    ok = 1;
done:
    OPENSSL_free(der);
    X509_free(certificate);
    BIO_free(bio);
    return finish(ok, __func__, step);
}

/* ---------------------------------------------------------------------------------------------
 * Signatures
 * ------------------------------------------------------------------------------------------- */

/* Raw R||S, each half left-padded to the curve's field size. */
static int sign_raw(const cjwst_key *key, int digest, const void *message, size_t message_len,
                    unsigned char **out_signature, size_t *out_len, const char **step) {
    int ok = 0;
    unsigned char *der = NULL;
    size_t der_len = 0;
    const unsigned char *cursor = NULL;
    ECDSA_SIG *signature = NULL;
    const BIGNUM *r = NULL;
    const BIGNUM *s = NULL;
    unsigned char *raw = NULL;
    size_t half = curve_field_bytes(key->curve);

    *step = "unsupported curve";
    if (half == 0 || half > INT_MAX / 2) goto done;
    *step = "EVP_DigestSign";
    if (!sign_to_der(key->pkey, digest, message, message_len, &der, &der_len)) goto done;
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

int cjwst_sign_es256(const cjwst_key *key, const void *message, size_t message_len,
                     unsigned char **out_signature, size_t *out_len) {
    int ok = 0;
    const char *step = "invalid arguments";

    begin();
    if (out_signature != NULL) *out_signature = NULL;
    CHECK(key != NULL && key->pkey != NULL && out_signature != NULL && out_len != NULL,
          "invalid arguments");
    CHECK(key->curve == CJWST_CURVE_P256, "ES256 needs a P-256 key");
    ok = sign_raw(key, CJWST_DIGEST_SHA256, message, message_len, out_signature, out_len, &step);
done:
    return finish(ok, __func__, step);
}

int cjwst_sign_raw(const cjwst_key *key, int digest, const void *message, size_t message_len,
                   unsigned char **out_signature, size_t *out_len) {
    int ok = 0;
    const char *step = "invalid arguments";

    begin();
    if (out_signature != NULL) *out_signature = NULL;
    CHECK(key != NULL && key->pkey != NULL && out_signature != NULL && out_len != NULL,
          "invalid arguments");
    ok = sign_raw(key, digest, message, message_len, out_signature, out_len, &step);
done:
    return finish(ok, __func__, step);
}

int cjwst_sign_der(const cjwst_key *key, int digest, const void *message, size_t message_len,
                   unsigned char **out_signature, size_t *out_len) {
    int ok = 0;
    const char *step = "invalid arguments";

    begin();
    if (out_signature != NULL) *out_signature = NULL;
    CHECK(key != NULL && key->pkey != NULL && out_signature != NULL && out_len != NULL,
          "invalid arguments");
    step = "EVP_DigestSign";
    ok = sign_to_der(key->pkey, digest, message, message_len, out_signature, out_len);
done:
    return finish(ok, __func__, step);
}


/* ---------------------------------------------------------------------------------------------
 * Crafted certificates: a small DER writer, so that every field is written exactly as given
 * ------------------------------------------------------------------------------------------- */

/* A growable byte buffer; `failed` sticks after the first allocation failure. */
typedef struct der_buffer {
    unsigned char *data;
    size_t length;
    size_t capacity;
    int failed;
} der_buffer;

static void der_append(der_buffer *buffer, const void *bytes, size_t length) {
    if (buffer->failed || length == 0) return;
    if (buffer->length + length > buffer->capacity) {
        size_t capacity = buffer->capacity * 2 + length + 64;
        unsigned char *grown = OPENSSL_realloc(buffer->data, capacity);
        if (grown == NULL) {
            buffer->failed = 1;
            return;
        }
        buffer->data = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->data + buffer->length, bytes, length);
    buffer->length += length;
}

static void der_byte(der_buffer *buffer, unsigned char byte) { der_append(buffer, &byte, 1); }

/* Tag and definite length (short or long form). */
static void der_header(der_buffer *buffer, unsigned char tag, size_t length) {
    der_byte(buffer, tag);
    if (length < 0x80) {
        der_byte(buffer, (unsigned char)length);
        return;
    }
    unsigned char bytes[sizeof(size_t)];
    int count = 0;
    for (size_t rest = length; rest != 0; rest >>= 8) bytes[count++] = (unsigned char)(rest & 0xFF);
    der_byte(buffer, (unsigned char)(0x80 | count));
    while (count > 0) der_byte(buffer, bytes[--count]);
}

static void der_tlv(der_buffer *buffer, unsigned char tag, const void *contents, size_t length) {
    der_header(buffer, tag, length);
    der_append(buffer, contents, length);
}

/* Appends `inner` wrapped in `tag`, then releases `inner`. */
static void der_wrap(der_buffer *buffer, unsigned char tag, der_buffer *inner) {
    if (inner->failed) buffer->failed = 1;
    der_tlv(buffer, tag, inner->data, inner->length);
    OPENSSL_free(inner->data);
    memset(inner, 0, sizeof *inner);
}

/* OBJECT IDENTIFIER contents from dotted text (at least two arcs; first 0...2). */
static int der_oid(der_buffer *buffer, const char *dotted) {
    uint64_t arcs[64];
    size_t count = 0;
    const char *cursor = dotted;
    if (dotted == NULL || *dotted == '\0') return 0;
    while (*cursor != '\0') {
        uint64_t value = 0;
        int digits = 0;
        while (*cursor >= '0' && *cursor <= '9') {
            if (value > (UINT64_MAX - 9) / 10) return 0;
            value = value * 10 + (uint64_t)(*cursor - '0');
            cursor++;
            digits++;
        }
        if (digits == 0 || count == sizeof arcs / sizeof arcs[0]) return 0;
        arcs[count++] = value;
        if (*cursor == '.') {
            cursor++;
            if (*cursor == '\0') return 0;
        } else if (*cursor != '\0') {
            return 0;
        }
    }
    if (count < 2 || arcs[0] > 2 || (arcs[0] < 2 && arcs[1] >= 40)) return 0;
    if (arcs[1] > UINT64_MAX - 80) return 0;
    der_buffer contents = {0};
    for (size_t index = 1; index < count; index++) {
        uint64_t arc = index == 1 ? arcs[0] * 40 + arcs[1] : arcs[index];
        unsigned char bytes[10];
        int length = 0;
        do {
            bytes[length++] = (unsigned char)(arc & 0x7F);
            arc >>= 7;
        } while (arc != 0);
        while (length > 0) {
            length--;
            der_byte(&contents, (unsigned char)(bytes[length] | (length > 0 ? 0x80 : 0)));
        }
    }
    der_wrap(buffer, 0x06, &contents);
    return 1;
}

/* Civil date of a day count from 1970-01-01 (H. Hinnant's days_from_civil inverse). */
static void civil_from_days(int64_t days, int64_t *year, int *month, int *day) {
    days += 719468;
    int64_t era = (days >= 0 ? days : days - 146096) / 146097;
    int64_t day_of_era = days - era * 146097;
    int64_t year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
    int64_t day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    int64_t mp = (5 * day_of_year + 2) / 153;
    *day = (int)(day_of_year - (153 * mp + 2) / 5 + 1);
    *month = (int)(mp < 10 ? mp + 3 : mp - 9);
    *year = year_of_era + era * 400 + (*month <= 2);
}

/* UTCTime or GeneralizedTime, to the second, "Z". */
static int der_time(der_buffer *buffer, int64_t seconds, int encoding) {
    int64_t days = seconds >= 0 ? seconds / 86400 : -((-seconds + 86399) / 86400);
    int64_t rest = seconds - days * 86400;
    int64_t year = 0;
    int month = 0, day = 0;
    char text[32];
    civil_from_days(days, &year, &month, &day);
    int hour = (int)(rest / 3600), minute = (int)(rest / 60 % 60), second = (int)(rest % 60);
    if (encoding == CJWST_TIME_UTC) {
        if (year < 1950 || year > 2049) return 0;
        snprintf(text, sizeof text, "%02d%02d%02d%02d%02d%02dZ", (int)(year % 100), month, day, hour,
                 minute, second);
        der_tlv(buffer, 0x17, text, strlen(text));
    } else if (encoding == CJWST_TIME_GENERALIZED) {
        if (year < 0 || year > 9999) return 0;
        snprintf(text, sizeof text, "%04d%02d%02d%02d%02d%02dZ", (int)year, month, day, hour, minute,
                 second);
        der_tlv(buffer, 0x18, text, strlen(text));
    } else {
        return 0;
    }
    return 1;
}

static const char *ecdsa_signature_oid(int digest) {
    switch (digest) {
    case CJWST_DIGEST_SHA256: return "1.2.840.10045.4.3.2";
    case CJWST_DIGEST_SHA384: return "1.2.840.10045.4.3.3";
    case CJWST_DIGEST_SHA512: return "1.2.840.10045.4.3.4";
    default: return NULL;
    }
}

int cjwst_cert_create_crafted(const cjwst_crafted_cert *params, const cjwst_key *subject_key,
                              const cjwst_key *issuer_key, unsigned char **out_der,
                              size_t *out_len) {
    int ok = 0;
    const char *step = "invalid arguments";
    der_buffer tbs = {0}, fields = {0}, item = {0}, list = {0}, certificate = {0}, algorithm = {0};
    unsigned char *spki = NULL;
    int spki_len = 0;
    unsigned char *signature = NULL;
    size_t signature_len = 0;
    const char *algorithm_oid = NULL;

    begin();
    if (out_der != NULL) *out_der = NULL;
    CHECK(params != NULL && issuer_key != NULL && issuer_key->pkey != NULL && out_der != NULL &&
              out_len != NULL,
          "invalid arguments");
    CHECK(params->subject_der != NULL && params->subject_len > 0 && params->issuer_der != NULL &&
              params->issuer_len > 0,
          "subject and issuer names are required");
    CHECK(params->serial != NULL && params->serial_len > 0 && params->serial_len <= 64,
          "serial must be 1...64 content bytes");
    CHECK(params->extension_count == 0 || params->extensions != NULL, "extensions missing");
    algorithm_oid = ecdsa_signature_oid(params->signature_digest);
    CHECK(algorithm_oid != NULL, "unsupported signature digest");
    if (params->spki_der == NULL) {
        CHECK(subject_key != NULL && subject_key->pkey != NULL, "no subject key and no SPKI DER");
        spki_len = i2d_PUBKEY(subject_key->pkey, &spki);
        CHECK(spki_len > 0 && spki != NULL, "i2d_PUBKEY");
    } else {
        CHECK(params->spki_len > 0, "empty SPKI DER");
    }

    /* AlgorithmIdentifier: SEQUENCE { ecdsa-with-SHAx } (no parameters, RFC 5758). */
    CHECK(der_oid(&item, algorithm_oid), "signature OID");
    der_wrap(&algorithm, 0x30, &item);

    /* version [0] EXPLICIT INTEGER 2 */
    {
        static const unsigned char version[5] = {0xA0, 0x03, 0x02, 0x01, 0x02};
        der_append(&fields, version, sizeof version);
    }
    der_tlv(&fields, 0x02, params->serial, params->serial_len);
    der_append(&fields, algorithm.data, algorithm.length);
    der_append(&fields, params->issuer_der, params->issuer_len);
    CHECK(der_time(&item, params->not_before, params->not_before_encoding),
          "notBefore (UTCTime covers 1950...2049 only)");
    CHECK(der_time(&item, params->not_after, params->not_after_encoding),
          "notAfter (UTCTime covers 1950...2049 only)");
    der_wrap(&fields, 0x30, &item);
    der_append(&fields, params->subject_der, params->subject_len);
    if (params->spki_der != NULL) {
        der_append(&fields, params->spki_der, params->spki_len);
    } else {
        der_append(&fields, spki, (size_t)spki_len);
    }
    if (params->extension_count > 0) {
        for (size_t index = 0; index < params->extension_count; index++) {
            const cjwst_extension *extension = &params->extensions[index];
            der_buffer one = {0};
            CHECK(extension->value != NULL || extension->value_len == 0, "extension value missing");
            if (!der_oid(&one, extension->oid)) {
                OPENSSL_free(one.data);
                CHECK(0, "extension OID (dotted text)");
            }
            if (extension->critical) {
                static const unsigned char true_value[3] = {0x01, 0x01, 0xFF};
                der_append(&one, true_value, sizeof true_value);
            }
            der_tlv(&one, 0x04, extension->value, extension->value_len);
            der_wrap(&list, 0x30, &one);
        }
        der_wrap(&item, 0x30, &list);
        der_wrap(&fields, 0xA3, &item);
    }
    der_wrap(&tbs, 0x30, &fields);
    CHECK(!tbs.failed && !algorithm.failed, "out of memory");

    step = "EVP_DigestSign";
    CHECK(sign_to_der(issuer_key->pkey, params->signature_digest, tbs.data, tbs.length, &signature,
                      &signature_len),
          "EVP_DigestSign");

    der_append(&item, tbs.data, tbs.length);
    der_append(&item, algorithm.data, algorithm.length);
    der_header(&item, 0x03, signature_len + 1);
    der_byte(&item, 0x00);
    der_append(&item, signature, signature_len);
    der_wrap(&certificate, 0x30, &item);
    CHECK(!certificate.failed, "out of memory");
    *out_der = certificate.data;
    *out_len = certificate.length;
    certificate.data = NULL;
    ok = 1;
done:
    OPENSSL_free(certificate.data);
    OPENSSL_free(tbs.data);
    OPENSSL_free(fields.data);
    OPENSSL_free(item.data);
    OPENSSL_free(list.data);
    OPENSSL_free(algorithm.data);
    OPENSSL_free(signature);
    OPENSSL_free(spki);
    return finish(ok, __func__, step);
}

int cjwst_key_public_spki_der_ex(const cjwst_key *key, int point_form, int explicit_parameters,
                                 unsigned char **out_der, size_t *out_len) {
    int ok = 0;
    const char *step = "invalid arguments";
    EVP_PKEY *copy = NULL;
    unsigned char *der = NULL;
    int length = 0;

    begin();
    if (out_der != NULL) *out_der = NULL;
    CHECK(key != NULL && key->pkey != NULL && out_der != NULL && out_len != NULL &&
              (point_form == CJWST_POINT_UNCOMPRESSED || point_form == CJWST_POINT_COMPRESSED),
          "invalid arguments");
    copy = EVP_PKEY_dup(key->pkey);
    CHECK(copy != NULL, "EVP_PKEY_dup");
    CHECK(EVP_PKEY_set_utf8_string_param(copy, OSSL_PKEY_PARAM_EC_POINT_CONVERSION_FORMAT,
                                         point_form == CJWST_POINT_COMPRESSED
                                             ? OSSL_PKEY_EC_POINT_CONVERSION_FORMAT_COMPRESSED
                                             : OSSL_PKEY_EC_POINT_CONVERSION_FORMAT_UNCOMPRESSED) == 1,
          "point conversion format");
    if (explicit_parameters) {
        CHECK(EVP_PKEY_set_utf8_string_param(copy, OSSL_PKEY_PARAM_EC_ENCODING,
                                             OSSL_PKEY_EC_ENCODING_EXPLICIT) == 1,
              "explicit parameters");
    }
    length = i2d_PUBKEY(copy, &der);
    CHECK(length > 0 && der != NULL, "i2d_PUBKEY");
    *out_der = der;
    *out_len = (size_t)length;
    der = NULL;
    ok = 1;
done:
    OPENSSL_free(der);
    EVP_PKEY_free(copy);
    return finish(ok, __func__, step);
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

    begin();
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
    return finish(ok, __func__, step);
}

static int is_time_error(int error) {
    return error == X509_V_ERR_CERT_NOT_YET_VALID || error == X509_V_ERR_CERT_HAS_EXPIRED ||
           error == X509_V_ERR_ERROR_IN_CERT_NOT_BEFORE_FIELD ||
           error == X509_V_ERR_ERROR_IN_CERT_NOT_AFTER_FIELD;
}

static int record_chain_error(int ok, X509_STORE_CTX *context) {
    if (ok) return 1;
    cjwst_chain_verdict *verdict = X509_STORE_CTX_get_app_data(context);
    int error = X509_STORE_CTX_get_error(context);
    int depth = X509_STORE_CTX_get_error_depth(context);
    if (verdict != NULL) {
        if (is_time_error(error)) {
            if (verdict->time_error == 0) {
                verdict->time_error = error;
                verdict->time_error_depth = depth;
            }
        } else if (verdict->trust_error == 0) {
            verdict->trust_error = error;
            verdict->trust_error_depth = depth;
        }
    }
    return 1; /* go on, so that every failure is seen */
}

int cjwst_verify_chain(const void *leaf_der, size_t leaf_len, const void *intermediate_der,
                       size_t intermediate_len, const void *root_der, size_t root_len,
                       int64_t at_time, cjwst_chain_verdict *out_verdict) {
    int ok = 0;
    const char *step = "invalid arguments";
    X509 *leaf = NULL, *intermediate = NULL, *root = NULL;
    X509_STORE *store = NULL;
    X509_STORE_CTX *context = NULL;
    STACK_OF(X509) *untrusted = NULL;
    int result = 0;

    begin();
    CHECK(out_verdict != NULL, "invalid arguments");
    memset(out_verdict, 0, sizeof *out_verdict);
    leaf = parse_certificate(leaf_der, leaf_len);
    CHECK(leaf != NULL, "d2i_X509 (leaf)");
    intermediate = parse_certificate(intermediate_der, intermediate_len);
    CHECK(intermediate != NULL, "d2i_X509 (intermediate)");
    root = parse_certificate(root_der, root_len);
    CHECK(root != NULL, "d2i_X509 (root)");
    store = X509_STORE_new();
    CHECK(store != NULL, "X509_STORE_new");
    CHECK(X509_STORE_add_cert(store, root) == 1, "X509_STORE_add_cert");
    untrusted = sk_X509_new_null();
    CHECK(untrusted != NULL && sk_X509_push(untrusted, intermediate) > 0, "sk_X509_push");
    context = X509_STORE_CTX_new();
    CHECK(context != NULL, "X509_STORE_CTX_new");
    CHECK(X509_STORE_CTX_init(context, store, leaf, untrusted) == 1, "X509_STORE_CTX_init");
    X509_STORE_CTX_set_time(context, 0, (time_t)at_time);
    X509_STORE_CTX_set_app_data(context, out_verdict);
    X509_STORE_CTX_set_verify_cb(context, record_chain_error);
    result = X509_verify_cert(context);
    /* -1: OpenSSL could not run the verification (for example a certificate key it cannot decode);
       JWSVerify rejects such a chain as untrusted, so it is a trust failure here too. */
    out_verdict->could_not_run = result < 0;
    if (result <= 0 && out_verdict->trust_error == 0 && out_verdict->time_error == 0) {
        int error = X509_STORE_CTX_get_error(context);
        out_verdict->trust_error = error != X509_V_OK ? error : X509_V_ERR_UNSPECIFIED;
        out_verdict->trust_error_depth = X509_STORE_CTX_get_error_depth(context);
    }
    out_verdict->verified =
        result == 1 && out_verdict->trust_error == 0 && out_verdict->time_error == 0;
    {
        STACK_OF(X509) *chain = X509_STORE_CTX_get0_chain(context);
        out_verdict->chain_length = chain != NULL ? sk_X509_num(chain) : 0;
    }
    ok = 1;
done:
    X509_STORE_CTX_free(context);
    sk_X509_free(untrusted);
    X509_STORE_free(store);
    X509_free(root);
    X509_free(intermediate);
    X509_free(leaf);
    return finish(ok, __func__, step);
}

const char *cjwst_verify_error_string(int code) { return X509_verify_cert_error_string(code); }
