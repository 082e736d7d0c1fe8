/*
 * CJWSTesting: the C code of the testing library (keys, certificates, receipts, forgeries).
 *
 * It mints test keys and test certificates so that JWSVerifyTesting can produce tokens shaped like
 * the App Store's (their ES256 signatures are CJWSSigning's, the one signer, which this module
 * calls for certificate signatures too), and RSA keys and CMS SignedData for app receipts
 * (StoreKit 1), with OpenSSL's own CMS_verify as the reference verdict on them. It is kept apart from
 * the verification C module (CJWSOpenSSL): nothing on the verification path links it. It depends on
 * CJWSOpenSSL for the conventions' shared parts only: the error drain (cjws_error_text) and the free
 * functions (cjws_free, cjws_pkey_free).
 *
 * Conventions: those of CJWSOpenSSL.h (stated in full there), the same for both C modules:
 *   - Names: every exported name carries the module's prefix, cjwst_ / CJWST_; what the module's files
 *     share without exporting it is declared in internal.h as cjwst_internal_*.
 *   - Bytes in: `const void *` + `size_t`; text: NUL-terminated UTF-8. Bytes out: `out_*` pointer and
 *     length, allocated with OpenSSL's allocator, released with cjws_free() (CJWSOpenSSL); on failure
 *     the out pointer is set to NULL.
 *   - Objects: keys are OpenSSL's EVP_PKEY, as in CJWSOpenSSL. A function that makes one returns it
 *     (NULL on failure) and the caller owns it: release it with cjws_pkey_free() (CJWSOpenSSL).
 *     Arguments are borrowed; nothing given is kept.
 *   - Status: 1 done, 0 failed. Out-parameters come last.
 *   - Errors: each function empties OpenSSL's error queue of the thread on entry; on success it leaves
 *     it empty, on failure it leaves OpenSSL's reasons in it and adds, as the last entry, the failed
 *     function and step ("cjwst_cms_sign: CMS_final"). cjws_error_text() (CJWSOpenSSL), the one drain
 *     of both modules, reads them.
 *   - OPENSSL_NO_DEPRECATED: no deprecated OpenSSL API is used (internal.h hides them).
 *
 * Where each section is implemented: keys.c (EC and RSA keys), certificates.c and cert_builders.c
 * (certificates), signatures.c (the forged ES256 signature), crafted.c (crafted
 * certificates), chain.c (chain verdicts), receipts.c (CMS SignedData for app receipts),
 * receipt_reference.c (OpenSSL's own CMS_verify as a reference verdict, and CMS inspection),
 * helpers.c (the entry and exit of every function, and what several files use), allocator.c (the
 * failing allocator); internal.h, beside them, declares what they share.
 */
#ifndef CJWSTESTING_H
#define CJWSTESTING_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Elliptic curves. */
#define CJWST_CURVE_P256 256
#define CJWST_CURVE_P384 384

/* Message digests. */
#define CJWST_DIGEST_SHA1 1     /* crafted certificates and receipts only */
#define CJWST_DIGEST_MD5 5      /* receipts only */
#define CJWST_DIGEST_SHA256 256
#define CJWST_DIGEST_SHA384 384
#define CJWST_DIGEST_SHA512 512 /* crafted certificates and receipts only */

/* Private key PEM encodings. */
#define CJWST_PEM_PKCS8 1 /* "-----BEGIN PRIVATE KEY-----" */
#define CJWST_PEM_SEC1 2  /* "-----BEGIN EC PRIVATE KEY-----" */

/* keyUsage bits (RFC 5280 section 4.2.1.3), combined with `|`. */
#define CJWST_KU_DIGITAL_SIGNATURE 0x01u
#define CJWST_KU_NON_REPUDIATION 0x02u
#define CJWST_KU_KEY_ENCIPHERMENT 0x04u
#define CJWST_KU_DATA_ENCIPHERMENT 0x08u
#define CJWST_KU_KEY_AGREEMENT 0x10u
#define CJWST_KU_KEY_CERT_SIGN 0x20u
#define CJWST_KU_CRL_SIGN 0x40u

