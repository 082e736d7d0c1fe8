/* The parts of a certificate made by cjwst_cert_create (certificates.c): names, validity times and
 * the extensions (basicConstraints, keyUsage, key identifiers, OCSP access, Apple marker). */
#include "internal.h"

#include <openssl/asn1.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/objects.h>
#include <openssl/sha.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

/* Key identifier per RFC 5280 4.2.1.2 method 1: SHA-1 of the subjectPublicKey BIT STRING. */
static int key_identifier(EVP_PKEY *pkey, unsigned char identifier[SHA_DIGEST_LENGTH]) {
    int ok = 0;
    X509_PUBKEY *public_key = NULL;
    const unsigned char *bits = NULL;
    int bits_length = 0;
    unsigned int digest_length = 0;

    if (X509_PUBKEY_set(&public_key, pkey) != 1) goto done;
    if (X509_PUBKEY_get0_param(NULL, &bits, &bits_length, NULL, public_key) != 1) goto done;
    if (bits == NULL || bits_length <= 0) goto done;
    if (EVP_Digest(bits, (size_t)bits_length, identifier, &digest_length, EVP_sha1(), NULL) != 1)
        goto done;
    ok = digest_length == SHA_DIGEST_LENGTH;
done:
    X509_PUBKEY_free(public_key);
    return ok;
}

static int add_name_entry(X509_NAME *name, int nid, const char *value) {
    if (value == NULL) {
        return 1;
    }
    return X509_NAME_add_entry_by_NID(name, nid, MBSTRING_UTF8, (const unsigned char *)value, -1,
                                      -1, 0) == 1;
}

/* Builds CN, OU, O, C (in Apple's order); CN and O are required. */
X509_NAME *cjwst_internal_build_name(const cjwst_name *spec) {
    if (spec->common_name == NULL || spec->organization == NULL) {
        return NULL;
    }
    X509_NAME *name = X509_NAME_new();
    if (name == NULL) {
        return NULL;
    }
    if (!add_name_entry(name, NID_commonName, spec->common_name) ||
        !add_name_entry(name, NID_organizationalUnitName, spec->organizational_unit) ||
        !add_name_entry(name, NID_organizationName, spec->organization) ||
        !add_name_entry(name, NID_countryName, spec->country)) {
        X509_NAME_free(name);
        return NULL;
    }
    return name;
}

int cjwst_internal_set_time(X509 *certificate, int64_t seconds, int not_after) {
    ASN1_TIME *time = ASN1_TIME_set(NULL, (time_t)seconds);
    if (time == NULL) {
        return 0;
    }
    int ok = not_after ? X509_set1_notAfter(certificate, time) : X509_set1_notBefore(certificate, time);
    ASN1_TIME_free(time);
    return ok == 1;
}

int cjwst_internal_add_basic_constraints(X509 *certificate, int is_ca, int path_length) {
    int ok = 0;
    BASIC_CONSTRAINTS *constraints = BASIC_CONSTRAINTS_new();
    if (constraints == NULL) goto done;
    constraints->ca = is_ca ? 0xFF : 0;
    if (is_ca && path_length >= 0) {
        constraints->pathlen = ASN1_INTEGER_new(); /* owned by `constraints` */
        if (constraints->pathlen == NULL) goto done;
        if (ASN1_INTEGER_set(constraints->pathlen, path_length) != 1) goto done;
    }
    ok = X509_add1_ext_i2d(certificate, NID_basic_constraints, constraints, 1,
                           X509V3_ADD_DEFAULT) == 1;
done:
    BASIC_CONSTRAINTS_free(constraints);
    return ok;
}

int cjwst_internal_add_key_usage(X509 *certificate, unsigned int usage) {
    int ok = 0;
    ASN1_BIT_STRING *bits = ASN1_BIT_STRING_new();
    if (bits == NULL) goto done;
    for (int bit = 0; bit < 9; bit++) {
        if ((usage & (1u << bit)) != 0 && ASN1_BIT_STRING_set_bit(bits, bit, 1) != 1) goto done;
    }
    ok = X509_add1_ext_i2d(certificate, NID_key_usage, bits, 1, X509V3_ADD_DEFAULT) == 1;
done:
    ASN1_BIT_STRING_free(bits);
    return ok;
}

