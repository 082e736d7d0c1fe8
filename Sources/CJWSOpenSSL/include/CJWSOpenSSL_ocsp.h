#ifndef CJWSOPENSSL_OCSP_H
#define CJWSOPENSSL_OCSP_H

/*
 * CJWSOpenSSL, OCSP part: revocation status of one certificate (RFC 6960), asked over HTTP with
 * OpenSSL's own HTTP client and checked with OCSP_basic_verify.
 *
 * The conventions of CJWSOpenSSL.h hold: bytes are `const void *` + `size_t`, every function
 * clears OpenSSL's error queue of the calling thread before it starts and leaves OpenSSL's reasons
 * in it on failure (read them with cjws_error_text, which drains it, with each error's data in
 * parentheses: where OpenSSL's HTTP client puts "code=503, reason=..." and the host of a failed connect), and objects returned here
 * are owned by the caller. Nothing here reads the system clock except the HTTP timeout, which
 * OpenSSL measures with time().
 */

#include <stddef.h>
#include <stdint.h>

#include <openssl/x509.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Why an OCSP function returned 0 (its `reason` out-parameter; CJWS_OCSP_OK when it returned 1). Everything
 * but CJWS_OCSP_OK means "status not learned". */
typedef enum cjws_ocsp_status {
    /* Done; for cjws_ocsp_evaluate, the answer's cert_status says good, revoked or unknown. */
    CJWS_OCSP_OK = 0,
    /* Allocation or encoding failure inside OpenSSL. */
    CJWS_OCSP_INTERNAL_ERROR = 1,
    /* The URL does not parse, or is not http:// (OCSP is plain HTTP, RFC 6960 appendix A). */
    CJWS_OCSP_UNSUPPORTED_URL = 2,
    /* No HTTP answer: connection refused, timeout, HTTP status other than 200, wrong content type,
     * body too large or not DER. The error queue says which. */
    CJWS_OCSP_TRANSFER_FAILED = 3,
    /* The body is not a DER OCSPResponse (or has bytes after it). */
    CJWS_OCSP_MALFORMED_RESPONSE = 4,
    /* responseStatus is not successful (malformedRequest, internalError, tryLater, sigRequired,
     * unauthorized); the answer's response_status says which. */
    CJWS_OCSP_UNSUCCESSFUL_RESPONSE = 5,
    /* The response is not a BasicOCSPResponse. */
    CJWS_OCSP_NOT_BASIC = 6,
    /* OCSP_basic_verify failed: not signed by the issuer, nor by a responder certificate that the
     * issuer signed and that has the OCSPSigning extended key usage. */
    CJWS_OCSP_BAD_SIGNATURE = 7,
    /* The response carries a nonce that is not the request's. */
    CJWS_OCSP_NONCE_MISMATCH = 8,
    /* The response has no SingleResponse for the requested certificate id. */
    CJWS_OCSP_NO_MATCHING_STATUS = 9,
    /* thisUpdate, nextUpdate or revocationTime cannot be read. */
    CJWS_OCSP_BAD_TIME = 10,
} cjws_ocsp_status;

/* certStatus of a SingleResponse (the values of V_OCSP_CERTSTATUS_*). */
typedef enum cjws_ocsp_cert_status {
    CJWS_OCSP_CERT_GOOD = 0,
    CJWS_OCSP_CERT_REVOKED = 1,
    CJWS_OCSP_CERT_UNKNOWN = 2,
} cjws_ocsp_cert_status;

/* The part of a verified response that concerns the requested certificate. */
typedef struct cjws_ocsp_answer {
    /* responseStatus (OCSP_RESPONSE_STATUS_*), or -1 when the bytes were not an OCSPResponse. */
    int response_status;
    /* Valid when cjws_ocsp_evaluate returned 1. */
    cjws_ocsp_cert_status cert_status;
    /* CRL reason code of a revoked certificate (OCSP_REVOKED_STATUS_*), or -1 when none is given. */
    int revocation_reason;
    /* Seconds since 1970; revocation_time only for a revoked certificate. */
    int64_t revocation_time;
    int64_t this_update;
    /* 1 when the response has nextUpdate. */
    int has_next_update;
    int64_t next_update;
    /* OCSP_check_nonce: 1 nonce echoed, -1 response without nonce, 2 neither has one. */
    int nonce_check;
} cjws_ocsp_answer;