/* Subject names of certificates: CN, OU, O, C (OU and C are optional). */
#define CJWST_NAME_CN 1
#define CJWST_NAME_OU 2
#define CJWST_NAME_O 3
#define CJWST_NAME_C 4

/* A distinguished name: CN and O required, OU and C optional (NULL to leave out). */
typedef struct cjwst_name {
    const char *common_name;
    const char *organizational_unit;
    const char *organization;
    const char *country;
} cjwst_name;

/* Everything an X.509 v3 certificate made by cjwst_cert_create() carries. */
typedef struct cjwst_cert_params {
    cjwst_name subject;
    /* Ignored when the certificate is self-signed (issuer key NULL or equal to the subject key):
       the issuer name is then the subject name. */
    cjwst_name issuer;
    /* Serial number, big-endian unsigned bytes (1...20 bytes, not all zero). */
    const void *serial;
    size_t serial_len;
    /* Validity, Unix seconds. */
    int64_t not_before;
    int64_t not_after;
    /* CJWST_DIGEST_SHA384 (Apple's choice) or CJWST_DIGEST_SHA256. */
    int signature_digest;
    /* basicConstraints, always critical: CA true/false; path length constraint, or -1 for none
       (only meaningful for CAs). */
    int is_ca;
    int path_length;
    /* keyUsage bits (CJWST_KU_*), always critical; 0 leaves the extension out. */
    unsigned int key_usage;
    /* Add subjectKeyIdentifier (SHA-1 of the subject public key bits). */
    int subject_key_identifier;
    /* Add authorityKeyIdentifier (keyid = SHA-1 of the issuer public key bits). */
    int authority_key_identifier;
    /* Dotted OID of an Apple marker extension (value DER NULL 05 00, non-critical), or NULL. */
    const char *marker_oid;
    /* Authority Information Access OCSP URL, or NULL. */
    const char *ocsp_url;
} cjwst_cert_params;

/* Generates an EC key on `curve` (CJWST_CURVE_*). Without a seed (NULL, 0) the key is random.
   With a seed of 32 (P-256) or 48 (P-384) bytes the private scalar is the big-endian seed
   reduced modulo the group order; a seed reducing to 0 is rejected. */
EVP_PKEY *cjwst_key_generate(int curve, const void *seed, size_t seed_len);

/* Reads a private EC key (P-256 or P-384) from PEM: PKCS#8 or SEC1, unencrypted. */
EVP_PKEY *cjwst_key_from_private_pem(const void *pem, size_t pem_len);

/* The curve of the key (CJWST_CURVE_*); 0 for an RSA key, another curve or NULL. */
int cjwst_key_curve(const EVP_PKEY *key);

/* The private key as PEM (CJWST_PEM_PKCS8 or CJWST_PEM_SEC1). The buffer is NUL-terminated;
   `out_len` excludes the NUL. */
int cjwst_key_private_pem(EVP_PKEY *key, int encoding, char **out_pem, size_t *out_len);

/* The public key as DER SubjectPublicKeyInfo. */
int cjwst_key_public_spki_der(EVP_PKEY *key, unsigned char **out_der, size_t *out_len);

/* Generates a random RSA key of `bits` bits (512...16384; public exponent 65537). Apple's receipt
   certificates use 2048. There is no seeded form: OpenSSL's RSA key generation draws from its
   own random generator. Its size: cjws_pkey_rsa_bits (CJWSOpenSSL). */
EVP_PKEY *cjwst_rsa_key_generate(int bits);

/* Reads an unencrypted private RSA key from PEM (PKCS #8 or PKCS #1). */
EVP_PKEY *cjwst_rsa_key_from_private_pem(const void *pem, size_t pem_len);

/* Creates and signs an X.509 v3 certificate for `subject_key`, signed by `issuer_key`
   (self-signed when `issuer_key` is NULL or equal to `subject_key`). Output: DER. */
int cjwst_cert_create(const cjwst_cert_params *params, EVP_PKEY *subject_key,
                      EVP_PKEY *issuer_key, unsigned char **out_der, size_t *out_len);