int cjwst_internal_add_subject_key_identifier(X509 *certificate, EVP_PKEY *subject) {
    int ok = 0;
    unsigned char identifier[SHA_DIGEST_LENGTH];
    ASN1_OCTET_STRING *value = NULL;
    if (!key_identifier(subject, identifier)) goto done;
    value = ASN1_OCTET_STRING_new();
    if (value == NULL) goto done;
    if (ASN1_OCTET_STRING_set(value, identifier, sizeof identifier) != 1) goto done;
    ok = X509_add1_ext_i2d(certificate, NID_subject_key_identifier, value, 0, X509V3_ADD_DEFAULT) == 1;
done:
    ASN1_OCTET_STRING_free(value);
    return ok;
}

int cjwst_internal_add_authority_key_identifier(X509 *certificate, EVP_PKEY *issuer) {
    int ok = 0;
    unsigned char identifier[SHA_DIGEST_LENGTH];
    AUTHORITY_KEYID *authority = NULL;
    if (!key_identifier(issuer, identifier)) goto done;
    authority = AUTHORITY_KEYID_new();
    if (authority == NULL) goto done;
    authority->keyid = ASN1_OCTET_STRING_new(); /* owned by `authority` */
    if (authority->keyid == NULL) goto done;
    if (ASN1_OCTET_STRING_set(authority->keyid, identifier, sizeof identifier) != 1) goto done;
    ok = X509_add1_ext_i2d(certificate, NID_authority_key_identifier, authority, 0,
                           X509V3_ADD_DEFAULT) == 1;
done:
    AUTHORITY_KEYID_free(authority);
    return ok;
}

int cjwst_internal_add_ocsp_access(X509 *certificate, const char *url) {
    int ok = 0;
    AUTHORITY_INFO_ACCESS *access = NULL;
    ACCESS_DESCRIPTION *description = NULL;
    ASN1_IA5STRING *uri = NULL;

    access = sk_ACCESS_DESCRIPTION_new_null();
    if (access == NULL) goto done;
    description = ACCESS_DESCRIPTION_new();
    if (description == NULL) goto done;
    uri = ASN1_IA5STRING_new();
    if (uri == NULL) goto done;
    if (ASN1_STRING_set(uri, url, -1) != 1) goto done;
    ASN1_OBJECT_free(description->method);
    description->method = OBJ_nid2obj(NID_ad_OCSP); /* static object */
    if (description->method == NULL) goto done;
    if (description->location == NULL) {
        description->location = GENERAL_NAME_new();
        if (description->location == NULL) goto done;
    }
    GENERAL_NAME_set0_value(description->location, GEN_URI, uri);
    uri = NULL; /* owned by `description` now */
    if (sk_ACCESS_DESCRIPTION_push(access, description) <= 0) goto done;
    description = NULL; /* owned by `access` now */
    ok = X509_add1_ext_i2d(certificate, NID_info_access, access, 0, X509V3_ADD_DEFAULT) == 1;
done:
    ASN1_IA5STRING_free(uri);
    ACCESS_DESCRIPTION_free(description);
    AUTHORITY_INFO_ACCESS_free(access);
    return ok;
}

int cjwst_internal_add_marker(X509 *certificate, const char *oid) {
    static const unsigned char der_null[2] = {0x05, 0x00};
    int ok = 0;
    ASN1_OBJECT *object = NULL;
    ASN1_OCTET_STRING *value = NULL;
    X509_EXTENSION *extension = NULL;

    object = OBJ_txt2obj(oid, 1); /* numeric form only */
    if (object == NULL) goto done;
    value = ASN1_OCTET_STRING_new();
    if (value == NULL) goto done;
    if (ASN1_OCTET_STRING_set(value, der_null, sizeof der_null) != 1) goto done;
    extension = X509_EXTENSION_create_by_OBJ(NULL, object, 0, value);
    if (extension == NULL) goto done;
    ok = X509_add_ext(certificate, extension, -1) == 1; /* copies `extension` */
done:
    X509_EXTENSION_free(extension);
    ASN1_OCTET_STRING_free(value);
    ASN1_OBJECT_free(object);
    return ok;
}
