#ifndef CJWSOPENSSL_FASTPATH_H
#define CJWSOPENSSL_FASTPATH_H

/*
 * CJWSOpenSSL, fast paths (the files of fastpath/): functions that answer what a plain OpenSSL call of
 * CJWSOpenSSL.h would answer, faster, and only where that answer is certain; anything else goes to the
 * plain call. Each is a memo or a shortcut of one full-path step, never a second opinion:
 *
 *   fast path                               mirrors (full-path step)                         file
 *   cjws_ec_key_verify_es256                cjws_es256_verify (EVP_PKEY_verify, ECDSA P-256)   ec_key.c
 *   cjws_ec_key_verify_digest               EVP_PKEY_verify of a certificate's ECDSA signature  ec_key.c
 *     (fixed-base tables for u1·G + u2·Q, SEC 1 §4.1.4; until `threshold` valid signatures, and
 *     without tables, they are the plain call)
 *   the inversion w = s^-1 mod n            BN_mod_inverse, confirmed with BN_mod_mul, else      inverse.c
 *                                           BN_mod_inverse itself (cjws_ec_inverse_fallbacks)
 *   cjws_x509_from_der_p256_leaf            cjws_x509_from_der (d2i_X509) and the leaf's key      leaf.c
 *                                           (X509_get0_pubkey), for P-256 leaves only
 *   cjws_ca_cannot_constrain_leaves,        X509_verify_cert on [leaf, intermediate, root]        leaf.c
 *   cjws_leaf_accepted_under                (cjws_verify_chain) for a new leaf under an
 *                                           intermediate that chain verified (allow-lists)
 *   cjws_self_test                          the gate: a fast path whose behaviour the self-test   selftest.c
 *                                           did not confirm switches itself off
 *
 * The conventions of CJWSOpenSSL.h hold. Process-wide state: the self-test's result (selftest.c), the
 * key-less parsing context (leaf.c), the inversion fallback counter (inverse.c).
 */

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>
#include <openssl/x509.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- EC verification keys: OpenSSL's verification, then a per-key fixed-base table (ec_key.c, inverse.c)
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

#ifdef __cplusplus
}
#endif

#endif /* CJWSOPENSSL_FASTPATH_H */