/* The certificate's subject public key as DER SubjectPublicKeyInfo. */
int cjwst_cert_public_spki_der(const void *cert_der, size_t cert_len, unsigned char **out_der,
                               size_t *out_len);

/* One attribute (CJWST_NAME_*) of the certificate's subject name, as a NUL-terminated UTF-8
   string. Fails when the attribute is absent. */
int cjwst_cert_subject_attribute(const void *cert_der, size_t cert_len, int attribute,
                                 char **out_text, size_t *out_len);

/* The certificate's validity as Unix seconds. */
int cjwst_cert_validity(const void *cert_der, size_t cert_len, int64_t *out_not_before,
                        int64_t *out_not_after);

/* Converts a DER certificate to PEM ("-----BEGIN CERTIFICATE-----"), NUL-terminated. */
int cjwst_cert_der_to_pem(const void *cert_der, size_t cert_len, char **out_pem, size_t *out_len);

/* Converts a PEM certificate to DER. */
int cjwst_cert_pem_to_der(const void *pem, size_t pem_len, unsigned char **out_der,
                          size_t *out_len);

/* Signatures of keys and tokens are CJWSSigning's (cjwss_sign, cjwss_sign_es256): the one signer. The
   CJWST_DIGEST_* values above are its CJWSS_DIGEST_* values. */

/* ---------------------------------------------------------------------------------------------
 * Crafted certificates (tests and fuzzing): every field given as bytes and written verbatim
 * ------------------------------------------------------------------------------------------- */

/* Encodings of a certificate time (RFC 5280 4.1.2.5). */
#define CJWST_TIME_UTC 1         /* UTCTime YYMMDDHHMMSSZ; years 1950...2049 only */
#define CJWST_TIME_GENERALIZED 2 /* GeneralizedTime YYYYMMDDHHMMSSZ; years 0...9999 */

/* Encodings of a key's SubjectPublicKeyInfo (cjwst_key_public_spki_der_ex). */
#define CJWST_POINT_UNCOMPRESSED 0
#define CJWST_POINT_COMPRESSED 1

/* One extension, written in the order given (duplicates and unknown OIDs are kept). */
typedef struct cjwst_extension {
    /* Dotted OID ("2.5.29.19"); any arcs, known to OpenSSL or not. */
    const char *oid;
    /* Nonzero writes critical BOOLEAN TRUE; 0 leaves the field out (DER default FALSE). */
    int critical;
    /* The extnValue OCTET STRING's contents (normally the extension's DER), verbatim. */
    const void *value;
    size_t value_len;
} cjwst_extension;

/* A certificate whose every field the caller chose (see cjwst_cert_create_crafted). */
typedef struct cjwst_crafted_cert {
    /* DER Name (SEQUENCE OF RelativeDistinguishedName), written verbatim. */
    const void *subject_der;
    size_t subject_len;
    const void *issuer_der;
    size_t issuer_len;
    /* The serialNumber INTEGER's content octets, verbatim (two's complement), 1...64 bytes. */
    const void *serial;
    size_t serial_len;
    /* Validity in Unix seconds, each with its encoding (CJWST_TIME_*). */
    int64_t not_before;
    int not_before_encoding;
    int64_t not_after;
    int not_after_encoding;
    /* CJWST_DIGEST_SHA1, _SHA256, _SHA384 or _SHA512: the digest of the issuer key's signature, and
       in both AlgorithmIdentifiers ecdsa-with-SHA1/256/384/512 for an EC issuer key, or
       sha1/256/384/512WithRSAEncryption (parameters NULL) for an RSA issuer key. */
    int signature_digest;
    /* The SubjectPublicKeyInfo DER written verbatim, or NULL to use `subject_key`'s. */
    const void *spki_der;
    size_t spki_len;
    /* The extensions, in order; none (count 0) leaves out the [3] field. */
    const cjwst_extension *extensions;
    size_t extension_count;
} cjwst_crafted_cert;

/* Creates an X.509 v3 certificate from `params`, DER-encoded here (no OpenSSL re-encoding, so
   every field is exactly as given) and signed by `issuer_key`, EC (ECDSA) or RSA (PKCS #1 v1.5)
   (required; pass the subject's own key for a self-signed certificate). `subject_key` supplies the SubjectPublicKeyInfo when
   `params->spki_der` is NULL, and is otherwise unused (may be NULL). Output: DER. */
