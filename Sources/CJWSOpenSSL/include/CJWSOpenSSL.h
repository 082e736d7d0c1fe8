#ifndef CJWSOPENSSL_H
#define CJWSOPENSSL_H

/*
 * CJWSOpenSSL: the narrow, byte-oriented face of OpenSSL 3 that JWSVerify's verification path uses.
 *
 * Bytes come in as `const void *` + `size_t` (Swift passes any contiguous buffer without a cast).
 * Every function clears OpenSSL's error queue before it starts; on failure the caller may read
 * the queue with cjws_error_text(). Objects returned here are owned by the caller and freed with
 * the matching cjws_*_free function. Nothing here keeps global mutable state.
 */

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- errors ---------------------------------------------------------------------------------- */

/* Drains OpenSSL's error queue of this thread into `buffer` (NUL-terminated, "; "-separated,
 * truncated to `capacity`). Returns the number of bytes written, excluding the NUL. */
size_t cjws_error_text(char *buffer, size_t capacity);

/* Empties OpenSSL's error queue of this thread. */
void cjws_clear_errors(void);

/* ---- keys and ES256 -------------------------------------------------------------------------- */

/* Parses a DER SubjectPublicKeyInfo. Returns NULL on failure or trailing bytes. Free with cjws_pkey_free. */
EVP_PKEY *cjws_pkey_from_spki(const void *der, size_t length);

/* Builds a P-256 public key from an uncompressed SEC1 point (0x04 || X || Y, 65 bytes). */
EVP_PKEY *cjws_pkey_p256_from_point(const void *point, size_t length);

void cjws_pkey_free(EVP_PKEY *key);

/* The key's curve, as a NID (NID_X9_62_prime256v1, NID_secp384r1...), or 0 when it is not an EC key. */
int cjws_pkey_ec_curve_nid(const EVP_PKEY *key);

/* The NID of P-256, for comparison with cjws_pkey_ec_curve_nid. */
int cjws_nid_p256(void);
/* The NID of P-384. */
int cjws_nid_p384(void);

/* Verifies an ES256 JWS signature (RFC 7518 §3.4): SHA-256 of `message`, ECDSA over P-256,
 * `signature` the raw 64-byte R || S (IEEE P1363), converted here to DER for OpenSSL.
 * Returns 1 when the signature is valid, 0 when it is not (wrong length, R or S out of range,
 * mismatch), -1 on an internal error (then the error queue says why). */
int cjws_es256_verify(EVP_PKEY *key, const void *message, size_t message_length,
                      const void *signature, size_t signature_length);

/* ---- EC verification keys: OpenSSL's verification, then a per-key fixed-base table (ec_key.c) ---
 *
 * A verification key that counts the valid signatures it verifies. Until `threshold` of them it
 * verifies exactly as OpenSSL does (cjws_es256_verify; EVP_PKEY_verify for digests); then, for a
 * P-256 or P-384 key and an OpenSSL 3 built with its 3.0 API, one thread builds a precomputed table
 * for the key's point (P-256: about 100 ms and 150 KB; P-384: a few ms), once, and every later
 * verification computes u1·G + u2·Q with two fixed-base multiplications (P-256: 1.7 to 1.9 times as
 * fast; P-384: 2 to 3 times). Safe to use from many threads at once. */
typedef struct cjws_ec_key cjws_ec_key;

/* Takes its own reference to `pkey`. NULL on allocation failure. */
cjws_ec_key *cjws_ec_key_new(EVP_PKEY *pkey, uint64_t threshold);

void cjws_ec_key_free(cjws_ec_key *key);

/* ES256: same contract as cjws_es256_verify. */
int cjws_ec_key_verify_es256(cjws_ec_key *key, const void *message, size_t message_length,
                             const void *signature, size_t signature_length);

/* ECDSA over a digest with a DER ECDSA-Sig-Value (a certificate's signature): 1 valid, 0 invalid
 * (including a signature that is not strict DER or has bytes after it), -1 internal error. The
 * digest's leftmost bits are used, as many as the curve order has, as OpenSSL does. */
int cjws_ec_key_verify_digest(cjws_ec_key *key, const unsigned char *digest, size_t digest_length,
                              const unsigned char *signature, size_t signature_length);

/* Builds the table now (tests, and keys known to be hot). 1 when the key has its table. */
int cjws_ec_key_prepare(cjws_ec_key *key);

/* 1 when the key verifies with its table. */
int cjws_ec_key_has_table(cjws_ec_key *key);

/* How many table verifications so far had to take BN_mod_inverse because the file's own inversion
 * failed its check (tests: expected 0). */
uint64_t cjws_ec_inverse_fallbacks(void);

/* ---- X.509 ----------------------------------------------------------------------------------- */

/* Parses exactly one DER certificate: NULL on failure or when bytes follow it. */
X509 *cjws_x509_from_der(const void *der, size_t length);

/* Parses the first PEM certificate in `pem`. NULL on failure. */
X509 *cjws_x509_from_pem(const void *pem, size_t length);

void cjws_x509_free(X509 *certificate);

/* Writes the certificate's DER into a buffer allocated by OpenSSL (free with cjws_free). Returns the
 * length, or -1. */
int cjws_x509_to_der(X509 *certificate, unsigned char **out);

void cjws_free(void *pointer);

/* The certificate's public key (a new reference: free with cjws_pkey_free), or NULL. */
EVP_PKEY *cjws_x509_public_key(X509 *certificate);

/* 1 when the certificate carries an extension with this dotted OID, 0 when not, -1 on error. */
int cjws_x509_has_extension(X509 *certificate, const char *dotted_oid);

