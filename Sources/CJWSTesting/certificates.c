/* Certificates made with OpenSSL's X509 API (cjwst_cert_create), and reading certificates: public
 * key, subject attributes, validity, PEM and DER (the CJWSTesting.h functions cjwst_cert_*, except
 * cjwst_cert_create_crafted in crafted.c). */
#include "internal.h"

#include <limits.h>

#include <openssl/asn1.h>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

int cjwst_cert_create(const cjwst_cert_params *params, EVP_PKEY *subject_key,
                      EVP_PKEY *issuer_key, unsigned char **out_der, size_t *out_len) {
    int ok = 0;
    const char *step = "invalid arguments";
    X509 *certificate = NULL;
    X509_NAME *subject = NULL;
    X509_NAME *issuer = NULL;
    BIGNUM *serial_number = NULL;
    ASN1_INTEGER *serial = NULL;
    const EVP_MD *digest = NULL;
    unsigned char *der = NULL;
    int der_len = 0;
    int self_signed = 0;
    EVP_PKEY *signer = NULL;

    cjwss_internal_begin();
    if (out_der != NULL) *out_der = NULL;
    CJWSS_CHECK(params != NULL && subject_key != NULL && out_der != NULL &&
              out_len != NULL,
          "invalid arguments");
    CJWSS_CHECK(params->serial != NULL && params->serial_len > 0 && params->serial_len <= 20,
          "serial must be 1...20 bytes");
    self_signed = issuer_key == NULL || issuer_key == subject_key;
    signer = self_signed ? subject_key : issuer_key;
    CJWSS_CHECK(signer != NULL, "invalid issuer key");
    switch (params->signature_digest) {
    case CJWST_DIGEST_SHA256: digest = EVP_sha256(); break;
    case CJWST_DIGEST_SHA384: digest = EVP_sha384(); break;
    default: CJWSS_CHECK(0, "unsupported signature digest");
    }
    CJWSS_CHECK(digest != NULL, "EVP_sha384/EVP_sha256");

    certificate = X509_new();
    CJWSS_CHECK(certificate != NULL, "X509_new");
    CJWSS_CHECK(X509_set_version(certificate, X509_VERSION_3) == 1, "X509_set_version");

    serial_number = BN_bin2bn(params->serial, (int)params->serial_len, NULL);
    CJWSS_CHECK(serial_number != NULL, "BN_bin2bn (serial)");
    CJWSS_CHECK(!BN_is_zero(serial_number), "serial must not be 0");
    serial = BN_to_ASN1_INTEGER(serial_number, NULL);
    CJWSS_CHECK(serial != NULL, "BN_to_ASN1_INTEGER");
    CJWSS_CHECK(X509_set_serialNumber(certificate, serial) == 1, "X509_set_serialNumber");

    subject = cjwst_internal_build_name(&params->subject);
    CJWSS_CHECK(subject != NULL, "subject name (CN and O are required)");
    CJWSS_CHECK(X509_set_subject_name(certificate, subject) == 1, "X509_set_subject_name");
    if (self_signed) {
        CJWSS_CHECK(X509_set_issuer_name(certificate, subject) == 1, "X509_set_issuer_name");
    } else {
        issuer = cjwst_internal_build_name(&params->issuer);
        CJWSS_CHECK(issuer != NULL, "issuer name (CN and O are required)");
        CJWSS_CHECK(X509_set_issuer_name(certificate, issuer) == 1, "X509_set_issuer_name");
    }

    CJWSS_CHECK(cjwst_internal_set_time(certificate, params->not_before, 0), "notBefore");
    CJWSS_CHECK(cjwst_internal_set_time(certificate, params->not_after, 1), "notAfter");
    CJWSS_CHECK(X509_set_pubkey(certificate, subject_key) == 1, "X509_set_pubkey");

    CJWSS_CHECK(cjwst_internal_add_basic_constraints(certificate, params->is_ca, params->path_length),
          "basicConstraints");
    if (params->key_usage != 0) {
        CJWSS_CHECK(cjwst_internal_add_key_usage(certificate, params->key_usage), "keyUsage");
    }
    if (params->subject_key_identifier) {
        CJWSS_CHECK(cjwst_internal_add_subject_key_identifier(certificate, subject_key),
              "subjectKeyIdentifier");
    }
    if (params->authority_key_identifier) {
        CJWSS_CHECK(cjwst_internal_add_authority_key_identifier(certificate, signer),
              "authorityKeyIdentifier");
    }
    if (params->ocsp_url != NULL) {
        CJWSS_CHECK(cjwst_internal_add_ocsp_access(certificate, params->ocsp_url), "authorityInfoAccess");
    }
    if (params->marker_oid != NULL) {
        CJWSS_CHECK(cjwst_internal_add_marker(certificate, params->marker_oid),
              "marker extension (OID text)");
    }

    CJWSS_CHECK(X509_sign(certificate, signer, digest) > 0, "X509_sign");
    der_len = i2d_X509(certificate, &der);
    CJWSS_CHECK(der_len > 0 && der != NULL, "i2d_X509");
    *out_der = der;
    *out_len = (size_t)der_len;
    der = NULL;
    ok = 1;
done:
    OPENSSL_free(der);
    ASN1_INTEGER_free(serial);
    BN_free(serial_number);
    X509_NAME_free(issuer);
    X509_NAME_free(subject);
    X509_free(certificate);
    return cjwss_internal_finish(ok, __func__, step);
}

