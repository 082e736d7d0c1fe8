/* Reading a private key (the CJWSSigning.h section "reading a private key"): PKCS #8 from PEM or DER, P-256
 * only, and for anything else the kind of input that was found instead. */
#include "internal.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <openssl/bio.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

/* Copies `text` into the caller's `found` buffer (truncated, NUL-terminated). */
static void set_found(char *found, size_t capacity, const char *text) {
    if (found == NULL || capacity == 0) return;
    snprintf(found, capacity, "%s", text);
}

static int is_blank(const unsigned char *bytes, size_t length) {
    for (size_t index = 0; index < length; index++) {
        unsigned char byte = bytes[index];
        if (byte != ' ' && byte != '\t' && byte != '\r' && byte != '\n') return 0;
    }
    return 1;
}

static int contains(const unsigned char *bytes, size_t length, const char *needle) {
    size_t needle_length = strlen(needle);
    if (needle_length == 0 || length < needle_length) return 0;
    for (size_t index = 0; index + needle_length <= length; index++) {
        if (memcmp(bytes + index, needle, needle_length) == 0) return 1;
    }
    return 0;
}

/* A curve's NIST name where it has one ("P-384"), else OpenSSL's. */
static const char *curve_display_name(const char *group) {
    if (strcmp(group, "prime256v1") == 0) return "P-256";
    if (strcmp(group, "secp384r1") == 0) return "P-384";
    if (strcmp(group, "secp521r1") == 0) return "P-521";
    if (strcmp(group, "secp224r1") == 0) return "P-224";
    if (strcmp(group, "prime192v1") == 0) return "P-192";
    return group;
}

/* Decides whether a private key read from PKCS #8 is a usable P-256 key: CJWSS_KEY_OK, or the reason. */
static int classify_private_key(EVP_PKEY *key, char *found, size_t capacity) {
    char text[96];
    if (EVP_PKEY_is_a(key, "EC")) {
        char group[64] = {0};
        size_t group_length = 0;
        if (EVP_PKEY_get_group_name(key, group, sizeof group, &group_length) != 1 || group_length == 0) {
            set_found(found, capacity, "explicit curve parameters");
            return CJWSS_KEY_WRONG_CURVE;
        }
        if (strcmp(group, "prime256v1") != 0) {
            set_found(found, capacity, curve_display_name(group));
            return CJWSS_KEY_WRONG_CURVE;
        }
        EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
        int valid = context != NULL && EVP_PKEY_check(context) == 1;
        EVP_PKEY_CTX_free(context);
        return valid ? CJWSS_KEY_OK : CJWSS_KEY_INVALID;
    }
    if (EVP_PKEY_is_a(key, "RSA") || EVP_PKEY_is_a(key, "RSA-PSS")) {
        snprintf(text, sizeof text, "RSA %d", EVP_PKEY_get_bits(key));
        set_found(found, capacity, text);
        return CJWSS_KEY_RSA;
    }
    const char *name = EVP_PKEY_get0_type_name(key);
    set_found(found, capacity, name != NULL ? name : "an unknown algorithm");
    return CJWSS_KEY_OTHER_TYPE;
}

/* Reads DER: PKCS #8 PrivateKeyInfo into `*out_key`, or the kind of DER it is instead (encrypted PKCS #8, a
 * certificate, a public key, a legacy private key). Every candidate must span the whole input. */
static int read_der(const unsigned char *der, size_t length, EVP_PKEY **out_key, char *found, size_t capacity) {
    int reason = CJWSS_KEY_UNREADABLE;
    const unsigned char *cursor = der;
    PKCS8_PRIV_KEY_INFO *info = NULL;
    X509_SIG *encrypted = NULL;
    X509 *certificate = NULL;
    EVP_PKEY *key = NULL;

    if (length == 0 || length > LONG_MAX) return CJWSS_KEY_UNREADABLE;
    info = d2i_PKCS8_PRIV_KEY_INFO(NULL, &cursor, (long)length);
    if (info != NULL && cursor == der + length) {
        key = EVP_PKCS82PKEY(info);
        if (key == NULL) goto done;
        reason = classify_private_key(key, found, capacity);
        if (reason == CJWSS_KEY_OK) {
            *out_key = key;
            key = NULL;
        }
        goto done;
    }
    cursor = der;
    encrypted = d2i_X509_SIG(NULL, &cursor, (long)length);
    if (encrypted != NULL && cursor == der + length) {
        reason = CJWSS_KEY_ENCRYPTED;
        goto done;
    }
    cursor = der;
    certificate = d2i_X509(NULL, &cursor, (long)length);
    if (certificate != NULL && cursor == der + length) {
        reason = CJWSS_KEY_CERTIFICATE;
        goto done;
    }
    cursor = der;
    key = d2i_PUBKEY(NULL, &cursor, (long)length);
    if (key != NULL && cursor == der + length) {
        reason = CJWSS_KEY_PUBLIC;
        goto done;
    }
    EVP_PKEY_free(key);
    /* A private key in a legacy DER form (SEC 1, PKCS #1): named by what it is, and refused. */
    cursor = der;
    key = d2i_AutoPrivateKey(NULL, &cursor, (long)length);
    if (key != NULL && cursor == der + length) {
        reason = classify_private_key(key, found, capacity);
        if (reason == CJWSS_KEY_OK || reason == CJWSS_KEY_INVALID) {
            set_found(found, capacity, "a SEC 1 EC private key (DER)");
            reason = CJWSS_KEY_NOT_PKCS8;
        }
    }
done:
    EVP_PKEY_free(key);
    X509_free(certificate);
    X509_SIG_free(encrypted);
    PKCS8_PRIV_KEY_INFO_free(info); /* clears the private key's octets */
    return reason;
}