int cjwst_cert_create_crafted(const cjwst_crafted_cert *params, EVP_PKEY *subject_key,
                              EVP_PKEY *issuer_key, unsigned char **out_der,
                              size_t *out_len);

/* The public key as DER SubjectPublicKeyInfo with a chosen point form (CJWST_POINT_*) and, when
   `explicit_parameters` is nonzero, the curve as explicit ECParameters instead of its OID. */
int cjwst_key_public_spki_der_ex(EVP_PKEY *key, int point_form, int explicit_parameters,
                                 unsigned char **out_der, size_t *out_len);

/* A forged ES256 signature (raw 64-byte r||s) of `message` that verifies against the P-256 point at
   infinity as public key, made without any private key: r = x(kG) mod n, s = e * k^-1 mod n (e =
   SHA-256 of `message`), so that u1 = k and u2 * O = O. `k` (big-endian, 1...32 bytes, reduced
   modulo n, not 0) makes it deterministic; NULL draws a random k. */
int cjwst_forge_es256_infinity(const void *message, size_t message_len, const void *k,
                               size_t k_len, unsigned char **out_signature, size_t *out_len);

/* OpenSSL's X509_verify_cert on leaf <- intermediate <- root: a store that trusts only `root`,
   `intermediate` the only untrusted certificate, default flags and purpose, at `at_time`. A
   callback records the first error about validity dates and the first other error and lets
   verification continue, exactly as JWSVerify's cold chain check does. */
typedef struct cjwst_chain_verdict {
    /* 1 when X509_verify_cert returned 1 and no error was recorded. */
    int verified;
    /* First X509_V_ERR_* that is not about dates (0 for none), and its depth. */
    int trust_error;
    int trust_error_depth;
    /* First date error (CERT_NOT_YET_VALID, CERT_HAS_EXPIRED, ERROR_IN_CERT_NOT_*), and its depth. */
    int time_error;
    int time_error_depth;
    /* Certificates in the chain OpenSSL built. */
    int chain_length;
    /* X509_verify_cert returned -1 (an internal failure such as an undecodable key); the failure
       is then also recorded as `trust_error`. */
    int could_not_run;
} cjwst_chain_verdict;

int cjwst_verify_chain(const void *leaf_der, size_t leaf_len, const void *intermediate_der,
                       size_t intermediate_len, const void *root_der, size_t root_len,
                       int64_t at_time, cjwst_chain_verdict *out_verdict);

/* X509_verify_cert_error_string for an X509_V_ERR_* code (a static string). */
const char *cjwst_verify_error_string(int code);

/* ---------------------------------------------------------------------------------------------
 * App receipts (StoreKit 1): CMS/PKCS #7 SignedData (receipts.c)
 * ------------------------------------------------------------------------------------------- */

/* Bytes given by pointer and length (a DER certificate in a list). */
typedef struct cjwst_bytes {
    const void *data;
    size_t length;
} cjwst_bytes;

/* Encodings of a CMS ContentInfo. */
#define CJWST_CMS_DER 1 /* definite lengths (the App Store's receipts) */
#define CJWST_CMS_BER 2 /* indefinite lengths from OpenSSL's streaming writer (Xcode's receipts) */

/* One SignerInfo. */
typedef struct cjwst_cms_signer {
    /* The DER certificate whose issuer and serial number the SignerInfo names (sid
       issuerAndSerialNumber, version 1). It is not embedded by this: list it in `certificates`. */
    const void *certificate_der;
    size_t certificate_len;
    /* The key that signs, RSA or EC. Normally the certificate's own; any other key makes a
       SignerInfo that names `certificate_der` but whose signature only another key verifies. */
    EVP_PKEY *key;
    /* digestAlgorithm: CJWST_DIGEST_SHA1, _SHA256, _SHA384, _SHA512 or _MD5. */
    int digest;
    /* 0: no signed attributes (Apple's receipts: the signature is over the content's digest).
       Nonzero: OpenSSL's signed attributes contentType, signingTime and messageDigest. */
    int signed_attributes;
} cjwst_cms_signer;

