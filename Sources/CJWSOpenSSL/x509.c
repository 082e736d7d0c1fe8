/* Certificates: parsing and the accessors the Swift layer reads (the CJWSOpenSSL.h section "X.509"). */

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

X509 *cjws_x509_up_ref(X509 *certificate) {
    return certificate != NULL && X509_up_ref(certificate) == 1 ? certificate : NULL;
}

int cjws_x509_to_der(X509 *certificate, unsigned char **out_der, size_t *out_len) {
    ERR_clear_error();
    *out_der = NULL;
    *out_len = 0;
    int length = i2d_X509(certificate, out_der);
    if (length <= 0) {
        OPENSSL_free(*out_der);
        *out_der = NULL;
        return 0;
    }
    *out_len = (size_t)length;
    return 1;
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
    ERR_clear_error();
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
    int done = certificate != NULL && X509_digest(certificate, cjws_internal_sha256_md(), digest, &length) == 1 && length == 32;
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
    ERR_clear_error();
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
    ERR_clear_error();
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
    ERR_clear_error();
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
