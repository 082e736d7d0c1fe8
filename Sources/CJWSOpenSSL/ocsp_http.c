/* The HTTP transfer of an OCSP request (CJWSOpenSSL_ocsp.h, cjws_ocsp_transfer). */

#include "internal.h" /* first: it hides deprecated OpenSSL API */
#include "CJWSOpenSSL_ocsp.h"

#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <openssl/asn1.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/http.h>
#include <openssl/ocsp.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

/* ---- HTTP ------------------------------------------------------------------------------------ */

/* OpenSSL's socket BIO writes with write(2): a responder that closes the connection early would
 * raise SIGPIPE, whose default action ends the whole process. The transfer therefore runs with
 * SIGPIPE blocked on the calling thread, and a SIGPIPE it raised is discarded before the previous
 * mask comes back (the technique of libcurl). A thread that already blocks SIGPIPE is left alone. */
typedef struct sigpipe_guard {
    int active;
    sigset_t previous;
} sigpipe_guard;

static void sigpipe_block(sigpipe_guard *guard) {
    sigset_t pipe_only;
    sigemptyset(&pipe_only);
    sigaddset(&pipe_only, SIGPIPE);
    guard->active = pthread_sigmask(SIG_BLOCK, &pipe_only, &guard->previous) == 0 &&
                    !sigismember(&guard->previous, SIGPIPE);
}

static void sigpipe_restore(sigpipe_guard *guard) {
    if (!guard->active) {
        return;
    }
    sigset_t pipe_only, pending;
    sigemptyset(&pipe_only);
    sigaddset(&pipe_only, SIGPIPE);
    if (sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE)) {
        struct timespec no_wait = {0, 0};
        (void)sigtimedwait(&pipe_only, NULL, &no_wait);
    }
    (void)pthread_sigmask(SIG_SETMASK, &guard->previous, NULL);
}

static int is_loopback_host(const char *host) {
    return strcmp(host, "127.0.0.1") == 0 || strcmp(host, "::1") == 0 || strcmp(host, "[::1]") == 0 ||
           strcmp(host, "localhost") == 0;
}

static cjws_ocsp_status transfer(const cjws_ocsp_request *request, const char *url, int timeout_seconds,
                                    unsigned char **response, size_t *response_length) {
    ERR_clear_error();
    *response = NULL;
    *response_length = 0;
    if (request == NULL || url == NULL || timeout_seconds <= 0) {
        return CJWS_OCSP_INTERNAL_ERROR;
    }
    cjws_ocsp_status status = CJWS_OCSP_INTERNAL_ERROR;
    int use_ssl = 0;
    char *host = NULL, *port = NULL, *path = NULL, *query = NULL, *full_path = NULL;
    BIO *body = NULL, *reply = NULL;

    /* Allocates host, port (default "80"), path (default "/") and query: freed below. */
    if (OSSL_HTTP_parse_url(url, &use_ssl, NULL, &host, &port, NULL, &path, &query, NULL) != 1) {
        status = CJWS_OCSP_UNSUPPORTED_URL;
        goto done;
    }
    if (use_ssl) {
        /* RFC 6960 appendix A: OCSP runs over plain HTTP; responses are signed, not the channel. */
        status = CJWS_OCSP_UNSUPPORTED_URL;
        goto done;
    }
    /* OSSL_HTTP_parse_url gives an empty query when the URL has none. */
    int has_query = query != NULL && query[0] != '\0';
    size_t full_length = strlen(path) + (has_query ? strlen(query) + 1 : 0) + 1;
    full_path = OPENSSL_malloc(full_length);
    if (full_path == NULL) {
        goto done;
    }
    if (has_query) {
        snprintf(full_path, full_length, "%s?%s", path, query);
    } else {
        memcpy(full_path, path, strlen(path) + 1);
    }

    /* A new memory BIO holding the DER request, owned here. */
    body = ASN1_item_i2d_mem_bio(ASN1_ITEM_rptr(OCSP_REQUEST), (const ASN1_VALUE *)request->request);
    if (body == NULL) {
        goto done;
    }
    /* NULL: OpenSSL takes the proxy from http_proxy/HTTP_PROXY and honours no_proxy. "": never a
     * proxy (OSSL_HTTP_adapt_proxy treats an empty proxy as none); used for loopback addresses,
     * which a proxy could not reach anyway. */
    const char *proxy = is_loopback_host(host) ? "" : NULL;
    /* POST with Content-Type application/ocsp-request; the answer must be 200 with Content-Type
     * application/ocsp-response and a DER body of at most CJWS_INTERNAL_OCSP_MAX_RESPONSE_BYTES.
     * `timeout_seconds` bounds the whole exchange (connect included). The request BIO is not
     * consumed (set1); the returned BIO is a new memory BIO that we own. No redirects. */
    sigpipe_guard guard;
    sigpipe_block(&guard);
    reply = OSSL_HTTP_transfer(NULL, host, port, full_path, 0, proxy, NULL, NULL, NULL, NULL, NULL, 0, NULL,
                               "application/ocsp-request", body, "application/ocsp-response", 1,
                               CJWS_INTERNAL_OCSP_MAX_RESPONSE_BYTES, timeout_seconds, 0);
    sigpipe_restore(&guard);
    if (reply == NULL) {
        status = CJWS_OCSP_TRANSFER_FAILED;
        goto done;
    }
    char *data = NULL; /* owned by `reply` */
    long length = BIO_get_mem_data(reply, &data);
    if (length <= 0 || data == NULL) {
        status = CJWS_OCSP_TRANSFER_FAILED;
        goto done;
    }
    *response = OPENSSL_memdup(data, (size_t)length);
    if (*response == NULL) {
        goto done;
    }
    *response_length = (size_t)length;
    status = CJWS_OCSP_OK;

done:
    BIO_free(reply);
    BIO_free(body);
    OPENSSL_free(full_path);
    OPENSSL_free(host);
    OPENSSL_free(port);
    OPENSSL_free(path);
    OPENSSL_free(query);
    return status;
}

int cjws_ocsp_transfer(const cjws_ocsp_request *request, const char *url, int timeout_seconds,
                       unsigned char **response, size_t *response_length, cjws_ocsp_status *reason) {
    *reason = transfer(request, url, timeout_seconds, response, response_length);
    return *reason == CJWS_OCSP_OK;
}
