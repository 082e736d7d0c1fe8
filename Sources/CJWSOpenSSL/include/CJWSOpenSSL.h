#ifndef CJWSOPENSSL_H
#define CJWSOPENSSL_H

/*
 * CJWSOpenSSL: the narrow, byte-oriented face of OpenSSL 3 that JWSVerify's verification path uses.
 *
 * Bytes come in as `const void *` + `size_t` (Swift passes any contiguous buffer without a cast).
 * Every function that calls into OpenSSL and can fail empties this thread's error queue first (the
 * free functions and the error readers excepted), so that what the queue holds after a failure, for
 * cjws_error_text(), is that failure's.
 * Objects returned here are owned by the caller and freed with the matching cjws_*_free function.
 *
 * One C file per section below: errors.c (errors, digests), keys.c (keys and ES256), ec_key.c (EC
 * verification keys and their tables; its modular inverse in inverse.c), x509.c, chain.c (trust store and chain), leaf.c, selftest.c,
 * receipt.c (app receipts), ocsp.c and ocsp_http.c (CJWSOpenSSL_ocsp.h).
 *
 * Process-wide state, each set once behind pthread_once or only counted: the fetched SHA-256
 * (errors.c), the self-test's result (selftest.c), the key-less parsing context (leaf.c), the
 * inversion fallback counter (inverse.c), and the thread-local key of the per-thread verification
 * contexts (keys.c). Everything else is owned by the objects handed out. */

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- errors and digests (errors.c) ----------------------------------------------------------- */

/* Drains OpenSSL's error queue of this thread into `buffer` (NUL-terminated, "; "-separated,
 * truncated to `capacity`). Returns the number of bytes written, excluding the NUL. */
size_t cjws_error_text(char *buffer, size_t capacity);

/* Empties OpenSSL's error queue of this thread. */
void cjws_clear_errors(void);

/* SHA-256 of `length` bytes into `digest` (32 bytes). Returns 1 on success. */
int cjws_sha256(const void *data, size_t length, unsigned char *digest);

/* SHA-384 of `length` bytes into `digest` (48 bytes). Returns 1 on success. */
int cjws_sha384(const void *data, size_t length, unsigned char *digest);

/* SHA-1 of `length` bytes into `digest` (20 bytes): an app receipt's device hash. Returns 1 on success. */
int cjws_sha1(const void *data, size_t length, unsigned char *digest);

/* ---- keys and ES256 (keys.c) ----------------------------------------------------------------- */

/* Parses a DER SubjectPublicKeyInfo. Returns NULL on failure or trailing bytes. Free with cjws_pkey_free. */
EVP_PKEY *cjws_pkey_from_spki(const void *der, size_t length);

/* Builds a P-256 public key from an uncompressed SEC1 point (0x04 || X || Y, 65 bytes). */
EVP_PKEY *cjws_pkey_p256_from_point(const void *point, size_t length);

void cjws_pkey_free(EVP_PKEY *key);

/* 1 when `key` is an EC P-256 public key whose point is a point of the group other than the point at
 * infinity: coordinates in range and on the curve (EVP_PKEY_public_check_quick; with cofactor 1 that
 * is the whole public-key validation of SEC 1 §3.2.2). 0 otherwise. A token's leaf key must pass it
 * (check 9): with the point at infinity as key, an ES256 "signature" verifies without a private key. */
int cjws_pkey_is_valid_p256(EVP_PKEY *key);

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

/* ---- X.509 (x509.c) -------------------------------------------------------------------------- */

/* Parses exactly one DER certificate: NULL on failure or when bytes follow it. */
X509 *cjws_x509_from_der(const void *der, size_t length);

/* Parses the first PEM certificate in `pem`. NULL on failure. */
X509 *cjws_x509_from_pem(const void *pem, size_t length);

void cjws_x509_free(X509 *certificate);

/* Takes a new reference to `certificate` (freed with cjws_x509_free) and returns it; NULL for NULL. */
X509 *cjws_x509_up_ref(X509 *certificate);

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