int cjwst_cert_public_spki_der(const void *cert_der, size_t cert_len, unsigned char **out_der,
                               size_t *out_len) {
    int ok = 0;
    const char *step = "invalid arguments";
    X509 *certificate = NULL;
    unsigned char *der = NULL;
    int der_len = 0;

    cjwss_internal_begin();
    if (out_der != NULL) *out_der = NULL;
    CJWSS_CHECK(out_der != NULL && out_len != NULL, "invalid arguments");
    certificate = cjwst_internal_parse_certificate(cert_der, cert_len);
    CJWSS_CHECK(certificate != NULL, "d2i_X509");
    der_len = i2d_X509_PUBKEY(X509_get_X509_PUBKEY(certificate), &der);
    CJWSS_CHECK(der_len > 0 && der != NULL, "i2d_X509_PUBKEY");
    *out_der = der;
    *out_len = (size_t)der_len;
    der = NULL;
    ok = 1;
done:
    OPENSSL_free(der);
    X509_free(certificate);
    return cjwss_internal_finish(ok, __func__, step);
}

int cjwst_cert_subject_attribute(const void *cert_der, size_t cert_len, int attribute,
                                 char **out_text, size_t *out_len) {
    int ok = 0;
    const char *step = "invalid arguments";
    X509 *certificate = NULL;
    unsigned char *text = NULL;
    int text_len = 0;
    int nid = NID_undef;
    int index = -1;
    const X509_NAME *name = NULL;
    const X509_NAME_ENTRY *entry = NULL;

    cjwss_internal_begin();
    if (out_text != NULL) *out_text = NULL;
    CJWSS_CHECK(out_text != NULL && out_len != NULL, "invalid arguments");
    switch (attribute) {
    case CJWST_NAME_CN: nid = NID_commonName; break;
    case CJWST_NAME_OU: nid = NID_organizationalUnitName; break;
    case CJWST_NAME_O: nid = NID_organizationName; break;
    case CJWST_NAME_C: nid = NID_countryName; break;
    default: CJWSS_CHECK(0, "unknown name attribute");
    }
    certificate = cjwst_internal_parse_certificate(cert_der, cert_len);
    CJWSS_CHECK(certificate != NULL, "d2i_X509");
    name = X509_get_subject_name(certificate);
    CJWSS_CHECK(name != NULL, "X509_get_subject_name");
    index = X509_NAME_get_index_by_NID(name, nid, -1);
    CJWSS_CHECK(index >= 0, "attribute absent");
    entry = X509_NAME_get_entry(name, index);
    CJWSS_CHECK(entry != NULL, "X509_NAME_get_entry");
    text_len = ASN1_STRING_to_UTF8(&text, X509_NAME_ENTRY_get_data(entry));
    CJWSS_CHECK(text_len >= 0 && text != NULL, "ASN1_STRING_to_UTF8");
    *out_text = (char *)text;
    *out_len = (size_t)text_len;
    text = NULL;
    ok = 1;
done:
    OPENSSL_free(text);
    X509_free(certificate);
    return cjwss_internal_finish(ok, __func__, step);
}

