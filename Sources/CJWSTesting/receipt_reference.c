/* The reference verdict on an app receipt: OpenSSL's own CMS_verify, and plain facts about a CMS
 * SignedData read with OpenSSL's CMS API (the CJWSTesting.h functions cjwst_cms_verify_reference
 * and cjwst_cms_inspect).
 *
 * Differential tests compare JWSVerify's receipt verifier with this verdict, so it must be exactly
 * what OpenSSL does and nothing more: no check of its own, no flag beyond the trust store, the
 * time and the purpose. The only addition is a verify callback that records the first path error
 * and returns OpenSSL's answer unchanged. */
#include "internal.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <openssl/bio.h>
#include <openssl/cms.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/objects.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>

/* The first path error of the current cjwst_cms_verify_reference call on this thread. Written by
 * record_path_error alone, reset at the start of each call. */
static _Thread_local int path_error;
static _Thread_local int path_error_depth;

static int record_path_error(int ok, X509_STORE_CTX *context) {
    if (!ok && path_error == 0) {
        path_error = X509_STORE_CTX_get_error(context);
        path_error_depth = X509_STORE_CTX_get_error_depth(context);
    }
    return ok; /* OpenSSL's own answer, unchanged */
}

/* CJWST_CMS_FAILURE_* of one queued OpenSSL error, or 0 when it says nothing specific. */
static int failure_of(unsigned long code) {
    if (ERR_GET_LIB(code) != ERR_LIB_CMS) return 0;
    switch (ERR_GET_REASON(code)) {
    case CMS_R_CONTENT_TYPE_NOT_SIGNED_DATA: return CJWST_CMS_FAILURE_NOT_SIGNED_DATA;
    case CMS_R_NO_CONTENT: return CJWST_CMS_FAILURE_NO_CONTENT;
    case CMS_R_SIGNER_CERTIFICATE_NOT_FOUND: return CJWST_CMS_FAILURE_SIGNER_NOT_FOUND;
    case CMS_R_CERTIFICATE_VERIFY_ERROR: return CJWST_CMS_FAILURE_CERTIFICATE;
    case CMS_R_VERIFICATION_FAILURE:
    case CMS_R_CONTENT_VERIFY_ERROR: return CJWST_CMS_FAILURE_SIGNATURE;
    default: return 0;
    }
}

/* Drains the error queue into the verdict: the last error's code, the failure named by the last error
 * or else by the first (CMS_verify raises what failed last, but after CMS_get0_SignerInfos refused a
 * ContentInfo of another type it adds "no signers"), and every error's text with its data
 * (cjws_error_text, the one drain of both C modules). */
static void drain_errors(cjwst_cms_verdict *verdict, int fallback_failure) {
    unsigned long last = ERR_peek_last_error();
    unsigned long first = ERR_peek_error();
    verdict->openssl_error = last;
    verdict->failure = failure_of(last) != 0    ? failure_of(last)
                       : failure_of(first) != 0 ? failure_of(first)
                                                : fallback_failure;
    cjws_error_text(verdict->reason, sizeof verdict->reason);
}