/* SHA-256 of the certificate's DER as OpenSSL encodes it (X509_digest: what cjws_verify_chain reports
 * as root_sha256), into `digest` (32 bytes). A certificate parsed from BER has other bytes than these.
 * Returns 1 on success. */
int cjws_x509_sha256(X509 *certificate, unsigned char *digest);

/* 1 when the subject (or, with `*_issuer` non-zero, issuer) name of `first` equals that of `second`
 * as X509_NAME_cmp compares them (the comparison OpenSSL's chain building makes). */
int cjws_x509_names_equal(X509 *first, int first_issuer, X509 *second, int second_issuer);

/* NIDs for name entries. */
int cjws_nid_common_name(void);
int cjws_nid_organization(void);

/* The serial number as upper-case hex into `buffer`. Returns the length written or -1. */
int cjws_x509_serial_hex(X509 *certificate, char *buffer, size_t capacity);

/* The signature algorithm's short name (e.g. "ecdsa-with-SHA384") into `buffer`. */
int cjws_x509_signature_algorithm(X509 *certificate, char *buffer, size_t capacity);


/* ---- trust store and chain (chain.c) --------------------------------------------------------- */

/* A new, empty trust store. Free with cjws_store_free. */
X509_STORE *cjws_store_new(void);
void cjws_store_free(X509_STORE *store);

/* Adds a trusted root. Returns 1 on success. The store takes its own reference. Fails for a root whose
 * extensions OpenSSL finds invalid, or whose key or fingerprint it cannot derive: it computes them now
 * and keeps them (OpenSSL keeps a failed computation too, so a root first used during an allocation
 * failure would otherwise fail every chain from then on). */
int cjws_store_add_root(X509_STORE *store, X509 *root);

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

/* ---- leaves under a known intermediate (leaf.c) ----------------------------------------------
 *
 * A fast path that may only answer "certainly what X509_verify_cert on the full chain would answer"
 * (see leaf.c for the allow-lists it answers from). Anything else goes to cjws_verify_chain. */

/* Parses exactly one DER certificate without decoding its subject key (OpenSSL 3.0 decodes it through
 * the provider decoders, 140-350 µs), then builds that key when it is an EC P-256 key (id-ecPublicKey,
 * namedCurve prime256v1, uncompressed point on the curve) and stores it in *key (the caller owns the
 * reference). NULL, with *key NULL, when the bytes are not one certificate, the key is anything else,
 * or the self-test found that this parse does not behave as expected: callers then parse with
 * cjws_x509_from_der. The certificate can go to cjws_leaf_accepted_under and to the certificate
 * accessors, not to cjws_verify_chain (it has no decoded key). */
X509 *cjws_x509_from_der_p256_leaf(const void *der, size_t length, EVP_PKEY **key);

/* 1 when every extension of the CA certificate `ca` is one that cannot constrain a certificate below
 * it in cjws_verify_chain's configuration: basicConstraints, keyUsage, subject and authority key
 * identifiers, authority information access, CRL distribution points, certificate policies,
 * subjectAltName, extended key usage, and Apple's intermediate marker 1.2.840.113635.100.6.2.1 (not
 * critical); none invalid. 0 otherwise
 * (nameConstraints, policy constraints or mappings, inhibitAnyPolicy, RFC 3779 resources, proxy,
 * unknown or unhandled critical extensions). Only under an intermediate and a root that both answer 1
 * may a leaf be checked with cjws_leaf_accepted_under. */
int cjws_ca_cannot_constrain_leaves(X509 *ca);

/* 1 when X509_verify_cert on [leaf, issuer, root] (cjws_verify_chain's configuration) would certainly
 * accept `leaf` at `at_time`. The caller guarantees the rest of that chain: `issuer` verified up to the
 * configured root `root` through cjws_verify_chain, the store offers no other candidate issuer for
 * either, `issuer` and `root` are valid at `at_time` and both pass cjws_ca_cannot_constrain_leaves.
 * Otherwise the caller runs cjws_verify_chain, which decides and names the error: 0 when the leaf
 * was set aside before its signature, -1 when it got as far as its signature (which did not verify
 * or could not be checked). `leaf_der` must be the bytes the leaf was parsed from (its signature is
 * checked over them); `issuer_key` is the issuer's key (so that a hot intermediate verifies with its
 * table). Always 0 when the self-test failed. `reason`, when not NULL, receives why the leaf was set
 * aside (CJWS_LEAF_*, the first rule it did not meet, in the order checked) or CJWS_LEAF_ACCEPTED. */
