/* Trust stores and OpenSSL's verification of a whole chain (the CJWSOpenSSL.h section "trust store and
 * chain"). */

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
    STACK_OF(X509) *untrusted = sk_X509_new_null();
    /* sk_X509_push does not take a reference: `intermediate` stays owned by the caller and outlives
     * the context. */
    if (untrusted == NULL || sk_X509_push(untrusted, intermediate) <= 0) {
        sk_X509_free(untrusted);
        return 0;
    }
    int status = cjws_internal_verify_chain_offering(store, leaf, untrusted, intermediate, at_time, result, NULL);
    sk_X509_free(untrusted); /* frees the stack only, not the certificate */
    return status;
}

int cjws_internal_verify_chain_offering(X509_STORE *store, X509 *leaf, STACK_OF(X509) *untrusted, X509 *intermediate,
                               int64_t at_time, cjws_chain_result *result, X509 **second) {
    memset(result, 0, sizeof *result);
    if (second != NULL) {
        *second = NULL;
    }
    int status = 0;
    X509_STORE_CTX *context = X509_STORE_CTX_new();
    if (context == NULL) {
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
        X509 *built_second = sk_X509_value(chain, 1);
        result->intermediate_in_chain =
            intermediate != NULL && (built_second == intermediate || X509_cmp(built_second, intermediate) == 0);
        if (second != NULL) {
            *second = built_second; /* one of `untrusted` or a root of the store: both outlive the context */
        }
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
        X509_digest(sk_X509_value(chain, length - 1), cjws_internal_sha256_md(), result->root_sha256, &digest_length);
    }
    status = 1;

done:
    X509_STORE_CTX_free(context);
    return status;
}

const char *cjws_verify_error_string(int code) { return X509_verify_cert_error_string(code); }
