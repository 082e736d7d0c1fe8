/* Helpers shared by several files of the module (declared in internal.h): the curves' field size,
 * memory BIOs to text, whole-DER certificate parsing, and the refusing PEM password callback. (The entry
 * and exit of every exported function are CJWSSigning's, in its sign.c.) */
#include "internal.h"

#include <limits.h>
#include <string.h>

#include <openssl/bio.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/x509.h>

size_t cjwst_internal_curve_field_bytes(int curve) {
    switch (curve) {
    case CJWST_CURVE_P256: return 32;
    case CJWST_CURVE_P384: return 48;
    default: return 0;
    }
}

/* Copies the contents of a memory BIO into a new NUL-terminated OpenSSL buffer. */
int cjwst_internal_bio_to_text(BIO *bio, char **out_text, size_t *out_len) {
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
X509 *cjwst_internal_parse_certificate(const void *der, size_t length) {
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

/* A password callback that refuses: encrypted keys fail instead of prompting on a terminal. */
int cjwst_internal_no_password(char *buffer, int size, int rwflag, void *userdata) {
    (void)buffer;
    (void)size;
    (void)rwflag;
    (void)userdata;
    return 0;
}