/* Reads the first PEM block: its label decides, and a "PRIVATE KEY" block's body is read as DER. */
static int read_pem(const unsigned char *text, size_t length, EVP_PKEY **out_key, char *found, size_t capacity) {
    int reason = CJWSS_KEY_UNREADABLE;
    BIO *bio = BIO_new_mem_buf(text, (int)length);
    char *label = NULL;
    char *header = NULL;
    unsigned char *body = NULL;
    long body_length = 0;

    if (bio == NULL || PEM_read_bio(bio, &label, &header, &body, &body_length) != 1 || label == NULL ||
        body_length < 0)
        goto done;
    int encrypted = header != NULL && strstr(header, "ENCRYPTED") != NULL;
    if (strcmp(label, "PRIVATE KEY") == 0) {
        reason = read_der(body, (size_t)body_length, out_key, found, capacity);
    } else if (strcmp(label, "ENCRYPTED PRIVATE KEY") == 0 || (encrypted && strstr(label, "PRIVATE KEY") != NULL)) {
        reason = CJWSS_KEY_ENCRYPTED;
    } else if (strcmp(label, "RSA PRIVATE KEY") == 0) {
        set_found(found, capacity, "RSA (PKCS #1 RSA PRIVATE KEY)");
        reason = CJWSS_KEY_RSA;
    } else if (strcmp(label, "EC PRIVATE KEY") == 0) {
        set_found(found, capacity, "a SEC 1 EC private key (PEM EC PRIVATE KEY)");
        reason = CJWSS_KEY_NOT_PKCS8;
    } else if (strstr(label, "PRIVATE KEY") != NULL) {
        char text[96];
        snprintf(text, sizeof text, "a PEM %s", label);
        set_found(found, capacity, text);
        reason = CJWSS_KEY_NOT_PKCS8;
    } else if (strcmp(label, "CERTIFICATE") == 0 || strcmp(label, "X509 CERTIFICATE") == 0 ||
               strcmp(label, "TRUSTED CERTIFICATE") == 0) {
        reason = CJWSS_KEY_CERTIFICATE;
    } else if (strcmp(label, "PUBLIC KEY") == 0 || strcmp(label, "RSA PUBLIC KEY") == 0) {
        reason = CJWSS_KEY_PUBLIC;
    } else {
        set_found(found, capacity, label);
    }
done:
    if (body != NULL) OPENSSL_clear_free(body, body_length > 0 ? (size_t)body_length : 0);
    OPENSSL_free(header);
    OPENSSL_free(label);
    BIO_free(bio);
    return reason;
}

EVP_PKEY *cjwss_key_from_pkcs8(const void *data, size_t length, int *reason, char *found, size_t found_capacity) {
    const char *step = "invalid arguments";
    const unsigned char *bytes = data;
    EVP_PKEY *key = NULL;
    int why = CJWSS_KEY_UNREADABLE;

    cjwss_internal_begin();
    set_found(found, found_capacity, "");
    if (data == NULL && length != 0) goto done;
    if (length == 0 || is_blank(bytes, length)) {
        why = CJWSS_KEY_EMPTY;
        step = "empty input";
    } else if (length > CJWSS_KEY_MAX_BYTES) {
        why = CJWSS_KEY_TOO_LARGE;
        step = "input too large";
    } else if (contains(bytes, length, "-----BEGIN ")) {
        why = read_pem(bytes, length, &key, found, found_capacity);
        step = "PEM";
    } else {
        why = read_der(bytes, length, &key, found, found_capacity);
        step = "DER";
    }
done:
    if (reason != NULL) *reason = key != NULL ? CJWSS_KEY_OK : why;
    cjwss_internal_finish(key != NULL, __func__, step);
    return key;
}

int cjwss_key_is_p256(const EVP_PKEY *key) {
    char group[64] = {0};
    size_t group_length = 0;
    if (key == NULL || !EVP_PKEY_is_a(key, "EC")) return 0;
    if (EVP_PKEY_get_group_name(key, group, sizeof group, &group_length) != 1) return 0;
    return strcmp(group, "prime256v1") == 0;
}
