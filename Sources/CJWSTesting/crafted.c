/* Crafted certificates (cjwst_cert_create_crafted): a small DER writer, so that every field is
 * written exactly as given, with no re-encoding by OpenSSL. */
#include "internal.h"

#include <stdio.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/x509.h>

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
    case CJWST_DIGEST_SHA1: return "1.2.840.10045.4.1";
    case CJWST_DIGEST_SHA256: return "1.2.840.10045.4.3.2";
    case CJWST_DIGEST_SHA384: return "1.2.840.10045.4.3.3";
    case CJWST_DIGEST_SHA512: return "1.2.840.10045.4.3.4";
    default: return NULL;
    }
}

/* PKCS #1 v1.5 signature OIDs (RFC 8017 appendix C); their AlgorithmIdentifier carries NULL. */
static const char *rsa_signature_oid(int digest) {
    switch (digest) {
    case CJWST_DIGEST_SHA1: return "1.2.840.113549.1.1.5";
    case CJWST_DIGEST_SHA256: return "1.2.840.113549.1.1.11";
    case CJWST_DIGEST_SHA384: return "1.2.840.113549.1.1.12";
    case CJWST_DIGEST_SHA512: return "1.2.840.113549.1.1.13";
    default: return NULL;
    }
}

int cjwst_cert_create_crafted(const cjwst_crafted_cert *params, EVP_PKEY *subject_key,
                              EVP_PKEY *issuer_key, unsigned char **out_der,
                              size_t *out_len) {
    int ok = 0;
    const char *step = "invalid arguments";
    der_buffer tbs = {0}, fields = {0}, item = {0}, list = {0}, certificate = {0}, algorithm = {0};
    unsigned char *spki = NULL;
    int spki_len = 0;
    unsigned char *signature = NULL;
    size_t signature_len = 0;
    const char *algorithm_oid = NULL;
    int is_rsa = 0;

    cjwss_internal_begin();
    if (out_der != NULL) *out_der = NULL;
    CJWSS_CHECK(params != NULL && issuer_key != NULL && out_der != NULL &&
              out_len != NULL,
          "invalid arguments");
    CJWSS_CHECK(params->subject_der != NULL && params->subject_len > 0 && params->issuer_der != NULL &&
              params->issuer_len > 0,
          "subject and issuer names are required");
    CJWSS_CHECK(params->serial != NULL && params->serial_len > 0 && params->serial_len <= 64,
          "serial must be 1...64 content bytes");
    CJWSS_CHECK(params->extension_count == 0 || params->extensions != NULL, "extensions missing");
    is_rsa = EVP_PKEY_is_a(issuer_key, "RSA");
    algorithm_oid = is_rsa ? rsa_signature_oid(params->signature_digest)
                           : ecdsa_signature_oid(params->signature_digest);
    CJWSS_CHECK(algorithm_oid != NULL, "unsupported signature digest");
    if (params->spki_der == NULL) {
        CJWSS_CHECK(subject_key != NULL, "no subject key and no SPKI DER");
        spki_len = i2d_PUBKEY(subject_key, &spki);
        CJWSS_CHECK(spki_len > 0 && spki != NULL, "i2d_PUBKEY");
    } else {
        CJWSS_CHECK(params->spki_len > 0, "empty SPKI DER");
    }

    /* AlgorithmIdentifier: SEQUENCE { ecdsa-with-SHAx } (no parameters, RFC 5758), or
       SEQUENCE { shaxWithRSAEncryption, NULL } (RFC 4055 section 5) for an RSA issuer key. */
    CJWSS_CHECK(der_oid(&item, algorithm_oid), "signature OID");
    if (is_rsa) {
        static const unsigned char null_parameters[2] = {0x05, 0x00};
        der_append(&item, null_parameters, sizeof null_parameters);
    }
    der_wrap(&algorithm, 0x30, &item);

    /* version [0] EXPLICIT INTEGER 2 */
    {
        static const unsigned char version[5] = {0xA0, 0x03, 0x02, 0x01, 0x02};
        der_append(&fields, version, sizeof version);
    }
    der_tlv(&fields, 0x02, params->serial, params->serial_len);
    der_append(&fields, algorithm.data, algorithm.length);
    der_append(&fields, params->issuer_der, params->issuer_len);
    CJWSS_CHECK(der_time(&item, params->not_before, params->not_before_encoding),
          "notBefore (UTCTime covers 1950...2049 only)");
    CJWSS_CHECK(der_time(&item, params->not_after, params->not_after_encoding),
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
            CJWSS_CHECK(extension->value != NULL || extension->value_len == 0, "extension value missing");
            if (!der_oid(&one, extension->oid)) {
                OPENSSL_free(one.data);
                CJWSS_CHECK(0, "extension OID (dotted text)");
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
    CJWSS_CHECK(!tbs.failed && !algorithm.failed, "out of memory");

    step = "EVP_DigestSign";
    /* CJWSSigning's signer: the CJWST_DIGEST_* values are its CJWSS_DIGEST_* (signatures.c). */
    CJWSS_CHECK(cjwss_sign(issuer_key, params->signature_digest, 0, tbs.data, tbs.length, &signature,
                     &signature_len),
          "EVP_DigestSign");

    der_append(&item, tbs.data, tbs.length);
    der_append(&item, algorithm.data, algorithm.length);
    der_header(&item, 0x03, signature_len + 1);
    der_byte(&item, 0x00);
    der_append(&item, signature, signature_len);
    der_wrap(&certificate, 0x30, &item);
    CJWSS_CHECK(!certificate.failed, "out of memory");
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
    return cjwss_internal_finish(ok, __func__, step);
}
