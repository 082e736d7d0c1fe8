#include "CJWSOpenSSL.h"
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
#include <openssl/x509v3.h>

/* ---- errors ---------------------------------------------------------------------------------- */

size_t cjws_error_text(char *buffer, size_t capacity) {
    size_t used = 0;
    if (capacity == 0) {
        ERR_clear_error();
        return 0;
    }
    buffer[0] = '\0';
    unsigned long code;
    while ((code = ERR_get_error()) != 0) {
        char line[256];
        ERR_error_string_n(code, line, sizeof line);
        size_t need = strlen(line) + (used > 0 ? 2 : 0);
        if (used + need + 1 > capacity) {
            continue; /* keep draining, drop what does not fit */
        }
        if (used > 0) {
            memcpy(buffer + used, "; ", 2);
            used += 2;
        }
        memcpy(buffer + used, line, strlen(line));
        used += strlen(line);
        buffer[used] = '\0';
    }
    return used;
}

void cjws_clear_errors(void) { ERR_clear_error(); }

void cjws_free(void *pointer) { OPENSSL_free(pointer); }

/* ---- fetched algorithms, once per process ---------------------------------------------------- */

static pthread_once_t fetch_once = PTHREAD_ONCE_INIT;
static EVP_MD *sha256_md = NULL; /* owned for the life of the process */

static void fetch_algorithms(void) {
    /* An explicit fetch avoids the implicit provider lookup on every digest. */
    sha256_md = EVP_MD_fetch(NULL, "SHA256", NULL);
}

static const EVP_MD *cjws_sha256_md(void) {
    pthread_once(&fetch_once, fetch_algorithms);
    return sha256_md != NULL ? sha256_md : EVP_sha256();
}

int cjws_sha256(const void *data, size_t length, unsigned char *digest) {
    unsigned int out_length = 0;
    return EVP_Digest(data, length, digest, &out_length, cjws_sha256_md(), NULL) == 1 && out_length == 32;
}

int cjws_sha384(const void *data, size_t length, unsigned char *digest) {
    unsigned int out_length = 0;
    return EVP_Digest(data, length, digest, &out_length, EVP_sha384(), NULL) == 1 && out_length == 48;
}

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
 * is cached: pointer equality is identity. One slot per use (cjws_verify_slot), so that a token's
 * leaf key and its certificate's issuer key do not evict each other. */
typedef struct verify_slot {
    EVP_PKEY *key;     /* not owned: kept alive by ctx */
    EVP_PKEY_CTX *ctx; /* owned */
} verify_slot;

static pthread_key_t verify_slot_key;
static int verify_slot_key_ready = 0;
static pthread_once_t verify_slot_once = PTHREAD_ONCE_INIT;

static void free_verify_slots(void *pointer) {
    verify_slot *slots = pointer;
    for (int index = 0; index < CJWS_VERIFY_SLOT_COUNT; index++) {
        EVP_PKEY_CTX_free(slots[index].ctx);
    }
    free(slots);
}

static void make_verify_slot_key(void) {
    verify_slot_key_ready = pthread_key_create(&verify_slot_key, free_verify_slots) == 0;
}

