/* App receipts (StoreKit 1): CMS / PKCS#7 SignedData parsed and checked with OpenSSL's CMS code (the
 * CJWSOpenSSL.h section "app receipts"). */

#include "internal.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <openssl/bio.h>
#include <openssl/cms.h>
#include <openssl/err.h>
#include <openssl/objects.h>
#include <openssl/rsa.h>
#include <openssl/x509v3.h>

struct cjws_receipt {
    CMS_ContentInfo *cms;          /* owned */
    STACK_OF(X509) *certificates;  /* owned (CMS_get1_certs: a reference to each), in embedded order */
    CMS_SignerInfo *signer;        /* the only SignerInfo, owned by `cms` */
    const unsigned char *content;  /* the eContent's bytes, owned by `cms` */
    size_t content_length;
};

void cjws_receipt_free(cjws_receipt *receipt) {
    if (receipt == NULL) {
        return;
    }
    sk_X509_pop_free(receipt->certificates, X509_free);
    CMS_ContentInfo_free(receipt->cms);
    free(receipt);
}

cjws_receipt *cjws_receipt_parse(const void *bytes, size_t length, int *reason) {
    ERR_clear_error();
    *reason = CJWS_RECEIPT_NOT_CMS;
    if (bytes == NULL || length == 0 || length > LONG_MAX) {
        return NULL;
    }
    cjws_receipt *receipt = calloc(1, sizeof *receipt);
    if (receipt == NULL) {
        *reason = CJWS_RECEIPT_INTERNAL;
        return NULL;
    }
    const unsigned char *cursor = bytes;
    receipt->cms = d2i_CMS_ContentInfo(NULL, &cursor, (long)length);
    if (receipt->cms == NULL) {
        goto failed;
    }
    if (cursor != (const unsigned char *)bytes + length) {
        *reason = CJWS_RECEIPT_TRAILING_BYTES;
        goto failed;
    }
    if (OBJ_obj2nid(CMS_get0_type(receipt->cms)) != NID_pkcs7_signed) {
        *reason = CJWS_RECEIPT_NOT_SIGNED_DATA;
        goto failed;
    }
    if (OBJ_obj2nid(CMS_get0_eContentType(receipt->cms)) != NID_pkcs7_data) {
        *reason = CJWS_RECEIPT_NOT_DATA;
        goto failed;
    }
    ASN1_OCTET_STRING **content = CMS_get0_content(receipt->cms);
    if (content == NULL || *content == NULL) {
        *reason = CJWS_RECEIPT_DETACHED;
        goto failed;
    }
    receipt->content = ASN1_STRING_get0_data(*content);
    receipt->content_length = (size_t)ASN1_STRING_length(*content);
    STACK_OF(CMS_SignerInfo) *signers = CMS_get0_SignerInfos(receipt->cms); /* owned by cms */
    if (signers == NULL || sk_CMS_SignerInfo_num(signers) != 1) {
        *reason = CJWS_RECEIPT_SIGNER_COUNT;
        goto failed;
    }
    receipt->signer = sk_CMS_SignerInfo_value(signers, 0);
    /* NULL when there are none: an empty stack is simpler for the accessors. */
    receipt->certificates = CMS_get1_certs(receipt->cms);
    if (receipt->certificates == NULL) {
        receipt->certificates = sk_X509_new_null();
        if (receipt->certificates == NULL) {
            *reason = CJWS_RECEIPT_INTERNAL;
            goto failed;
        }
    }
    *reason = CJWS_RECEIPT_PARSED;
    return receipt;

failed:
    cjws_receipt_free(receipt);
    return NULL;
}

int cjws_receipt_content(const cjws_receipt *receipt, const unsigned char **content, size_t *length) {
    *content = receipt->content;
    *length = receipt->content_length;
    return receipt->content != NULL;
}

int cjws_receipt_certificate_count(const cjws_receipt *receipt) { return sk_X509_num(receipt->certificates); }

X509 *cjws_receipt_certificate(const cjws_receipt *receipt, int index) {
    if (index < 0 || index >= sk_X509_num(receipt->certificates)) {
        return NULL;
    }
    return sk_X509_value(receipt->certificates, index);
}