/* Everything cjwst_cms_sign writes. Every field is used as given, so that failures can be made. */
typedef struct cjwst_cms_params {
    /* The content (a receipt's DER attribute set); may be empty. */
    const void *content;
    size_t content_len;
    /* eContentType as dotted text, or NULL for id-data (1.2.840.113549.1.7.1, Apple's). */
    const char *content_type_oid;
    /* The SignerInfos (a SET OF: OpenSSL's DER writer sorts them by encoding). None (count 0, DER
       only) writes an empty set and signs nothing. */
    const cjwst_cms_signer *signers;
    size_t signer_count;
    /* The certificates field: these DER certificates verbatim, in this order (duplicates allowed);
       none (count 0) leaves the field out. OpenSSL would sort them (DER SET OF), so the field is
       inserted after OpenSSL encoded the rest; the signature does not cover it. */
    const cjwst_bytes *certificates;
    size_t certificate_count;
    /* Nonzero leaves eContent out (a detached signature over `content`); DER only, since OpenSSL's
       streaming writer always embeds the content. */
    int detached;
    /* Nonzero replaces the SignedData's digestAlgorithms SET (OpenSSL's: the signers' digests) with
       one AlgorithmIdentifier without parameters per dotted OID of `digest_algorithm_oids`, in this
       order, verbatim (at most 8; none writes an empty SET). The signature does not cover it. */
    int replaces_digest_algorithms;
    const char *const *digest_algorithm_oids;
    size_t digest_algorithm_count;
    /* CJWST_CMS_DER or CJWST_CMS_BER. */
    int encoding;
} cjwst_cms_params;

/* Builds a CMS SignedData ContentInfo (RFC 5652) with OpenSSL's CMS_sign, CMS_add1_signer and
   CMS_final (or its streaming writer for BER), flags CMS_BINARY and CMS_NOSMIMECAP, plus
   CMS_NOATTR for signers without signed attributes. An RSA signer's signatureAlgorithm is
   rsaEncryption, as in Apple's receipts. Output: the encoded ContentInfo. */
int cjwst_cms_sign(const cjwst_cms_params *params, unsigned char **out_cms, size_t *out_len);

/* ---------------------------------------------------------------------------------------------
 * App receipts: the reference verdict and inspection (receipt_reference.c)
 * ------------------------------------------------------------------------------------------- */

/* X.509 purposes for the signer's path in cjwst_cms_verify_reference. */
#define CJWST_CMS_PURPOSE_DEFAULT 0 /* CMS_verify's own default, "smime_sign" */
#define CJWST_CMS_PURPOSE_ANY 1     /* X509_PURPOSE_ANY (`openssl cms -verify -purpose any`) */

/* What a failed reference verification is about, from OpenSSL's first queued error. */
#define CJWST_CMS_FAILURE_NONE 0
#define CJWST_CMS_FAILURE_PARSE 1            /* d2i_CMS_ContentInfo failed */
#define CJWST_CMS_FAILURE_NOT_SIGNED_DATA 2  /* CMS_R_CONTENT_TYPE_NOT_SIGNED_DATA ... */
#define CJWST_CMS_FAILURE_NO_CONTENT 3       /* CMS_R_NO_CONTENT (detached, none given) */
#define CJWST_CMS_FAILURE_SIGNER_NOT_FOUND 4 /* CMS_R_SIGNER_CERTIFICATE_NOT_FOUND */
#define CJWST_CMS_FAILURE_CERTIFICATE 5      /* CMS_R_CERTIFICATE_VERIFY_ERROR (path) */
#define CJWST_CMS_FAILURE_SIGNATURE 6        /* CMS_R_VERIFICATION_FAILURE, _CONTENT_VERIFY_ERROR */
#define CJWST_CMS_FAILURE_OTHER 7            /* anything else; see `reason` */

/* The verdict of cjwst_cms_verify_reference. Buffers are allocated by OpenSSL: release
   `signer_certificate` and `content` with cjws_free() (NULL when absent). */
