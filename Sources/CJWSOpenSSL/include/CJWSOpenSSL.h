#ifndef CJWSOPENSSL_H
#define CJWSOPENSSL_H

/*
 * CJWSOpenSSL: the narrow, byte-oriented face of OpenSSL 3 that JWSVerify's verification path uses, and the
 * only C of that path.
 *
 * Plain OpenSSL calls and fast paths. This header, CJWSOpenSSL_ocsp.h and the files beside it (errors.c,
 * keys.c, x509.c, chain.c, receipt.c, ocsp.c, ocsp_http.c) are plain OpenSSL calls: each function does what
 * its comment says with OpenSSL's own API, and the verifier's full path is made of them. The fast paths,
 * which answer "certainly what the full path answers" faster or send the caller to the full path, are in
 * CJWSOpenSSL_fastpath.h and the files of fastpath/ (ec_key.c, inverse.c, leaf.c, selftest.c); that
 * header names, for each, the full-path step it mirrors.
 *
 * Conventions, the same in both C modules (CJWSOpenSSL and CJWSTesting, whose header repeats them):
 *   Names     Every exported name carries the module's prefix: cjws_ / CJWS_ here, cjwst_ / CJWST_ in
 *             CJWSTesting. What a module's files share without exporting it is declared in its internal.h
 *             as cjws_internal_* (cjwst_internal_*).
 *   Bytes     In: `const void *` + `size_t` (Swift passes any contiguous buffer without a cast); text:
 *             NUL-terminated UTF-8. Out: a pointer and a length through out-parameters, allocated with
 *             OpenSSL's allocator and freed with cjws_free, whichever module made them.
 *   Objects   OpenSSL's objects cross as themselves (EVP_PKEY *, X509 *, X509_STORE *); a module's own are
 *             opaque structs (cjws_receipt, cjws_ec_key, cjws_ocsp_request). A function that makes an object
 *             returns it, NULL on failure, and the caller owns that reference: it frees it with the free
 *             function of the type (cjws_pkey_free, cjws_x509_free, cjws_store_free, cjws_<type>_free),
 *             whichever module made it. Arguments are borrowed: a function keeps nothing it is given unless
 *             its comment says it takes its own reference, and a pointer into an object (get0) says which
 *             object owns it.
 *   Status    `int`: 1 done / yes; 0 not done / no; -1 could not decide (an internal error), only where 0 is
 *             a verdict on the input (verify, check and predicate functions). Where a failure has kinds the
 *             caller tells apart, the kind goes to an out-parameter (`reason`: CJWS_RECEIPT_*,
 *             CJWS_LEAF_*, CJWS_DIGEST_SET_*, cjws_ocsp_status). A scalar that cannot fail is the return
 *             value (a NID, a size: 0 for none); a function that writes text into the caller's buffer returns
 *             its length without the NUL, -1 when there is none. Out-parameters come last.
 *   Errors    A function that calls into OpenSSL and can fail empties this thread's error queue first (the
 *             free functions, get0 accessors and the error readers excepted) and leaves OpenSSL's reasons in
 *             it on failure. cjws_error_text is the one drain of both modules: it empties the queue into one
 *             line.
 *   Hygiene   OPENSSL_NO_DEPRECATED in every file but fastpath/ec_key.c (see internal.h); what a function
 *             acquires it releases at its one cleanup label (`done:`), where ownership does not move out.
 *
 * One C file per section below: errors.c (errors, digests), keys.c (keys and ES256), x509.c, chain.c (trust
 * store and chain), receipt.c (app receipts), ocsp.c and ocsp_http.c (CJWSOpenSSL_ocsp.h).
 *
 * Process-wide state, each set once behind pthread_once or only counted: the fetched SHA-256 and SHA-1
 * (errors.c), the thread-local key of the per-thread verification contexts (keys.c), and, in fastpath/, the
 * self-test's result (selftest.c), the key-less parsing context (leaf.c) and the inversion fallback counter
 * (inverse.c). Everything else is owned by the objects handed out. */

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

/* ---- X.509 (x509.c) -------------------------------------------------------------------------- */

/* Parses exactly one DER certificate: NULL on failure or when bytes follow it. */
X509 *cjws_x509_from_der(const void *der, size_t length);

/* Parses the first PEM certificate in `pem`. NULL on failure. */
X509 *cjws_x509_from_pem(const void *pem, size_t length);

void cjws_x509_free(X509 *certificate);

/* Takes a new reference to `certificate` (freed with cjws_x509_free) and returns it; NULL for NULL. */
X509 *cjws_x509_up_ref(X509 *certificate);

/* The certificate's DER in `*out_der` (allocated by OpenSSL: free with cjws_free) and `*out_len`.
 * 1 done, 0 not (then `*out_der` is NULL). */
int cjws_x509_to_der(X509 *certificate, unsigned char **out_der, size_t *out_len);

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

/* OpenSSL's text for an X509_V_ERR_* code. */
const char *cjws_verify_error_string(int code);

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

/* What cjws_receipt_digest_set found in the SignedData's digestAlgorithms set. */
#define CJWS_DIGEST_SET_USABLE 0
/* An entry is a digest OpenSSL does not know (CMS_verify: "unknown digest algorithm"). */
#define CJWS_DIGEST_SET_UNKNOWN 1
/* The set is empty (CMS_verify refuses it without queueing a reason). */
#define CJWS_DIGEST_SET_EMPTY 2
/* No entry is the SignerInfo's digest (CMS_verify: "no matching digest"). */
#define CJWS_DIGEST_SET_NO_MATCH 3

/* Whether the SignedData's digestAlgorithms set gives CMS_verify the SignerInfo's digest, decided by the
 * steps CMS_verify takes before it verifies the content (CMS_dataInit's digest BIOs, then the SignerInfo's
 * digest looked up among them): 1 yes; 0 no, with `*problem` (CJWS_DIGEST_SET_*) and, except for an
 * empty set, OpenSSL's reason in the error queue; -1 could not run (the queue says why). CMS_verify
 * refuses exactly the receipts this answers 0 for, whatever their signature. */
int cjws_receipt_digest_set(const cjws_receipt *receipt, int *problem);

/* 1 when the SignerInfo has signed attributes (App Store receipts have none). */
int cjws_receipt_has_signed_attributes(const cjws_receipt *receipt);

/* The SignerInfo's signature bytes (owned by the receipt). */
int cjws_receipt_signature(const cjws_receipt *receipt, const unsigned char **signature, size_t *length);

/* OpenSSL's CMS_verify of the signature and the content digest, signer certificate chain not checked
 * (CMS_NO_SIGNER_CERT_VERIFY): 1 valid, 0 not (the error queue then holds OpenSSL's reason). The signer is the certificate cjws_receipt_signer_index
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

#ifdef __cplusplus
}
#endif

/* OCSP revocation checks (online verification): plain OpenSSL calls. */
#include "CJWSOpenSSL_ocsp.h"

/* The fast paths, apart from the plain calls above. */
#include "CJWSOpenSSL_fastpath.h"

#endif /* CJWSOPENSSL_H */
