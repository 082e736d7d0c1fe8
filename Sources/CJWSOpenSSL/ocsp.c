/* OCSP requests and the evaluation of responses (CJWSOpenSSL_ocsp.h; the transfer is in ocsp_http.c). */

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


/* ---- request --------------------------------------------------------------------------------- */

void cjws_ocsp_request_free(cjws_ocsp_request *request) {
    if (request == NULL) {
        return;
    }
    OCSP_REQUEST_free(request->request);
    OCSP_CERTID_free(request->id);
    OPENSSL_free(request);
}

cjws_ocsp_request *cjws_ocsp_request_new(X509 *subject, X509 *issuer, int with_nonce) {
    ERR_clear_error();
    if (subject == NULL || issuer == NULL) {
        return NULL;
    }
    cjws_ocsp_request *result = OPENSSL_zalloc(sizeof *result);
    if (result == NULL) {
        return NULL;
    }
    /* SHA-1 CertID: RFC 5019 §2.1.1 makes it the one responders must understand. The id keeps no
     * reference to either certificate (it holds hashes and a copy of the serial). */
    result->request = OCSP_REQUEST_new();
    result->id = OCSP_cert_to_id(EVP_sha1(), subject, issuer);
    OCSP_CERTID *in_request = OCSP_cert_to_id(EVP_sha1(), subject, issuer);
    if (result->request == NULL || result->id == NULL || in_request == NULL) {
        OCSP_CERTID_free(in_request);
        goto fail;
    }
    /* add0: on success the request owns `in_request`; on failure it is still ours. */
    if (OCSP_request_add0_id(result->request, in_request) == NULL) {
        OCSP_CERTID_free(in_request);
        goto fail;
    }
    /* add1: the request keeps its own copy of the (random, 16-byte) nonce. */
    if (with_nonce && OCSP_request_add1_nonce(result->request, NULL, -1) != 1) {
        goto fail;
    }
    return result;

fail:
    cjws_ocsp_request_free(result);
    return NULL;
}

int cjws_ocsp_request_cert_id(const cjws_ocsp_request *request, void *buffer, size_t capacity) {
    ERR_clear_error();
    if (request == NULL) {
        return -1;
    }
    int length = i2d_OCSP_CERTID(request->id, NULL);
    if (length <= 0) {
        return -1;
    }
    if (buffer == NULL) {
        return length;
    }
    if ((size_t)length > capacity) {
        return -1;
    }
    unsigned char *cursor = buffer;
    return i2d_OCSP_CERTID(request->id, &cursor) == length ? length : -1;
}

int cjws_ocsp_responder_url(X509 *certificate, char *buffer, size_t capacity) {
    ERR_clear_error();
    if (certificate == NULL || capacity == 0) {
        return -1;
    }
    /* get1: a new stack of new strings, freed with X509_email_free. NULL when the certificate has
     * no Authority Information Access or no id-ad-ocsp URI in it. */
    STACK_OF(OPENSSL_STRING) *urls = X509_get1_ocsp(certificate);
    if (urls == NULL) {
        return -1;
    }
    int result = -1;
    const char *url = sk_OPENSSL_STRING_value(urls, 0); /* owned by `urls` */
    if (url != NULL) {
        size_t length = strlen(url);
        if (length + 1 > capacity || length > INT_MAX) {
            result = -2;
        } else {
            memcpy(buffer, url, length + 1);
            result = (int)length;
        }
    }
    X509_email_free(urls);
    return result;
}

/* ---- response -------------------------------------------------------------------------------- */

/* GeneralizedTime to seconds since 1970, independent of the process time zone. */
static int generalized_time_to_seconds(const ASN1_GENERALIZEDTIME *time, int64_t *seconds) {
    return cjws_asn1_time_to_seconds(time, seconds);
}

/*
 * Signature rules, as OCSP_basic_verify(3) applies them with these arguments:
 * - `trusted` (the `certs` argument) holds only the issuer, and flags is OCSP_TRUSTOTHER: when the
 *   responder id names the issuer, the issuer's key must verify the signature, and nothing more is
 *   needed (the issuer itself is the authority for its certificates, RFC 6960 §4.2.2.2).
 * - otherwise the signer must be among the certificates the response carries, its signature must
 *   verify, and it must chain to `store`, which trusts only the issuer (X509_V_FLAG_PARTIAL_CHAIN,
 *   since an intermediate issuer is not self-signed), at the store's check time. OpenSSL then
 *   requires the signer to be issued directly by the CA of the CertID and to carry the
 *   OCSPSigning extended key usage (delegated responder); a certificate from anywhere else fails.
 *   The only other way OpenSSL would accept a chain is an explicit OCSP-signing trust setting on
 *   the anchor (X509_check_trust), which a certificate parsed from DER never has.
 */