/* An OCSP request for one certificate: the OCSPRequest and the CertID it asks about. Opaque. */
typedef struct cjws_ocsp_request cjws_ocsp_request;

/* Builds a request for `subject` issued by `issuer`: CertID with SHA-1 (RFC 5019 §2.1.1: what
 * responders expect), plus a fresh random nonce when `with_nonce` is 1. Neither certificate is
 * retained. NULL on failure. Free with cjws_ocsp_request_free. */
cjws_ocsp_request *cjws_ocsp_request_new(X509 *subject, X509 *issuer, int with_nonce);

void cjws_ocsp_request_free(cjws_ocsp_request *request);

/* Writes the DER of the request's CertID (issuer name hash, issuer key hash, serial) into `buffer`.
 * Returns its length, or -1 on failure or when `capacity` is too small; with `buffer` NULL, only
 * returns the length. */
int cjws_ocsp_request_cert_id(const cjws_ocsp_request *request, void *buffer, size_t capacity);

/* Writes the first OCSP URL of the certificate's Authority Information Access (method id-ad-ocsp)
 * into `buffer`, NUL-terminated. Returns its length, -1 when there is none, -2 when it does not fit. */
int cjws_ocsp_responder_url(X509 *certificate, char *buffer, size_t capacity);

/* POSTs the request (application/ocsp-request) to `url` with OSSL_HTTP_transfer and returns the
 * response body in `*response` (allocated by OpenSSL: free with cjws_free) and `*response_length`.
 * `timeout_seconds` (> 0) bounds connecting, sending and receiving together. The proxy comes from
 * http_proxy/no_proxy as OpenSSL reads them, except for a loopback host (127.0.0.1, ::1,
 * localhost), which is always reached directly. Returns 1 done, 0 not; `*reason` receives CJWS_OCSP_OK,
 * CJWS_OCSP_UNSUPPORTED_URL, CJWS_OCSP_TRANSFER_FAILED or CJWS_OCSP_INTERNAL_ERROR. */
int cjws_ocsp_transfer(const cjws_ocsp_request *request, const char *url, int timeout_seconds,
                       unsigned char **response, size_t *response_length, cjws_ocsp_status *reason);

/* Checks a DER OCSPResponse against the request, in this order: it parses (nothing trailing);
 * responseStatus is successful; it is a BasicOCSPResponse; OCSP_basic_verify accepts it with
 * `issuer` as the only trusted certificate (see ocsp.c) at time `now` (seconds since 1970, set as
 * the store's check time, X509_V_FLAG_USE_CHECK_TIME); a nonce in the response equals the
 * request's; a SingleResponse for the request's CertID exists. Fills `answer` (response_status as
 * soon as known). Freshness (thisUpdate, nextUpdate against `now`) is left to the caller. Returns 1 when
 * all of that holds, 0 when not; `*reason` receives CJWS_OCSP_OK or the first rule the response broke. */
int cjws_ocsp_evaluate(const cjws_ocsp_request *request, X509 *issuer, const void *response,
                       size_t response_length, int64_t now, cjws_ocsp_answer *answer, cjws_ocsp_status *reason);

/* OpenSSL's name of a CRL reason code ("keyCompromise", ...). */
const char *cjws_ocsp_reason_string(int reason);

/* OpenSSL's name of a responseStatus ("tryLater", ...). */
const char *cjws_ocsp_response_status_string(int status);

#ifdef __cplusplus
}
#endif

#endif /* CJWSOPENSSL_OCSP_H */