/* Seconds from the Unix epoch to `time`. */
static int time_to_unix(const ASN1_TIME *time, int64_t *out_seconds) {
    int ok = 0;
    int days = 0;
    int seconds = 0;
    ASN1_TIME *epoch = NULL;
    /* ASN1_TIME_diff treats a NULL time as "now"; a missing time is an error here. */
    if (time == NULL) goto done;
    epoch = ASN1_TIME_set(NULL, 0);
    if (epoch == NULL) goto done;
    if (ASN1_TIME_diff(&days, &seconds, epoch, time) != 1) goto done;
    *out_seconds = (int64_t)days * 86400 + seconds;
    ok = 1;
done:
    ASN1_TIME_free(epoch);
    return ok;
}

int cjwst_cert_validity(const void *cert_der, size_t cert_len, int64_t *out_not_before,
                        int64_t *out_not_after) {
    int ok = 0;
    const char *step = "invalid arguments";
    X509 *certificate = NULL;

    cjwss_internal_begin();
    CJWSS_CHECK(out_not_before != NULL && out_not_after != NULL, "invalid arguments");
    certificate = cjwst_internal_parse_certificate(cert_der, cert_len);
    CJWSS_CHECK(certificate != NULL, "d2i_X509");
    CJWSS_CHECK(time_to_unix(X509_get0_notBefore(certificate), out_not_before), "notBefore");
    CJWSS_CHECK(time_to_unix(X509_get0_notAfter(certificate), out_not_after), "notAfter");
    ok = 1;
done:
    X509_free(certificate);
    return cjwss_internal_finish(ok, __func__, step);
}

int cjwst_cert_der_to_pem(const void *cert_der, size_t cert_len, char **out_pem, size_t *out_len) {
    int ok = 0;
    const char *step = "invalid arguments";
    X509 *certificate = NULL;
    BIO *bio = NULL;

    cjwss_internal_begin();
    if (out_pem != NULL) *out_pem = NULL;
    CJWSS_CHECK(out_pem != NULL && out_len != NULL, "invalid arguments");
    certificate = cjwst_internal_parse_certificate(cert_der, cert_len);
    CJWSS_CHECK(certificate != NULL, "d2i_X509");
    bio = BIO_new(BIO_s_mem());
    CJWSS_CHECK(bio != NULL, "BIO_new");
    CJWSS_CHECK(PEM_write_bio_X509(bio, certificate) == 1, "PEM_write_bio_X509");
    CJWSS_CHECK(cjwst_internal_bio_to_text(bio, out_pem, out_len), "reading PEM");
    ok = 1;
done:
    BIO_free(bio);
    X509_free(certificate);
    return cjwss_internal_finish(ok, __func__, step);
}

int cjwst_cert_pem_to_der(const void *pem, size_t pem_len, unsigned char **out_der,
                          size_t *out_len) {
    int ok = 0;
    const char *step = "invalid arguments";
    BIO *bio = NULL;
    X509 *certificate = NULL;
    unsigned char *der = NULL;
    int der_len = 0;

    cjwss_internal_begin();
    if (out_der != NULL) *out_der = NULL;
    CJWSS_CHECK(pem != NULL && pem_len > 0 && pem_len <= INT_MAX && out_der != NULL && out_len != NULL,
          "invalid arguments");
    bio = BIO_new_mem_buf(pem, (int)pem_len);
    CJWSS_CHECK(bio != NULL, "BIO_new_mem_buf");
    certificate = PEM_read_bio_X509(bio, NULL, cjwst_internal_no_password, NULL);
    CJWSS_CHECK(certificate != NULL, "PEM_read_bio_X509");
    der_len = i2d_X509(certificate, &der);
    CJWSS_CHECK(der_len > 0 && der != NULL, "i2d_X509");
    *out_der = der;
    *out_len = (size_t)der_len;
    der = NULL;
    ok = 1;
done:
    OPENSSL_free(der);
    X509_free(certificate);
    BIO_free(bio);
    return cjwss_internal_finish(ok, __func__, step);
}