int cjwst_cms_verify_reference(const void *cms_bytes, size_t cms_len, const cjwst_bytes *roots,
                               size_t root_count, int64_t at_time, int purpose,
                               cjwst_cms_verdict *out_verdict) {
    int ok = 0;
    const char *step = "invalid arguments";
    CMS_ContentInfo *cms = NULL;
    X509_STORE *store = NULL;
    X509 *root = NULL;
    BIO *output = NULL;
    STACK_OF(X509) *signers = NULL;
    STACK_OF(CMS_SignerInfo) *infos = NULL; /* owned by `cms` */
    const unsigned char *cursor = cms_bytes;
    int result = 0;

    cjwss_internal_begin();
    path_error = 0;
    path_error_depth = 0;
    CJWSS_CHECK(out_verdict != NULL, "invalid arguments");
    memset(out_verdict, 0, sizeof *out_verdict);
    CJWSS_CHECK(cms_bytes != NULL && cms_len > 0 && cms_len <= LONG_MAX, "invalid arguments");
    CJWSS_CHECK(root_count == 0 || roots != NULL, "roots missing");
    CJWSS_CHECK(purpose == CJWST_CMS_PURPOSE_DEFAULT || purpose == CJWST_CMS_PURPOSE_ANY,
          "unknown purpose");

    store = X509_STORE_new();
    CJWSS_CHECK(store != NULL, "X509_STORE_new");
    for (size_t index = 0; index < root_count; index++) {
        root = cjwst_internal_parse_certificate(roots[index].data, roots[index].length);
        CJWSS_CHECK(root != NULL, "a root is not one DER certificate");
        CJWSS_CHECK(X509_STORE_add_cert(store, root) == 1, "X509_STORE_add_cert"); /* takes a reference */
        X509_free(root);
        root = NULL;
    }
    X509_VERIFY_PARAM_set_time(X509_STORE_get0_param(store), (time_t)at_time);
    if (purpose == CJWST_CMS_PURPOSE_ANY) {
        CJWSS_CHECK(X509_STORE_set_purpose(store, X509_PURPOSE_ANY) == 1, "X509_STORE_set_purpose");
    }
    X509_STORE_set_verify_cb(store, record_path_error);
    output = BIO_new(BIO_s_mem());
    CJWSS_CHECK(output != NULL, "BIO_new");

    /* From here on every outcome is a verdict. */
    ERR_clear_error();
    cms = d2i_CMS_ContentInfo(NULL, &cursor, (long)cms_len);
    if (cms == NULL) {
        drain_errors(out_verdict, CJWST_CMS_FAILURE_PARSE);
        out_verdict->failure = CJWST_CMS_FAILURE_PARSE;
        ok = 1;
        goto done;
    }
    out_verdict->trailing_bytes = cms_len - (size_t)(cursor - (const unsigned char *)cms_bytes);
    infos = CMS_get0_SignerInfos(cms);
    ERR_clear_error(); /* CMS_get0_SignerInfos queues an error for other content types */
    out_verdict->signer_count = infos != NULL ? sk_CMS_SignerInfo_num(infos) : 0;

    result = CMS_verify(cms, NULL, store, NULL, output, 0);
    out_verdict->verified = result == 1;
    out_verdict->x509_error = path_error;
    out_verdict->x509_error_depth = path_error_depth;
    if (result != 1) {
        drain_errors(out_verdict, CJWST_CMS_FAILURE_OTHER);
    }
    ERR_clear_error();

    signers = CMS_get0_signers(cms);
    if (signers != NULL && sk_X509_num(signers) > 0) {
        unsigned char *der = NULL;
        int der_len = i2d_X509(sk_X509_value(signers, 0), &der);
        CJWSS_CHECK(der_len > 0 && der != NULL, "i2d_X509 (signer)");
        out_verdict->signer_certificate = der;
        out_verdict->signer_certificate_len = (size_t)der_len;
    }
    if (out_verdict->verified) {
        char *bytes = NULL;
        long length = BIO_get_mem_data(output, &bytes);
        if (length > 0 && bytes != NULL) {
            out_verdict->content = OPENSSL_memdup(bytes, (size_t)length);
            CJWSS_CHECK(out_verdict->content != NULL, "allocation");
            out_verdict->content_len = (size_t)length;
        }
    }
    ok = 1;
done:
    if (!ok && out_verdict != NULL) {
        OPENSSL_free(out_verdict->signer_certificate);
        OPENSSL_free(out_verdict->content);
        out_verdict->signer_certificate = NULL;
        out_verdict->content = NULL;
    }
    sk_X509_free(signers); /* the certificates belong to `cms` */
    BIO_free(output);
    X509_free(root);
    X509_STORE_free(store);
    CMS_ContentInfo_free(cms);
    return cjwss_internal_finish(ok, __func__, step);
}

