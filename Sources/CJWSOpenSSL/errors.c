/* Errors, digests and the algorithms fetched once per process (the CJWSOpenSSL.h sections "errors" and
 * "digests"). */

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
    if (buffer == NULL || capacity == 0) {
        ERR_clear_error();
        return 0;
    }
    size_t used = 0;
    buffer[0] = '\0';
    const char *data = NULL; /* owned by the error queue entry, valid until the next ERR call */
    int flags = 0;
    unsigned long code;
    while ((code = ERR_get_error_all(NULL, NULL, NULL, &data, &flags)) != 0) {
        char line[512];
        int has_data = data != NULL && (flags & ERR_TXT_STRING) != 0 && data[0] != '\0';
        if (ERR_GET_LIB(code) == ERR_LIB_USER && has_data) {
            /* Raised by the exit of CJWSSigning's and CJWSTesting's functions (CJWSSigning/internal.h): the
             * failed function and step are the text. */
            snprintf(line, sizeof line, "%s", data);
        } else {
            ERR_error_string_n(code, line, sizeof line);
            if (has_data) {
                size_t length = strlen(line);
                snprintf(line + length, sizeof line - length, " (%s)", data);
            }
        }
        size_t length = strlen(line);
        size_t need = length + (used > 0 ? 2 : 0);
        if (used + need + 1 > capacity) {
            continue; /* keep draining, drop what does not fit */
        }
        if (used > 0) {
            memcpy(buffer + used, "; ", 2);
            used += 2;
        }
        memcpy(buffer + used, line, length);
        used += length;
        buffer[used] = '\0';
    }
    return used;
}

void cjws_clear_errors(void) { ERR_clear_error(); }

void cjws_free(void *pointer) { OPENSSL_free(pointer); }

/* ---- fetched algorithms, once per process ---------------------------------------------------- */

static pthread_once_t fetch_once = PTHREAD_ONCE_INIT;
static EVP_MD *sha256_md = NULL; /* owned for the life of the process */
static EVP_MD *sha1_md = NULL;   /* owned for the life of the process */

static void fetch_algorithms(void) {
    /* An explicit fetch avoids the implicit provider lookup on every digest. */
    sha256_md = EVP_MD_fetch(NULL, "SHA256", NULL);
    sha1_md = EVP_MD_fetch(NULL, "SHA1", NULL);
}

const EVP_MD *cjws_internal_sha1_md(void) {
    pthread_once(&fetch_once, fetch_algorithms);
    return sha1_md != NULL ? sha1_md : EVP_sha1();
}

int cjws_sha1(const void *data, size_t length, unsigned char *digest) {
    ERR_clear_error();
    unsigned int out_length = 0;
    return EVP_Digest(data, length, digest, &out_length, cjws_internal_sha1_md(), NULL) == 1 && out_length == 20;
}

const EVP_MD *cjws_internal_sha256_md(void) {
    pthread_once(&fetch_once, fetch_algorithms);
    return sha256_md != NULL ? sha256_md : EVP_sha256();
}

int cjws_sha256(const void *data, size_t length, unsigned char *digest) {
    ERR_clear_error();
    unsigned int out_length = 0;
    return EVP_Digest(data, length, digest, &out_length, cjws_internal_sha256_md(), NULL) == 1 && out_length == 32;
}

int cjws_sha384(const void *data, size_t length, unsigned char *digest) {
    ERR_clear_error();
    unsigned int out_length = 0;
    return EVP_Digest(data, length, digest, &out_length, EVP_sha384(), NULL) == 1 && out_length == 48;
}