int cjws_receipt_signer_index(const cjws_receipt *receipt) {
    /* As CMS_set1_signers_certs picks the signer when CMS_verify is given no certificates: the first
     * embedded certificate that the SignerInfo's identifier names. */
    for (int index = 0; index < sk_X509_num(receipt->certificates); index++) {
        if (CMS_SignerInfo_cert_cmp(receipt->signer, sk_X509_value(receipt->certificates, index)) == 0) {
            return index;
        }
    }
    return -1;
}

int cjws_receipt_algorithms(const cjws_receipt *receipt, int *digest_nid, int *signature_nid) {
    X509_ALGOR *digest = NULL, *signature = NULL;
    CMS_SignerInfo_get0_algs(receipt->signer, NULL, NULL, &digest, &signature);
    *digest_nid = digest != NULL ? OBJ_obj2nid(digest->algorithm) : NID_undef;
    *signature_nid = signature != NULL ? OBJ_obj2nid(signature->algorithm) : NID_undef;
    return digest != NULL && signature != NULL;
}

int cjws_receipt_digest_set(const cjws_receipt *receipt, int *problem) {
    ERR_clear_error();
    int status = -1;
    BIO *chain = NULL;
    X509_ALGOR *digest = NULL;
    *problem = CJWS_DIGEST_SET_USABLE;
    /* CMS_verify's own first step over the content: one digest BIO per entry of digestAlgorithms, each
     * fetched as OpenSSL fetches it (CMS_R_UNKNOWN_DIGEST_ALGORITHM for one it does not know); an empty set
     * gives no BIO and no error. Nothing is read through the chain: only its digests matter here. */
    chain = CMS_dataInit(receipt->cms, NULL);
    if (chain == NULL) {
        unsigned long error = ERR_peek_last_error();
        if (error == 0) {
            *problem = CJWS_DIGEST_SET_EMPTY;
            status = 0;
        } else if (ERR_GET_LIB(error) == ERR_LIB_CMS && ERR_GET_REASON(error) == CMS_R_UNKNOWN_DIGEST_ALGORITHM) {
            *problem = CJWS_DIGEST_SET_UNKNOWN;
            status = 0;
        }
        goto done;
    }
    /* Then CMS_SignerInfo_verify_content looks for the SignerInfo's digest among those BIOs as
     * ossl_cms_DigestAlgorithm_find_ctx does: the digest's NID, or its signature NID (OpenSSL's workaround
     * for signers that wrote a signature OID there). */
    CMS_SignerInfo_get0_algs(receipt->signer, NULL, NULL, &digest, NULL);
    int nid = digest != NULL ? OBJ_obj2nid(digest->algorithm) : NID_undef;
    for (BIO *next = BIO_find_type(chain, BIO_TYPE_MD); next != NULL;) {
        EVP_MD_CTX *context = NULL; /* owned by the BIO */
        BIO_get_md_ctx(next, &context);
        const EVP_MD *md = context != NULL ? EVP_MD_CTX_get0_md(context) : NULL;
        if (md != NULL && (EVP_MD_get_type(md) == nid || EVP_MD_get_pkey_type(md) == nid)) {
            status = 1;
            goto done;
        }
        next = BIO_next(next) != NULL ? BIO_find_type(BIO_next(next), BIO_TYPE_MD) : NULL;
    }
    /* The reason CMS_verify would queue. */
    ERR_raise(ERR_LIB_CMS, CMS_R_NO_MATCHING_DIGEST);
    *problem = CJWS_DIGEST_SET_NO_MATCH;
    status = 0;
done:
    BIO_free_all(chain);
    return status;
}

int cjws_receipt_has_signed_attributes(const cjws_receipt *receipt) {
    return CMS_signed_get_attr_count(receipt->signer) >= 0;
}

