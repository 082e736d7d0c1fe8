/* New leaves under an intermediate that already verified up to a configured root.
 *
 * Why this file exists. In OpenSSL 3.0, d2i_X509 decodes the certificate's subject key through the
 * provider decoder framework (OSSL_DECODER_CTX_new_for_pkey), which costs 140-350 µs a certificate
 * here: about a third of a P-384 verification, paid for every new leaf. X509_verify_cert needs every
 * certificate's decoded key (X509_self_signed and X509_get_pubkey_parameters ask for it), so a leaf
 * parsed without one cannot go through it.
 *
 * The rule it keeps: ONE VERDICT. This file may only answer "X509_verify_cert on the full chain
 * [leaf, intermediate, root] would certainly accept this leaf, at this time". Every other leaf (any
 * doubt) goes to the full path, which decides and names the error. It answers from allow-lists, not
 * from a copy of X509_verify_cert's checks:
 *
 *   - The intermediate and the root may carry only extensions that cannot constrain a leaf
 *     (cjws_ca_cannot_constrain_leaves: basicConstraints, keyUsage, key identifiers, authority
 *     information access, CRL distribution points, certificate policies, subjectAltName, extended key
 *     usage, Apple's intermediate marker; no nameConstraints, policyConstraints, policyMappings, inhibitAnyPolicy, RFC 3779 resources,
 *     proxy or unknown extensions). The caller checks both once, when it caches the intermediate.
 *   - The leaf may carry only the extensions Apple's leaves carry (basicConstraints with CA false and
 *     no path length, keyUsage, key identifiers, authority information access, CRL distribution points,
 *     certificate policies, Apple's leaf marker 1.2.840.113635.100.6.11.1), none an unhandled critical
 *     extension (so the marker is never critical), each valid to
 *     OpenSSL (no EXFLAG_INVALID: that includes a duplicate of any extension OpenSSL decodes), X.509 v3,
 *     not self-issued, not a CA, not a proxy.
 *   - The chain is the one X509_verify_cert would build. The caller asks only about a leaf under the
 *     intermediate it cached from this exact x5c[1] (keyed by its bytes), which verified to a configured
 *     root through cjws_verify_chain, and only when the store offers that intermediate one chain
 *     (TrustStore.hasOneChain in Swift: exactly one root with its issuer name, none with its subject
 *     name), so trusted-first lookups and OpenSSL's preference for an issuer valid at the time cannot
 *     pick another certificate for the leaf's issuer or the intermediate's; X509_check_issued below makes
 *     the leaf's issuer name the intermediate's subject.
 *   - What the chain above the leaf passed does not depend on the leaf: the path-length rule never
 *     counts depth 0 (check_extensions counts from the intermediate up), a non-proxy leaf leaves the
 *     intermediate's "must be a CA" as it was, name constraints and RFC 3779 resources are checked
 *     downwards only (from a CA onto certificates below it, and only when the leaf itself carries
 *     resources), and the caller only asks inside the interval where intermediate and root are both
 *     valid (ValidityInterval, the rule X509_cmp_time applies).
 *   - Under those, what X509_verify_cert (cjws_verify_chain's configuration: no strict mode, purpose,
 *     policy, CRL, host, DANE or security-level checks) still asks of the leaf is done here by the
 *     functions it uses itself: X509_check_issued (names, authority key identifier, the issuer may sign
 *     certificates, the signature's key type, neither certificate's extensions invalid), X509_cmp_time
 *     (notBefore <= t < notAfter), and the signature (below). Name constraints and RFC 3779 checks are
 *     empty for such a leaf under such CAs.
 *   - The leaf's key is EC P-256, named curve, uncompressed point on the curve (so never the point at
 *     infinity): the keys the default decoder also decodes, so check_curve and
 *     X509_get_pubkey_parameters pass on the full path too.
 *
 * Parsing: cjws_x509_from_der_p256_leaf parses the leaf in a library context whose only provider is
 * OpenSSL's "null" provider. The key decoding is opportunistic in OpenSSL (a failure leaves the
 * certificate without a cached key and is not an error), so it finds no decoder and stops there; the
 * rest of the parse is the same ASN.1 decoder as d2i_X509. The one extension flag that depends on the
 * key, EXFLAG_SS (self-signed), is never set on such a certificate; refusing every self-issued leaf
 * (EXFLAG_SI) makes that harmless. That is not documented behaviour, so selftest.c checks it once per
 * process on a known leaf (same extension flags, same key, the check accepting it and refusing it
 * altered); when it does not hold, both entry points here refuse every leaf and the full path runs.
 *
 * Tests: LeafCheckTests compare this check with X509_verify_cert on the full chain; OneVerdictTests
 * and the `chains` fuzz target compare warm verifiers, cold verifiers and OpenSSL on crafted
 * certificates; x509-limbo's chain cases run through both paths. */