EVP_PKEY_CTX *cjws_verify_context(cjws_verify_slot which, EVP_PKEY *key) {
    if (which < 0 || which >= CJWS_VERIFY_SLOT_COUNT || key == NULL) {
        return NULL;
    }
    pthread_once(&verify_slot_once, make_verify_slot_key);
    if (!verify_slot_key_ready) {
        return NULL;
    }
    verify_slot *slots = pthread_getspecific(verify_slot_key);
    if (slots == NULL) {
        slots = calloc(CJWS_VERIFY_SLOT_COUNT, sizeof *slots);
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
    EVP_PKEY_CTX *context = cjws_verify_context(CJWS_VERIFY_SLOT_ES256, key); /* owned by this thread's slot */
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

/* ---- X.509 ----------------------------------------------------------------------------------- */

X509 *cjws_x509_from_der(const void *der, size_t length) {
    ERR_clear_error();
    if (length == 0 || length > LONG_MAX) {
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

X509 *cjws_x509_from_pem(const void *pem, size_t length) {
    ERR_clear_error();
    if (length > INT_MAX) {
        return NULL;
    }
    BIO *bio = BIO_new_mem_buf(pem, (int)length);
    if (bio == NULL) {
        return NULL;
    }
    X509 *certificate = PEM_read_bio_X509(bio, NULL, NULL, NULL);
    BIO_free(bio);
    return certificate;
}

void cjws_x509_free(X509 *certificate) { X509_free(certificate); }

int cjws_x509_to_der(X509 *certificate, unsigned char **out) {
    *out = NULL;
    return i2d_X509(certificate, out);
}

EVP_PKEY *cjws_x509_public_key(X509 *certificate) {
    ERR_clear_error();
    return X509_get_pubkey(certificate); /* get1: the caller owns the returned reference */
}

int cjws_x509_has_extension(X509 *certificate, const char *dotted_oid) {
    ERR_clear_error();
    ASN1_OBJECT *object = OBJ_txt2obj(dotted_oid, 1);
    if (object == NULL) {
        return -1;
    }
    int index = X509_get_ext_by_OBJ(certificate, object, -1);
    ASN1_OBJECT_free(object);
    return index >= 0 ? 1 : 0;
}

int cjws_asn1_time_to_seconds(const ASN1_TIME *time, int64_t *seconds) {
    struct tm parts;
    memset(&parts, 0, sizeof parts);
    if (time == NULL || ASN1_TIME_to_tm(time, &parts) != 1) {
        return 0;
    }
    /* Days from civil date (proleptic Gregorian), independent of the process time zone. */
    int64_t year = (int64_t)parts.tm_year + 1900;
    int64_t month = parts.tm_mon + 1;
    year -= month <= 2;
    int64_t era = (year >= 0 ? year : year - 399) / 400;
    int64_t year_of_era = year - era * 400;
    int64_t day_of_year = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + parts.tm_mday - 1;
    int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    int64_t days = era * 146097 + day_of_era - 719468;
    *seconds = days * 86400 + parts.tm_hour * 3600 + parts.tm_min * 60 + parts.tm_sec;
    return 1;
}

int cjws_x509_validity(X509 *certificate, int64_t *not_before, int64_t *not_after) {
    return cjws_asn1_time_to_seconds(X509_get0_notBefore(certificate), not_before) &&
           cjws_asn1_time_to_seconds(X509_get0_notAfter(certificate), not_after);
}

int cjws_x509_sha256(X509 *certificate, unsigned char *digest) {
    ERR_clear_error();
    unsigned int length = 0;
    int done = certificate != NULL && X509_digest(certificate, cjws_sha256_md(), digest, &length) == 1 && length == 32;
    ERR_clear_error();
    return done;
}

int cjws_x509_names_equal(X509 *first, int first_issuer, X509 *second, int second_issuer) {
    const X509_NAME *a = first_issuer ? X509_get_issuer_name(first) : X509_get_subject_name(first);
    const X509_NAME *b = second_issuer ? X509_get_issuer_name(second) : X509_get_subject_name(second);
    return a != NULL && b != NULL && X509_NAME_cmp(a, b) == 0;
}

int cjws_nid_common_name(void) { return NID_commonName; }
int cjws_nid_organization(void) { return NID_organizationName; }

int cjws_x509_name_entry(X509 *certificate, int issuer, int nid, char *buffer, size_t capacity) {
    if (capacity == 0) {
        return -1;
    }
    const X509_NAME *name = issuer ? X509_get_issuer_name(certificate) : X509_get_subject_name(certificate);
    int index = X509_NAME_get_index_by_NID(name, nid, -1);
    if (index < 0) {
        return -1;
    }
    const ASN1_STRING *data = X509_NAME_ENTRY_get_data(X509_NAME_get_entry(name, index));
    unsigned char *utf8 = NULL;
    int length = ASN1_STRING_to_UTF8(&utf8, data);
    if (length < 0) {
        ERR_clear_error();
        return -1;
    }
    size_t copy = (size_t)length < capacity - 1 ? (size_t)length : capacity - 1;
    memcpy(buffer, utf8, copy);
    buffer[copy] = '\0';
    OPENSSL_free(utf8);
    return (int)copy;
}

int cjws_x509_serial_hex(X509 *certificate, char *buffer, size_t capacity) {
    if (capacity == 0) {
        return -1;
    }
    BIGNUM *serial = ASN1_INTEGER_to_BN(X509_get0_serialNumber(certificate), NULL);
    if (serial == NULL) {
        ERR_clear_error();
        return -1;
    }
    char *hex = BN_bn2hex(serial);
    BN_free(serial);
    if (hex == NULL) {
        return -1;
    }
    size_t length = strlen(hex);
    size_t copy = length < capacity - 1 ? length : capacity - 1;
    memcpy(buffer, hex, copy);
    buffer[copy] = '\0';
    OPENSSL_free(hex);
    return (int)copy;
}

int cjws_x509_signature_algorithm(X509 *certificate, char *buffer, size_t capacity) {
    if (capacity == 0) {
        return -1;
    }
    const char *name = OBJ_nid2ln(X509_get_signature_nid(certificate));
    if (name == NULL) {
        name = "unknown";
    }
    size_t length = strlen(name);
    size_t copy = length < capacity - 1 ? length : capacity - 1;
    memcpy(buffer, name, copy);
    buffer[copy] = '\0';
    return (int)copy;
}

/* ---- trust store and chain ------------------------------------------------------------------- */

X509_STORE *cjws_store_new(void) {
    ERR_clear_error();
    return X509_STORE_new();
}

void cjws_store_free(X509_STORE *store) { X509_STORE_free(store); }

int cjws_store_add_root(X509_STORE *store, X509 *root) {
    ERR_clear_error();
    /* OpenSSL derives a certificate's extension flags, fingerprint and key on first use and keeps the
     * result, a failure included: an allocation that fails while they are computed marks the
     * certificate invalid for good, and every chain to this root would then fail. Derive them now,
     * while the verifier is being made, and refuse a root for which that fails. */
    uint32_t flags = root != NULL ? X509_get_extension_flags(root) : 0;
    if ((flags & EXFLAG_SET) == 0 || (flags & (EXFLAG_INVALID | EXFLAG_NO_FINGERPRINT)) != 0 ||
        X509_get0_pubkey(root) == NULL) {
        return 0;
    }
    /* X509_STORE_add_cert takes its own reference; adding a duplicate is not an error. */
    if (X509_STORE_add_cert(store, root) == 1) {
        return 1;
    }
    unsigned long error = ERR_peek_last_error();
    if (ERR_GET_REASON(error) == X509_R_CERT_ALREADY_IN_HASH_TABLE) {
        ERR_clear_error();
        return 1;
    }
    return 0;
}

static int is_time_error(int error) {
    return error == X509_V_ERR_CERT_NOT_YET_VALID || error == X509_V_ERR_CERT_HAS_EXPIRED ||
           error == X509_V_ERR_ERROR_IN_CERT_NOT_BEFORE_FIELD || error == X509_V_ERR_ERROR_IN_CERT_NOT_AFTER_FIELD;
}

static int collect_errors(int ok, X509_STORE_CTX *context) {
    if (ok) {
        return 1;
    }
    cjws_chain_result *result = X509_STORE_CTX_get_app_data(context);
    int error = X509_STORE_CTX_get_error(context);
    int depth = X509_STORE_CTX_get_error_depth(context);
    if (result != NULL) {
        if (is_time_error(error)) {
            if (result->time_error == 0) {
                result->time_error = error;
                result->time_error_depth = depth;
            }
        } else if (result->trust_error == 0) {
            result->trust_error = error;
            result->trust_error_depth = depth;
        }
    }
    /* Keep going so that every problem is seen; the verdict is decided from `result`. */
    return 1;
}

int cjws_verify_chain(X509_STORE *store, X509 *leaf, X509 *intermediate, int64_t at_time,
                      cjws_chain_result *result) {
    ERR_clear_error();
    memset(result, 0, sizeof *result);
    int status = 0;
    X509_STORE_CTX *context = X509_STORE_CTX_new();
    STACK_OF(X509) *untrusted = sk_X509_new_null();
    if (context == NULL || untrusted == NULL) {
        goto done;
    }
    /* sk_X509_push does not take a reference: `intermediate` stays owned by the caller and outlives
     * the context. */
    if (sk_X509_push(untrusted, intermediate) <= 0) {
        goto done;
    }
    if (X509_STORE_CTX_init(context, store, leaf, untrusted) != 1) {
        goto done;
    }
    X509_STORE_CTX_set_time(context, 0, (time_t)at_time);
    X509_STORE_CTX_set_app_data(context, result);
    X509_STORE_CTX_set_verify_cb(context, collect_errors);

    int verdict = X509_verify_cert(context);
    if (verdict < 0) {
        goto done;
    }
    if (verdict == 0 && result->trust_error == 0 && result->time_error == 0) {
        /* Failed without passing through the callback (e.g. an internal limit): a trust failure. */
        int error = X509_STORE_CTX_get_error(context);
        result->trust_error = error != X509_V_OK ? error : X509_V_ERR_UNSPECIFIED;
        result->trust_error_depth = X509_STORE_CTX_get_error_depth(context);
    }

    STACK_OF(X509) *chain = X509_STORE_CTX_get0_chain(context); /* get0: owned by the context */
    int length = chain != NULL ? sk_X509_num(chain) : 0;
    result->chain_length = length;
    if (length >= 2) {
        X509 *second = sk_X509_value(chain, 1);
        result->intermediate_in_chain = second == intermediate || X509_cmp(second, intermediate) == 0;
    }
    result->chain_not_before = INT64_MIN;
    result->chain_not_after = INT64_MAX;
    for (int index = 0; index < length; index++) {
        int64_t not_before = 0, not_after = 0;
        if (!cjws_x509_validity(sk_X509_value(chain, index), &not_before, &not_after)) {
            result->chain_not_before = INT64_MAX;
            result->chain_not_after = INT64_MIN;
            break;
        }
        if (not_before > result->chain_not_before) {
            result->chain_not_before = not_before;
        }
        if (not_after < result->chain_not_after) {
            result->chain_not_after = not_after;
        }
    }
    if (length > 0) {
        unsigned int digest_length = 0;
        X509_digest(sk_X509_value(chain, length - 1), cjws_sha256_md(), result->root_sha256, &digest_length);
    }
    status = 1;

done:
    X509_STORE_CTX_free(context);
    sk_X509_free(untrusted); /* frees the stack only, not the certificate */
    return status;
}

const char *cjws_verify_error_string(int code) { return X509_verify_cert_error_string(code); }