int cjws_leaf_accepted_under(X509 *leaf, const void *leaf_der, size_t leaf_der_length, X509 *issuer,
                             cjws_ec_key *issuer_key, int64_t at_time, int *reason);

/* The rules of cjws_leaf_accepted_under, in the order it checks them. */
#define CJWS_LEAF_ACCEPTED 0
/* OpenSSL's extension flags: invalid or duplicate extension, unhandled critical extension, proxy,
 * self-issued, CA, version 1, unusable policies, no fingerprint. */
#define CJWS_LEAF_FLAGS 1
/* Not X.509 v3, or basicConstraints with a path length. */
#define CJWS_LEAF_PROFILE 2
/* An extension of a kind Apple's leaves do not carry. */
#define CJWS_LEAF_EXTENSIONS 3
/* X509_check_issued: names, authority key identifier, the issuer's keyUsage, the signature's key type,
 * either certificate's extensions invalid. */
#define CJWS_LEAF_NOT_ISSUED 4
/* Not valid at the time (X509_cmp_time), or a malformed time. */
#define CJWS_LEAF_TIME 5
/* The signature does not verify with the issuer's key, or its algorithm is not ECDSA with SHA-2
 * without parameters, or the DER is not definite-length (the only rule checked after the signature
 * could be). */
#define CJWS_LEAF_SIGNATURE 6
/* The self-test failed or an argument is missing. */
#define CJWS_LEAF_UNAVAILABLE 7

/* ---- app receipts: CMS / PKCS#7 SignedData (receipt.c) --------------------------------------
 *
 * A StoreKit 1 app receipt parsed by OpenSSL's CMS code (DER, or BER with indefinite lengths as Xcode
 * writes it). Nothing embedded is trusted: the chain is built from the signer the SignerInfo names
 * to the store's roots with every embedded certificate offered as untrusted, as CMS_verify does. */
typedef struct cjws_receipt cjws_receipt;

/* Why cjws_receipt_parse refused the bytes. */
#define CJWS_RECEIPT_PARSED 0
/* Not a CMS ContentInfo. */
#define CJWS_RECEIPT_NOT_CMS 1
/* Bytes after the ContentInfo. */
#define CJWS_RECEIPT_TRAILING_BYTES 2
/* A ContentInfo of another type than SignedData. */
#define CJWS_RECEIPT_NOT_SIGNED_DATA 3
/* The signed content's type is not id-data. */
#define CJWS_RECEIPT_NOT_DATA 4
/* The content is absent (a detached signature). */
#define CJWS_RECEIPT_DETACHED 5
/* Not exactly one SignerInfo. */
#define CJWS_RECEIPT_SIGNER_COUNT 6
/* An allocation failed. */
#define CJWS_RECEIPT_INTERNAL 7

/* Parses `bytes` (all of them) as a CMS SignedData over id-data content with exactly one signer. NULL
 * with `*reason` set otherwise. Free with cjws_receipt_free. */
cjws_receipt *cjws_receipt_parse(const void *bytes, size_t length, int *reason);
void cjws_receipt_free(cjws_receipt *receipt);

/* The signed content's bytes (owned by the receipt). */
int cjws_receipt_content(const cjws_receipt *receipt, const unsigned char **content, size_t *length);

/* The embedded certificates, in order; cjws_receipt_certificate returns a pointer owned by the receipt. */
int cjws_receipt_certificate_count(const cjws_receipt *receipt);
X509 *cjws_receipt_certificate(const cjws_receipt *receipt, int index);

/* The index of the first embedded certificate the SignerInfo names (issuer and serial, or subject key
 * identifier), as CMS_verify picks it; -1 when none. */
int cjws_receipt_signer_index(const cjws_receipt *receipt);