/* Dotted text of `object` into `buffer` (empty when NULL). */
static void object_text(const ASN1_OBJECT *object, char *buffer, size_t capacity) {
    buffer[0] = '\0';
    if (object != NULL) {
        OBJ_obj2txt(buffer, (int)capacity, object, 1);
    }
}

int cjwst_cms_inspect(const void *cms_bytes, size_t cms_len, int signer_index,
                      cjwst_cms_info *out_info) {
    int ok = 0;
    const char *step = "invalid arguments";
    CMS_ContentInfo *cms = NULL;
    STACK_OF(X509) *certificates = NULL;
    STACK_OF(CMS_SignerInfo) *infos = NULL; /* owned by `cms` */
    ASN1_OCTET_STRING **content = NULL;     /* owned by `cms` */
    const unsigned char *cursor = cms_bytes;

    cjwss_internal_begin();
    CJWSS_CHECK(out_info != NULL, "invalid arguments");
    memset(out_info, 0, sizeof *out_info);
    out_info->sid_certificate_index = -1;
    CJWSS_CHECK(cms_bytes != NULL && cms_len > 0 && cms_len <= LONG_MAX, "invalid arguments");
    out_info->indefinite_length =
        cms_len >= 2 && cursor[0] == 0x30 && cursor[1] == 0x80;
    cms = d2i_CMS_ContentInfo(NULL, &cursor, (long)cms_len);
    CJWSS_CHECK(cms != NULL, "d2i_CMS_ContentInfo");
    object_text(CMS_get0_type(cms), out_info->content_type, sizeof out_info->content_type);
    CJWSS_CHECK(OBJ_obj2nid(CMS_get0_type(cms)) == NID_pkcs7_signed, "not a SignedData");
    object_text(CMS_get0_eContentType(cms), out_info->econtent_type,
                sizeof out_info->econtent_type);
    content = CMS_get0_content(cms);
    out_info->detached = content == NULL || *content == NULL;
    out_info->content_len =
        out_info->detached ? 0 : (size_t)ASN1_STRING_length(*content);
    certificates = CMS_get1_certs(cms); /* NULL when there are none */
    out_info->certificate_count = certificates != NULL ? sk_X509_num(certificates) : 0;
    infos = CMS_get0_SignerInfos(cms);
    out_info->signer_count = infos != NULL ? sk_CMS_SignerInfo_num(infos) : 0;
    if (signer_index >= 0 && signer_index < out_info->signer_count) {
        CMS_SignerInfo *info = sk_CMS_SignerInfo_value(infos, signer_index);
        X509_ALGOR *digest = NULL, *signature = NULL;
        const ASN1_OBJECT *object = NULL;
        ASN1_OCTET_STRING *key_id = NULL;
        X509_NAME *issuer = NULL;
        ASN1_INTEGER *serial = NULL;
        int count = 0;
        CMS_SignerInfo_get0_algs(info, NULL, NULL, &digest, &signature);
        if (digest != NULL) {
            X509_ALGOR_get0(&object, NULL, NULL, digest);
            object_text(object, out_info->digest_algorithm, sizeof out_info->digest_algorithm);
        }
        if (signature != NULL) {
            X509_ALGOR_get0(&object, NULL, NULL, signature);
            object_text(object, out_info->signature_algorithm,
                        sizeof out_info->signature_algorithm);
        }
        count = CMS_signed_get_attr_count(info);
        out_info->signed_attribute_count = count > 0 ? count : 0;
        CJWSS_CHECK(CMS_SignerInfo_get0_signer_id(info, &key_id, &issuer, &serial) == 1,
              "CMS_SignerInfo_get0_signer_id");
        out_info->sid_is_issuer_serial = issuer != NULL && serial != NULL;
        for (int index = 0; index < out_info->certificate_count; index++) {
            if (CMS_SignerInfo_cert_cmp(info, sk_X509_value(certificates, index)) == 0) {
                out_info->sid_certificate_index = index;
                break;
            }
        }
    }
    ok = 1;
done:
    sk_X509_pop_free(certificates, X509_free);
    CMS_ContentInfo_free(cms);
    return cjwss_internal_finish(ok, __func__, step);
}