int cjws_receipt_verify_signature(cjws_receipt *receipt) {
    ERR_clear_error();
    BIO *sink = BIO_new(BIO_s_null());
    if (sink == NULL) {
        return -1;
    }
    /* OpenSSL's own verification of the signer's signature and of the content's digest (and, with
     * signed attributes, of messageDigest and the attributes' signature), with the signer picked among
     * the embedded certificates as cjws_receipt_signer_index picks it. The chain is checked separately
     * (cjws_verify_receipt_chain), so CMS_NO_SIGNER_CERT_VERIFY. */
    int verdict = CMS_verify(receipt->cms, NULL, NULL, NULL, sink, CMS_NO_SIGNER_CERT_VERIFY | CMS_BINARY);
    BIO_free(sink);
    /* On 0 the error queue keeps OpenSSL's reason, for cjws_error_text. */
    return verdict == 1 ? 1 : 0;
}

int cjws_rsa_verify_content(EVP_PKEY *key, int digest_nid, const void *content, size_t content_length,
                            const void *signature, size_t signature_length) {
    ERR_clear_error();
    const EVP_MD *md = digest_nid == NID_sha256 ? cjws_internal_sha256_md() : digest_nid == NID_sha1 ? cjws_internal_sha1_md() : NULL;
    if (key == NULL || md == NULL || EVP_PKEY_get_base_id(key) != EVP_PKEY_RSA) {
        return -1;
    }
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int digest_length = 0;
    if (EVP_Digest(content, content_length, digest, &digest_length, md, NULL) != 1) {
        return -1;
    }
    /* What CMS_verify does for a SignerInfo without signed attributes: PKCS #1 v1.5 (the key's default
     * padding) with the SignerInfo's digest, the DigestInfo checked by OpenSSL. Owned by this thread's slot. */
    EVP_PKEY_CTX *context = cjws_internal_rsa_verify_context(key, md);
    if (context == NULL) {
        ERR_clear_error();
        return -1;
    }
    int verdict = EVP_PKEY_verify(context, signature, signature_length, digest, digest_length);
    ERR_clear_error();
    return verdict == 1 ? 1 : 0;
}

int cjws_receipt_signature(const cjws_receipt *receipt, const unsigned char **signature, size_t *length) {
    ASN1_OCTET_STRING *value = CMS_SignerInfo_get0_signature(receipt->signer);
    if (value == NULL) {
        return 0;
    }
    *signature = ASN1_STRING_get0_data(value);
    *length = (size_t)ASN1_STRING_length(value);
    return 1;
}

int cjws_pkey_rsa_bits(const EVP_PKEY *key) {
    if (key == NULL || EVP_PKEY_get_base_id(key) != EVP_PKEY_RSA) {
        return 0;
    }
    return EVP_PKEY_get_bits(key);
}

int cjws_verify_receipt_chain(X509_STORE *store, const cjws_receipt *receipt, int signer_index, int64_t at_time,
                              cjws_chain_result *result, int *issuer_index) {
    ERR_clear_error();
    memset(result, 0, sizeof *result);
    *issuer_index = -1;
    X509 *signer = cjws_receipt_certificate(receipt, signer_index);
    if (signer == NULL) {
        return 0;
    }
    /* Every embedded certificate is offered as untrusted, as CMS_verify offers them; none is trusted. */
    X509 *second = NULL;
    if (!cjws_internal_verify_chain_offering(store, signer, receipt->certificates, NULL, at_time, result, &second)) {
        return 0;
    }
    for (int index = 0; second != NULL && index < sk_X509_num(receipt->certificates); index++) {
        if (sk_X509_value(receipt->certificates, index) == second) {
            *issuer_index = index;
            break;
        }
    }
    return 1;
}

int cjws_nid_sha1(void) { return NID_sha1; }
int cjws_nid_sha256(void) { return NID_sha256; }
int cjws_nid_rsa_encryption(void) { return NID_rsaEncryption; }
int cjws_nid_sha1_with_rsa(void) { return NID_sha1WithRSAEncryption; }
int cjws_nid_sha256_with_rsa(void) { return NID_sha256WithRSAEncryption; }

int cjws_nid_name(int nid, char *buffer, size_t capacity) {
    const char *name = nid != NID_undef ? OBJ_nid2ln(nid) : NULL;
    if (name == NULL || capacity == 0) {
        return -1;
    }
    int written = snprintf(buffer, capacity, "%s", name);
    return written < 0 ? -1 : (size_t)written >= capacity ? (int)capacity - 1 : written;
}