#include "../internal.h"

#include <limits.h>
#include <pthread.h>
#include <string.h>
#include <time.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/objects.h>
#include <openssl/provider.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

/* ---- the key-less parsing context, once per process ------------------------------------------- */

static pthread_once_t keyless_once = PTHREAD_ONCE_INIT;
static OSSL_LIB_CTX *keyless_context = NULL; /* owned for the life of the process */

static void make_keyless_context(void) {
    OSSL_LIB_CTX *context = OSSL_LIB_CTX_new();
    if (context == NULL) {
        return;
    }
    /* Loading the null provider also stops OpenSSL from loading the default provider into this
     * context on first use, so nothing can be fetched here: no decoder, and so no key decoding. */
    if (OSSL_PROVIDER_load(context, "null") == NULL) {
        OSSL_LIB_CTX_free(context);
        return;
    }
    keyless_context = context;
}

/* Builds the key of `certificate` when its SubjectPublicKeyInfo is id-ecPublicKey with the named
 * curve prime256v1 and an uncompressed point; NULL otherwise. */
static EVP_PKEY *p256_key_from_fields(X509 *certificate) {
    ASN1_OBJECT *algorithm = NULL;
    const unsigned char *point = NULL;
    int point_length = 0;
    X509_ALGOR *algorithm_identifier = NULL;
    X509_PUBKEY *public_key = X509_get_X509_PUBKEY(certificate);
    if (public_key == NULL ||
        X509_PUBKEY_get0_param(&algorithm, &point, &point_length, &algorithm_identifier, public_key) != 1) {
        return NULL;
    }
    if (OBJ_obj2nid(algorithm) != NID_X9_62_id_ecPublicKey || algorithm_identifier == NULL) {
        return NULL;
    }
    int parameter_type = V_ASN1_UNDEF;
    const void *parameter = NULL;
    X509_ALGOR_get0(NULL, &parameter_type, &parameter, algorithm_identifier);
    if (parameter_type != V_ASN1_OBJECT || OBJ_obj2nid(parameter) != NID_X9_62_prime256v1) {
        return NULL;
    }
    /* The key is a BIT STRING: it must have no unused bits to be the octets of a point. */
    const ASN1_BIT_STRING *bits = X509_get0_pubkey_bitstr(certificate);
    if (bits == NULL || (bits->flags & ASN1_STRING_FLAG_BITS_LEFT && (bits->flags & 0x07) != 0)) {
        return NULL;
    }
    if (point == NULL || point_length != 65 || point[0] != 0x04) {
        return NULL;
    }
    return cjws_pkey_p256_from_point(point, (size_t)point_length);
}

X509 *cjws_internal_keyless_p256_leaf(const void *der, size_t length, EVP_PKEY **key) {
    ERR_clear_error();
    *key = NULL;
    pthread_once(&keyless_once, make_keyless_context);
    if (keyless_context == NULL || der == NULL || length == 0 || length > LONG_MAX) {
        return NULL;
    }
    const unsigned char *cursor = der;
    X509 *certificate = (X509 *)ASN1_item_d2i_ex(NULL, &cursor, (long)length, ASN1_ITEM_rptr(X509),
                                                 keyless_context, NULL);
    if (certificate == NULL) {
        ERR_clear_error();
        return NULL;
    }
    /* Exactly one certificate, as cjws_x509_from_der requires. */
    if (cursor != (const unsigned char *)der + length) {
        X509_free(certificate);
        ERR_clear_error();
        return NULL;
    }
    EVP_PKEY *built = p256_key_from_fields(certificate);
    if (built == NULL) {
        X509_free(certificate);
        ERR_clear_error();
        return NULL;
    }
    ERR_clear_error();
    *key = built;
    return certificate;
}

X509 *cjws_x509_from_der_p256_leaf(const void *der, size_t length, EVP_PKEY **key) {
    *key = NULL;
    if ((cjws_self_test() & CJWS_SELF_TEST_NEW_LEAF) == 0) {
        ERR_clear_error();
        return NULL;
    }
    return cjws_internal_keyless_p256_leaf(der, length, key);
}

/* ---- the allow-lists ---------------------------------------------------------------------------- */

/* Apple's marker extensions: on the leaf that signs App Store data, and on its intermediate. */
static const char apple_leaf_marker[] = "1.2.840.113635.100.6.11.1";
static const char apple_intermediate_marker[] = "1.2.840.113635.100.6.2.1";

/* 1 when the extension's OID is exactly `dotted`. */
static int extension_is(X509_EXTENSION *extension, const char *dotted) {
    char text[80];
    int length = OBJ_obj2txt(text, (int)sizeof text, X509_EXTENSION_get_object(extension), 1);
    return length > 0 && (size_t)length < sizeof text && strcmp(text, dotted) == 0;
}

