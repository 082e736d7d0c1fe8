/*
 * CJWSTesting: the only C code that *signs* anything in JWSVerify.
 *
 * It mints test keys, test certificates and ES256 signatures so that JWSVerifyTesting can
 * produce tokens shaped like the App Store's. It is deliberately kept apart from the
 * verification C module (CJWSOpenSSL); nothing on the verification path links it.
 *
 * Conventions
 *   - Every function returns 1 on success and 0 on failure.
 *   - Input bytes are passed as `const void *` + `size_t`; strings as NUL-terminated UTF-8.
 *   - Output buffers are allocated by OpenSSL and must be released with cjwst_free().
 *     On failure no output buffer is returned (the out pointer is set to NULL).
 *   - Keys are opaque `cjwst_key` handles released with cjwst_key_free().
 *   - Each function clears the OpenSSL error queue on entry and drains it before returning;
 *     on failure the first queued error is kept, per thread, for cjwst_last_error().
 *   - No OpenSSL type appears in this header.
 */
#ifndef CJWSTESTING_H
#define CJWSTESTING_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Elliptic curves. */
#define CJWST_CURVE_P256 256
#define CJWST_CURVE_P384 384

/* Message digests. */
#define CJWST_DIGEST_SHA256 256
#define CJWST_DIGEST_SHA384 384

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

/* An EC private key (P-256 or P-384). Opaque; release with cjwst_key_free(). */
typedef struct cjwst_key cjwst_key;

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

/* Releases a buffer returned by any cjwst_ function. NULL is allowed. */
void cjwst_free(void *buffer);

/* Copies the last failure's message (of this thread) into `buffer` (NUL-terminated, truncated
   to `capacity`). Returns the message length, 0 when there is none. */
size_t cjwst_last_error(char *buffer, size_t capacity);

/* Releases a key. NULL is allowed. */
void cjwst_key_free(cjwst_key *key);

/* Generates an EC key on `curve` (CJWST_CURVE_*). Without a seed (NULL, 0) the key is random.
   With a seed of 32 (P-256) or 48 (P-384) bytes the private scalar is the big-endian seed
   reduced modulo the group order; a seed reducing to 0 is rejected. */
int cjwst_key_generate(int curve, const void *seed, size_t seed_len, cjwst_key **out_key);

/* Reads a private EC key (P-256 or P-384) from PEM: PKCS#8 or SEC1, unencrypted. */
int cjwst_key_from_private_pem(const void *pem, size_t pem_len, cjwst_key **out_key);

/* The curve of the key (CJWST_CURVE_*). */
int cjwst_key_curve(const cjwst_key *key, int *out_curve);

/* The private key as PEM (CJWST_PEM_PKCS8 or CJWST_PEM_SEC1). The buffer is NUL-terminated;
   `out_len` excludes the NUL. */
int cjwst_key_private_pem(const cjwst_key *key, int encoding, char **out_pem, size_t *out_len);

/* The public key as DER SubjectPublicKeyInfo. */
int cjwst_key_public_spki_der(const cjwst_key *key, unsigned char **out_der, size_t *out_len);

/* Creates and signs an X.509 v3 certificate for `subject_key`, signed by `issuer_key`
   (self-signed when `issuer_key` is NULL or equal to `subject_key`). Output: DER. */
int cjwst_cert_create(const cjwst_cert_params *params, const cjwst_key *subject_key,
                      const cjwst_key *issuer_key, unsigned char **out_der, size_t *out_len);

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

/* ES256: SHA-256 + ECDSA with a P-256 key; output is the raw 64-byte R||S (IEEE P1363),
   R and S each left-padded to 32 bytes. Fails for any other curve. */
int cjwst_sign_es256(const cjwst_key *key, const void *message, size_t message_len,
                     unsigned char **out_signature, size_t *out_len);

/* Signs `message` with any supported key and digest (CJWST_DIGEST_*). Output is raw R||S
   with each half left-padded to the curve's size: 64 bytes for P-256, 96 bytes for P-384. */
int cjwst_sign_raw(const cjwst_key *key, int digest, const void *message, size_t message_len,
                   unsigned char **out_signature, size_t *out_len);

/* Same as cjwst_sign_raw but returns the DER ECDSA-Sig-Value (for negative tests). */
int cjwst_sign_der(const cjwst_key *key, int digest, const void *message, size_t message_len,
                   unsigned char **out_signature, size_t *out_len);

#ifdef __cplusplus
}
#endif

#endif /* CJWSTESTING_H */