static cjws_ocsp_status evaluate(const cjws_ocsp_request *request, X509 *issuer, const void *response_der,
                                    size_t response_length, int64_t now, cjws_ocsp_answer *answer) {
    ERR_clear_error();
    memset(answer, 0, sizeof *answer);
    answer->response_status = -1;
    answer->cert_status = CJWS_OCSP_CERT_UNKNOWN;
    answer->revocation_reason = -1;
    if (request == NULL || issuer == NULL) {
        return CJWS_OCSP_INTERNAL_ERROR;
    }
    if (response_der == NULL || response_length == 0 || response_length > LONG_MAX) {
        return CJWS_OCSP_MALFORMED_RESPONSE;
    }
    cjws_ocsp_status status = CJWS_OCSP_INTERNAL_ERROR;
    OCSP_RESPONSE *response = NULL;
    OCSP_BASICRESP *basic = NULL;
    X509_STORE *store = NULL;
    STACK_OF(X509) *trusted = NULL;

    const unsigned char *cursor = response_der;
    response = d2i_OCSP_RESPONSE(NULL, &cursor, (long)response_length);
    if (response == NULL || cursor != (const unsigned char *)response_der + response_length) {
        status = CJWS_OCSP_MALFORMED_RESPONSE;
        goto done;
    }
    answer->response_status = OCSP_response_status(response);
    if (answer->response_status != OCSP_RESPONSE_STATUS_SUCCESSFUL) {
        status = CJWS_OCSP_UNSUCCESSFUL_RESPONSE;
        goto done;
    }
    /* get1: a decoded copy of the BasicOCSPResponse, ours to free. */
    basic = OCSP_response_get1_basic(response);
    if (basic == NULL) {
        status = CJWS_OCSP_NOT_BASIC;
        goto done;
    }

    store = X509_STORE_new();
    trusted = sk_X509_new_null();
    if (store == NULL || trusted == NULL) {
        goto done;
    }
    /* The store takes its own reference to the issuer. */
    if (X509_STORE_add_cert(store, issuer) != 1) {
        goto done;
    }
    /* get0: the store's parameters, owned by the store; each X509_STORE_CTX that OCSP_basic_verify
     * makes inherits them. set_time also sets X509_V_FLAG_USE_CHECK_TIME. */
    X509_VERIFY_PARAM *param = X509_STORE_get0_param(store);
    if (param == NULL) {
        goto done;
    }
    X509_VERIFY_PARAM_set_time(param, (time_t)now);
    if (X509_VERIFY_PARAM_set_flags(param, X509_V_FLAG_PARTIAL_CHAIN) != 1) {
        goto done;
    }
    /* sk_X509_push takes no reference: the issuer stays the caller's and outlives the stack. */
    if (sk_X509_push(trusted, issuer) <= 0) {
        goto done;
    }
    if (OCSP_basic_verify(basic, trusted, store, OCSP_TRUSTOTHER) <= 0) {
        status = CJWS_OCSP_BAD_SIGNATURE;
        goto done;
    }

    /* 1: the response echoes our nonce; -1: the response has none (allowed: many responders serve
     * pre-signed answers); 2: neither has one. 0: both have one and they differ (a replayed answer);
     * 3: only the response has one, which cannot happen for a request with a nonce. */
    answer->nonce_check = OCSP_check_nonce(request->request, basic);
    if (answer->nonce_check == 0 || answer->nonce_check == 3) {
        status = CJWS_OCSP_NONCE_MISMATCH;
        goto done;
    }

    int cert_status = -1;
    int reason = -1;
    /* get0: the times point into `basic` and live as long as it. */
    ASN1_GENERALIZEDTIME *revoked_at = NULL, *this_update = NULL, *next_update = NULL;
    /* Compares hash algorithm, issuer name hash, issuer key hash and serial with the request's id. */
    if (OCSP_resp_find_status(basic, request->id, &cert_status, &reason, &revoked_at, &this_update, &next_update) !=
        1) {
        status = CJWS_OCSP_NO_MATCHING_STATUS;
        goto done;
    }
    switch (cert_status) {
    case V_OCSP_CERTSTATUS_GOOD:
        answer->cert_status = CJWS_OCSP_CERT_GOOD;
        break;
    case V_OCSP_CERTSTATUS_REVOKED:
        answer->cert_status = CJWS_OCSP_CERT_REVOKED;
        break;
    default:
        answer->cert_status = CJWS_OCSP_CERT_UNKNOWN;
        break;
    }
    answer->revocation_reason = reason;
    if (!generalized_time_to_seconds(this_update, &answer->this_update)) {
        status = CJWS_OCSP_BAD_TIME;
        goto done;
    }
    if (next_update != NULL) {
        if (!generalized_time_to_seconds(next_update, &answer->next_update)) {
            status = CJWS_OCSP_BAD_TIME;
            goto done;
        }
        answer->has_next_update = 1;
    }
    if (answer->cert_status == CJWS_OCSP_CERT_REVOKED &&
        !generalized_time_to_seconds(revoked_at, &answer->revocation_time)) {
        status = CJWS_OCSP_BAD_TIME;
        goto done;
    }
    status = CJWS_OCSP_OK;

done:
    sk_X509_free(trusted); /* the stack only, not the issuer */
    X509_STORE_free(store);
    OCSP_BASICRESP_free(basic);
    OCSP_RESPONSE_free(response);
    return status;
}

int cjws_ocsp_evaluate(const cjws_ocsp_request *request, X509 *issuer, const void *response_der,
                       size_t response_length, int64_t now, cjws_ocsp_answer *answer, cjws_ocsp_status *reason) {
    *reason = evaluate(request, issuer, response_der, response_length, now, answer);
    return *reason == CJWS_OCSP_OK;
}

const char *cjws_ocsp_reason_string(int reason) { return OCSP_crl_reason_str(reason); }

const char *cjws_ocsp_response_status_string(int status) { return OCSP_response_status_str(status); }