/* The extensions OpenSSL knows that neither constrain nor are examined below a CA in
 * cjws_verify_chain's configuration (no policy checking, no purpose, no CRLs), or that it checks
 * through X509_check_issued (key identifiers, keyUsage). */
static int nid_is_inert(int nid) {
    switch (nid) {
    case NID_basic_constraints:
    case NID_key_usage:
    case NID_subject_key_identifier:
    case NID_authority_key_identifier:
    case NID_info_access:
    case NID_crl_distribution_points:
    case NID_certificate_policies:
        return 1;
    default:
        return 0;
    }
}

/* Besides those, a CA may name itself (subjectAltName: only checked against name constraints above it,
 * which the CA allow-list excludes) and list extended key usages (examined only for a purpose, and
 * cjws_verify_chain sets none): neither reaches a certificate below it. */
static int nid_is_inert_on_ca(int nid) {
    return nid_is_inert(nid) || nid == NID_subject_alt_name || nid == NID_ext_key_usage;
}

/* 1 when every extension of `certificate` is allowed by `inert` or is the given Apple marker. Whether
 * one is critical is not looked at here: OpenSSL's flags say whether a critical one is unhandled
 * (EXFLAG_CRITICAL, which an unknown marker sets), and both callers refuse that flag first. */
static int extensions_allowed(X509 *certificate, int (*inert)(int), const char *marker) {
    int count = X509_get_ext_count(certificate);
    for (int index = 0; index < count; index++) {
        X509_EXTENSION *extension = X509_get_ext(certificate, index);
        if (extension == NULL) {
            return 0;
        }
        int nid = OBJ_obj2nid(X509_EXTENSION_get_object(extension));
        if (nid != NID_undef && inert(nid)) {
            continue;
        }
        if (nid == NID_undef && extension_is(extension, marker)) {
            continue;
        }
        return 0;
    }
    return 1;
}

int cjws_ca_cannot_constrain_leaves(X509 *ca) {
    ERR_clear_error();
    int answer = 0;
    if (ca == NULL) {
        goto done;
    }
    uint32_t flags = X509_get_extension_flags(ca);
    uint32_t refused = EXFLAG_INVALID | EXFLAG_CRITICAL | EXFLAG_PROXY | EXFLAG_NO_FINGERPRINT;
    if ((flags & EXFLAG_SET) == 0 || (flags & refused) != 0) {
        goto done;
    }
    answer = extensions_allowed(ca, nid_is_inert_on_ca, apple_intermediate_marker);

done:
    ERR_clear_error();
    return answer;
}

/* ---- the check ---------------------------------------------------------------------------------- */

static const EVP_MD *digest_for_signature(int nid) {
    switch (nid) {
    case NID_ecdsa_with_SHA256: return EVP_sha256();
    case NID_ecdsa_with_SHA384: return EVP_sha384();
    case NID_ecdsa_with_SHA512: return EVP_sha512();
    default: return NULL;
    }
}

/* The TBSCertificate of a DER certificate: the first element of its outer SEQUENCE, as received.
 * Definite lengths only (DER); returns 1 and sets *tbs and *tbs_length when found. */
static int locate_tbs(const unsigned char *der, size_t der_length, const unsigned char **tbs, size_t *tbs_length) {
    if (der == NULL || der_length == 0 || der_length > LONG_MAX) {
        return 0;
    }
    const unsigned char *cursor = der;
    long length = 0;
    int tag = 0, class = 0;
    int header = ASN1_get_object(&cursor, &length, &tag, &class, (long)der_length);
    /* 0x80: error; 0x21: indefinite length. The certificate must be a constructed SEQUENCE. */
    if ((header & 0x80) != 0 || header != V_ASN1_CONSTRUCTED || tag != V_ASN1_SEQUENCE || class != V_ASN1_UNIVERSAL) {
        return 0;
    }
    const unsigned char *start = cursor;
    long remaining = (long)(der + der_length - cursor);
    header = ASN1_get_object(&cursor, &length, &tag, &class, remaining);
    if ((header & 0x80) != 0 || header != V_ASN1_CONSTRUCTED || tag != V_ASN1_SEQUENCE || class != V_ASN1_UNIVERSAL) {
        return 0;
    }
    size_t header_length = (size_t)(cursor - start);
    if (length < 0 || (size_t)length > (size_t)remaining - header_length) {
        return 0;
    }
    *tbs = start;
    *tbs_length = header_length + (size_t)length;
    return 1;
}

