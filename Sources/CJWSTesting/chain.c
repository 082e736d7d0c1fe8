/* Chain verdicts: OpenSSL's X509_verify_cert on a three-certificate chain, every error recorded
 * (the CJWSTesting.h functions cjwst_verify_chain and cjwst_verify_error_string). */
#include "internal.h"

#include <string.h>
#include <time.h>

#include <openssl/x509.h>
#include <openssl/x509_vfy.h>

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

    cjwss_internal_begin();
    CJWSS_CHECK(out_verdict != NULL, "invalid arguments");
    memset(out_verdict, 0, sizeof *out_verdict);
    leaf = cjwst_internal_parse_certificate(leaf_der, leaf_len);
    CJWSS_CHECK(leaf != NULL, "d2i_X509 (leaf)");
    intermediate = cjwst_internal_parse_certificate(intermediate_der, intermediate_len);
    CJWSS_CHECK(intermediate != NULL, "d2i_X509 (intermediate)");
    root = cjwst_internal_parse_certificate(root_der, root_len);
    CJWSS_CHECK(root != NULL, "d2i_X509 (root)");
    store = X509_STORE_new();
    CJWSS_CHECK(store != NULL, "X509_STORE_new");
    CJWSS_CHECK(X509_STORE_add_cert(store, root) == 1, "X509_STORE_add_cert");
    untrusted = sk_X509_new_null();
    CJWSS_CHECK(untrusted != NULL && sk_X509_push(untrusted, intermediate) > 0, "sk_X509_push");
    context = X509_STORE_CTX_new();
    CJWSS_CHECK(context != NULL, "X509_STORE_CTX_new");
    CJWSS_CHECK(X509_STORE_CTX_init(context, store, leaf, untrusted) == 1, "X509_STORE_CTX_init");
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
    return cjwss_internal_finish(ok, __func__, step);
}

const char *cjwst_verify_error_string(int code) { return X509_verify_cert_error_string(code); }