/* An ASN1_TIME (UTCTime or GeneralizedTime) as seconds since 1970, independent of the process time
 * zone. Returns 1 on success. */
int cjws_asn1_time_to_seconds(const ASN1_TIME *time, int64_t *seconds);

/* notBefore / notAfter as seconds since 1970. Returns 1 on success. */
int cjws_x509_validity(X509 *certificate, int64_t *not_before, int64_t *not_after);

/* Writes the value of the first entry of `nid` in the subject (or issuer) as UTF-8 into `buffer`,
 * NUL-terminated. Returns the length written or -1 when there is none. */
int cjws_x509_name_entry(X509 *certificate, int issuer, int nid, char *buffer, size_t capacity);

/* NIDs for name entries. */
int cjws_nid_common_name(void);
int cjws_nid_organization(void);

/* The serial number as upper-case hex into `buffer`. Returns the length written or -1. */
int cjws_x509_serial_hex(X509 *certificate, char *buffer, size_t capacity);

/* The signature algorithm's short name (e.g. "ecdsa-with-SHA384") into `buffer`. */
int cjws_x509_signature_algorithm(X509 *certificate, char *buffer, size_t capacity);

/* SHA-256 of `length` bytes into `digest` (32 bytes). Returns 1 on success. */
int cjws_sha256(const void *data, size_t length, unsigned char *digest);

/* SHA-384 of `length` bytes into `digest` (48 bytes). Returns 1 on success. */
int cjws_sha384(const void *data, size_t length, unsigned char *digest);

/* ---- trust store and chain ------------------------------------------------------------------- */

/* A new, empty trust store. Free with cjws_store_free. */
X509_STORE *cjws_store_new(void);
void cjws_store_free(X509_STORE *store);

/* Adds a trusted root. Returns 1 on success. The store takes its own reference. */
int cjws_store_add_root(X509_STORE *store, X509 *root);

/* Lets chains end at any certificate of the store (X509_V_FLAG_PARTIAL_CHAIN). Used only for a store
 * that holds one intermediate which already verified up to a configured root. Returns 1 on success. */
int cjws_store_allow_partial_chain(X509_STORE *store);

/* Outcome of cjws_verify_chain. */
typedef struct cjws_chain_result {
    /* First X509_V_ERR_* code that is not about time, or 0. */
    int trust_error;
    /* Depth at which trust_error occurred. */
    int trust_error_depth;
    /* First X509_V_ERR_* code about validity dates (expired, not yet valid, bad time field), or 0. */
    int time_error;
    int time_error_depth;
    /* Length of the chain OpenSSL built (leaf ... root), and index of the trusted root in the store
     * order, or -1. */
    int chain_length;
    /* 1 when the built chain's second certificate is the given intermediate (same object or
     * byte-equal); for a partial chain, when the chain ends at it. */
    int intermediate_in_chain;
    /* SHA-256 of the root that ended the chain (valid when chain_length > 0). */
    unsigned char root_sha256[32];
    /* Intersection of the validity periods of every certificate in the built chain, in seconds. */
    int64_t chain_not_before;
    int64_t chain_not_after;
} cjws_chain_result;

/* Builds and verifies leaf <- intermediate <- (a root in store) at `at_time` (seconds since 1970).
 * Only `intermediate` is offered as untrusted; nothing is trusted but the store's roots. Every error
 * OpenSSL finds is examined (the verify callback keeps going), so the result separates trust
 * failures from time failures. X509_V_FLAG_X509_STRICT is not set. Returns 1 when OpenSSL ran
 * (whatever its verdict), 0 on an internal error. */
int cjws_verify_chain(X509_STORE *store, X509 *leaf, X509 *intermediate, int64_t at_time,
                      cjws_chain_result *result);

/* ---- leaves under a known intermediate (leaf.c) ---------------------------------------------- */

/* Parses exactly one DER certificate without decoding its subject key (OpenSSL 3.0 decodes it through
 * the provider decoders, 140-350 µs), then builds that key when it is an EC P-256 key (id-ecPublicKey,
 * namedCurve prime256v1, uncompressed point) and stores it in *key (the caller owns the reference).
 * NULL, with *key NULL, when the bytes are not one certificate or the key is anything else: callers
 * then parse with cjws_x509_from_der. The certificate can go to cjws_leaf_accepted_under and to the
 * certificate accessors, not to cjws_verify_chain (it has no decoded key). */
X509 *cjws_x509_from_der_p256_leaf(const void *der, size_t length, EVP_PKEY **key);

/* 1 when `leaf` certainly passes X509_verify_cert as [leaf, issuer] with `issuer` as the trust anchor
 * (partial chain, cjws_verify_chain's configuration) at `at_time`. Otherwise the caller runs
 * cjws_verify_chain, which decides and names the error: 0 when the leaf was set aside before its
 * signature, -1 when it got as far as its signature (which did not verify or could not be checked). `leaf_der` must be the bytes the
 * leaf was parsed from (its signature is checked over them). `issuer` must already have verified up
 * to a configured root and be valid at `at_time`; `issuer_key` is its key (so that a hot intermediate
 * verifies with its table). See leaf.c for each check. */
int cjws_leaf_accepted_under(X509 *leaf, const void *leaf_der, size_t leaf_der_length, X509 *issuer,
                             cjws_ec_key *issuer_key, int64_t at_time);

/* OpenSSL's text for an X509_V_ERR_* code. */
const char *cjws_verify_error_string(int code);

#ifdef __cplusplus
}
#endif

/* OCSP revocation checks (online verification). */
#include "CJWSOpenSSL_ocsp.h"

#endif /* CJWSOPENSSL_H */