/* The SignerInfo's digest and signature algorithms as NIDs (NID_undef when OpenSSL knows none). */
int cjws_receipt_algorithms(const cjws_receipt *receipt, int *digest_nid, int *signature_nid);

/* 1 when the SignerInfo has signed attributes (App Store receipts have none). */
int cjws_receipt_has_signed_attributes(const cjws_receipt *receipt);

/* The SignerInfo's signature bytes (owned by the receipt). */
int cjws_receipt_signature(const cjws_receipt *receipt, const unsigned char **signature, size_t *length);

/* OpenSSL's CMS_verify of the signature and the content digest, signer certificate chain not checked
 * (CMS_NO_SIGNER_CERT_VERIFY): 1 valid, 0 not. The signer is the certificate cjws_receipt_signer_index
 * names. */
int cjws_receipt_verify_signature(cjws_receipt *receipt);

/* What CMS_verify computes for a SignerInfo without signed attributes: the digest (NID_sha1 or
 * NID_sha256) of `content`, verified with PKCS #1 v1.5 under the RSA `key`. 1 valid, 0 invalid, -1
 * another key type, another digest, or an internal error. The warm path of an app receipt whose signer
 * is known. */
int cjws_rsa_verify_content(EVP_PKEY *key, int digest_nid, const void *content, size_t content_length,
                            const void *signature, size_t signature_length);

/* The size in bits of an RSA key (EVP_PKEY_RSA: not RSA-PSS), or 0 for any other key. */
int cjws_pkey_rsa_bits(const EVP_PKEY *key);

/* OpenSSL's long name of `nid` ("sha512", "ecdsa-with-SHA256"...) into `buffer`; -1 when it has none. */
int cjws_nid_name(int nid, char *buffer, size_t capacity);

/* NIDs the receipt checks compare with. */
int cjws_nid_sha1(void);
int cjws_nid_sha256(void);
int cjws_nid_rsa_encryption(void);
int cjws_nid_sha1_with_rsa(void);
int cjws_nid_sha256_with_rsa(void);

/* cjws_verify_chain for a receipt: from the embedded certificate at `signer_index` to a root of the
 * store, every embedded certificate offered as untrusted, at `at_time`. `*issuer_index` receives the
 * index among the embedded certificates of the built chain's second certificate, or -1 (none, or a
 * root of the store). Returns 1 when OpenSSL ran, 0 on an internal error. */
int cjws_verify_receipt_chain(X509_STORE *store, const cjws_receipt *receipt, int signer_index, int64_t at_time,
                              cjws_chain_result *result, int *issuer_index);

/* ---- self-test of the behaviours the fast paths rely on (selftest.c) --------------------------
 *
 * Run once per process, on first use (process-wide state: the result, behind pthread_once). Each bit
 * says one behaviour holds; a fast path whose bit is clear switches itself off. */

/* X509_cmp_time treats a certificate as valid at t when notBefore <= t < notAfter (to the second), and
 * cjws_asn1_time_to_seconds reads UTCTime and GeneralizedTime as X509_cmp_time compares them: the
 * rule every cache applies to its validity interval. */
#define CJWS_SELF_TEST_TIME_RULE 0x1
/* cjws_x509_from_der_p256_leaf parses a known leaf with the same extension flags, names and key as
 * d2i_X509, and cjws_leaf_accepted_under accepts it and refuses it altered. */
#define CJWS_SELF_TEST_NEW_LEAF 0x2

/* The bits of the behaviours that hold. */
int cjws_self_test(void);

/* The self-test's two checks on given inputs (cjws_self_test runs them on its own; tests run them on
 * inputs that must fail, to see that a behaviour that does not hold is noticed). 1 when it holds. */
int cjws_self_test_time_rule(const int64_t *seconds, size_t count);
int cjws_self_test_new_leaf(const void *leaf_der, size_t leaf_length, const void *issuer_der, size_t issuer_length);

/* OpenSSL's text for an X509_V_ERR_* code. */
const char *cjws_verify_error_string(int code);

#ifdef __cplusplus
}
#endif

/* OCSP revocation checks (online verification). */
#include "CJWSOpenSSL_ocsp.h"

#endif /* CJWSOPENSSL_H */