/* 1 when the leaf's signature verifies with `issuer_key` exactly as X509_verify would accept it. */
static int signature_verifies(X509 *leaf, const unsigned char *der, size_t der_length, cjws_ec_key *issuer_key) {
    const ASN1_BIT_STRING *signature = NULL;
    const X509_ALGOR *outer = NULL;
    X509_get0_signature(&signature, &outer, leaf);
    const X509_ALGOR *inner = X509_get0_tbs_sigalg(leaf);
    if (signature == NULL || outer == NULL || inner == NULL || X509_ALGOR_cmp(outer, inner) != 0) {
        return 0;
    }
    const ASN1_OBJECT *algorithm = NULL;
    int parameter_type = V_ASN1_UNDEF;
    X509_ALGOR_get0(&algorithm, &parameter_type, NULL, outer);
    const EVP_MD *md = digest_for_signature(OBJ_obj2nid(algorithm));
    if (md == NULL || parameter_type != V_ASN1_UNDEF) {
        return 0;
    }
    if ((signature->flags & ASN1_STRING_FLAG_BITS_LEFT) != 0 && (signature->flags & 0x07) != 0) {
        return 0;
    }
    const unsigned char *tbs = NULL;
    size_t tbs_length = 0;
    if (!locate_tbs(der, der_length, &tbs, &tbs_length)) {
        return 0;
    }
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int digest_length = 0;
    if (EVP_Digest(tbs, tbs_length, digest, &digest_length, md, NULL) != 1) {
        return 0;
    }
    return cjws_ec_key_verify_digest(issuer_key, digest, digest_length, signature->data,
                                     (size_t)signature->length) == 1;
}

int cjws_internal_leaf_check(X509 *leaf, const void *leaf_der, size_t leaf_der_length, X509 *issuer,
                    cjws_ec_key *issuer_key, int64_t at_time, int *reason) {
    ERR_clear_error();
    int set_aside = CJWS_LEAF_UNAVAILABLE;
    int accepted = 0;
    if (leaf == NULL || issuer == NULL || issuer_key == NULL) {
        goto done;
    }
    /* Computing the flags caches the extensions; EXFLAG_SET says that it ran. EXFLAG_INVALID covers
     * every extension OpenSSL decodes that does not decode, and a duplicate of one. */
    set_aside = CJWS_LEAF_FLAGS;
    uint32_t flags = X509_get_extension_flags(leaf);
    uint32_t refused = EXFLAG_INVALID | EXFLAG_CRITICAL | EXFLAG_PROXY | EXFLAG_SI | EXFLAG_SS | EXFLAG_CA |
                       EXFLAG_V1 | EXFLAG_INVALID_POLICY | EXFLAG_NO_FINGERPRINT;
    if ((flags & EXFLAG_SET) == 0 || (flags & refused) != 0) {
        goto done;
    }
    set_aside = CJWS_LEAF_PROFILE;
    if (X509_get_version(leaf) != X509_VERSION_3 || X509_get_pathlen(leaf) != -1) {
        goto done;
    }
    set_aside = CJWS_LEAF_EXTENSIONS;
    if (!extensions_allowed(leaf, nid_is_inert, apple_leaf_marker)) {
        goto done;
    }
    /* X509_check_issued also refuses an issuer whose own extensions are invalid (it caches both
     * certificates' extensions and fails when either is invalid), and a signature algorithm whose key
     * type is not the issuer's (so below, an ECDSA algorithm means an EC issuer key). */
    set_aside = CJWS_LEAF_NOT_ISSUED;
    if (X509_check_issued(issuer, leaf) != X509_V_OK) {
        goto done;
    }
    /* X509_cmp_time is the comparison X509_verify_cert makes (check_cert_time): valid when
     * notBefore <= t (-1) and t < notAfter (1); 0 is a malformed time. */
    set_aside = CJWS_LEAF_TIME;
    time_t when = (time_t)at_time;
    if (X509_cmp_time(X509_get0_notBefore(leaf), &when) != -1 || X509_cmp_time(X509_get0_notAfter(leaf), &when) != 1) {
        goto done;
    }
    /* From here on the signature has been (or may have been) checked: -1 unless it verifies. */
    set_aside = CJWS_LEAF_SIGNATURE;
    if (signature_verifies(leaf, leaf_der, leaf_der_length, issuer_key)) {
        set_aside = CJWS_LEAF_ACCEPTED;
        accepted = 1;
    } else {
        accepted = -1;
    }

done:
    if (reason != NULL) {
        *reason = set_aside;
    }
    ERR_clear_error();
    return accepted;
}

int cjws_leaf_accepted_under(X509 *leaf, const void *leaf_der, size_t leaf_der_length, X509 *issuer,
                             cjws_ec_key *issuer_key, int64_t at_time, int *reason) {
    if ((cjws_self_test() & CJWS_SELF_TEST_NEW_LEAF) == 0) {
        ERR_clear_error();
        if (reason != NULL) {
            *reason = CJWS_LEAF_UNAVAILABLE;
        }
        return 0;
    }
    return cjws_internal_leaf_check(leaf, leaf_der, leaf_der_length, issuer, issuer_key, at_time, reason);
}