typedef struct cjwst_cms_verdict {
    /* 1 when CMS_verify returned 1. */
    int verified;
    /* CJWST_CMS_FAILURE_*. */
    int failure;
    /* OpenSSL's first queued error code (ERR_peek_error), 0 for none, and its text with the
       error's data ("... certificate verify error: Verify error:certificate has expired"). */
    unsigned long openssl_error;
    char reason[512];
    /* The first X509_V_ERR_* of the signer's path (0 for none) and its depth, seen by a verify
       callback that returns OpenSSL's own answer unchanged. */
    int x509_error;
    int x509_error_depth;
    /* SignerInfos in the parsed ContentInfo (0 when it did not parse as SignedData). */
    int signer_count;
    /* Bytes after the ContentInfo, which d2i_CMS_ContentInfo ignores. */
    size_t trailing_bytes;
    /* DER of the first signer's certificate that CMS_verify chose (from the embedded ones). */
    unsigned char *signer_certificate;
    size_t signer_certificate_len;
    /* The content CMS_verify wrote out (only when verified). */
    unsigned char *content;
    size_t content_len;
} cjwst_cms_verdict;

/* OpenSSL's own CMS_verify on `cms` (DER or BER), as a reference for differential tests: a store
   that trusts exactly the DER certificates `roots`, its verification time `at_time` (Unix seconds,
   X509_VERIFY_PARAM_set_time), `purpose` (CJWST_CMS_PURPOSE_*), no CRLs, no other flags (no
   CMS_NOVERIFY, no X509_V_FLAG_X509_STRICT); the embedded certificates are the only untrusted
   ones and the only place signers are looked up. Nothing is checked beyond what CMS_verify checks.
   Returns 1 when a verdict was written (also when verification failed), 0 on bad arguments or
   an allocation failure. */
int cjwst_cms_verify_reference(const void *cms, size_t cms_len, const cjwst_bytes *roots,
                               size_t root_count, int64_t at_time, int purpose,
                               cjwst_cms_verdict *out_verdict);

/* Facts about one CMS SignedData, read with OpenSSL's CMS API (cjwst_cms_inspect). */
typedef struct cjwst_cms_info {
    /* The outer ContentInfo uses an indefinite length (BER: first bytes 30 80). */
    int indefinite_length;
    /* contentType of the ContentInfo and eContentType, dotted text. */
    char content_type[96];
    char econtent_type[96];
    /* eContent is absent. */
    int detached;
    /* eContent's length (0 when detached). */
    size_t content_len;
    /* Certificates embedded; SignerInfos. */
    int certificate_count;
    int signer_count;
    /* Of the SignerInfo chosen by `signer_index` (all 0/empty when out of range): */
    char digest_algorithm[96];    /* digestAlgorithm OID, dotted */
    char signature_algorithm[96]; /* signatureAlgorithm OID, dotted */
    int signed_attribute_count;   /* 0: none */
    int sid_is_issuer_serial;     /* 1: issuerAndSerialNumber; 0: subjectKeyIdentifier */
    /* The embedded certificate the sid names (CMS_SignerInfo_cert_cmp), first match, or -1. */
    int sid_certificate_index;
} cjwst_cms_info;

/* Parses `cms` (trailing bytes ignored, as d2i does) and describes it and its SignerInfo number
   `signer_index` (0-based). Fails when it is not a CMS SignedData. */
int cjwst_cms_inspect(const void *cms, size_t cms_len, int signer_index, cjwst_cms_info *out_info);

/* A failing allocator for OpenSSL (allocator.c), for out-of-memory tests in a process of their own.
   It is installed when the process starts as a Swift Testing exit test (SWT_EXIT_TEST_ID set), or by
   cjwst_install_failing_allocator before OpenSSL's first allocation; that returns 1 when it is in
   place. cjwst_fail_allocations_after(n) restarts the count and fails every
   allocation after the first n (n < 0: none fails); cjwst_allocations_made() is the count since. */
int cjwst_install_failing_allocator(void);
void cjwst_fail_allocations_after(long count);
long cjwst_allocations_made(void);

#ifdef __cplusplus
}
#endif

#endif /* CJWSTESTING_H */
