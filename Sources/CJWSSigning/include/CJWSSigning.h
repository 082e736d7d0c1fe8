#ifndef CJWSSIGNING_H
#define CJWSSIGNING_H

/*
 * CJWSSigning: the one ECDSA signer of JWSVerify. It reads an In-App Purchase key (PKCS #8, PEM or DER,
 * P-256 only) and signs with it: ES256 with a raw r||s signature (JWS), ECDSA P-256 SHA-256 with a DER
 * ECDSA-Sig-Value (the V1 promotional offer signature). JWSSigning (Apple's signature creators) and the
 * testing library (CJWSTesting's certificates, JWSVerifyTesting's tokens) sign through it; the verification
 * path (CJWSOpenSSL, JWSVerify) never links it.
 *
 * Conventions: those of CJWSOpenSSL.h (stated in full there), the same in every C module:
 *   - Names: every exported name carries the module's prefix, cjwss_ / CJWSS_; what the module's files share
 *     without exporting it is declared in internal.h as cjwss_internal_*.
 *   - Bytes in: `const void *` + `size_t`. Bytes out: `out_*` pointer and length, allocated with OpenSSL's
 *     allocator, released with cjws_free() (CJWSOpenSSL); on failure the out pointer is set to NULL.
 *   - Objects: keys are OpenSSL's EVP_PKEY. A function that makes one returns it (NULL on failure) and the
 *     caller owns it: release it with cjws_pkey_free() (CJWSOpenSSL), which also clears the private scalar.
 *     Arguments are borrowed; nothing given is kept.
 *   - Status: 1 done, 0 failed; where a failure has kinds the caller tells apart, the kind goes to the
 *     `reason` out-parameter (CJWSS_KEY_*). Out-parameters come last.
 *   - Errors: each function empties OpenSSL's error queue of the thread on entry; on success it leaves it
 *     empty, on failure it leaves OpenSSL's reasons in it and adds, as the last entry, the failed function and
 *     step ("cjwss_sign_es256: EVP_DigestSign"). cjws_error_text() (CJWSOpenSSL), the one drain of all
 *     modules, reads them. Nothing this module puts in the queue or in `found` carries key material.
 *   - OPENSSL_NO_DEPRECATED: no deprecated OpenSSL API is used (internal.h hides them).
 *
 * Files: keys.c (reading keys), sign.c (signatures), internal.h (what they share). No process-wide state.
 */

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- reading a private key (keys.c) ------------------------------------------------------------------ */

/* Why cjwss_key_from_pkcs8 read no key: the kind of input it found instead. */
#define CJWSS_KEY_OK 0
#define CJWSS_KEY_EMPTY 1         /* no bytes, or only white space */
#define CJWSS_KEY_UNREADABLE 2    /* neither a PEM block nor DER of a key, certificate or public key */
#define CJWSS_KEY_ENCRYPTED 3     /* an encrypted private key (ENCRYPTED PRIVATE KEY, or Proc-Type ENCRYPTED) */
#define CJWSS_KEY_CERTIFICATE 4   /* an X.509 certificate */
#define CJWSS_KEY_PUBLIC 5        /* a public key (SubjectPublicKeyInfo, PUBLIC KEY) */
#define CJWSS_KEY_RSA 6           /* an RSA private key; `found`: "RSA 2048" */
#define CJWSS_KEY_WRONG_CURVE 7   /* an EC key on another curve; `found`: "P-384", or OpenSSL's curve name */
#define CJWSS_KEY_OTHER_TYPE 8    /* a private key of another algorithm; `found`: OpenSSL's name ("ED25519") */
#define CJWSS_KEY_NOT_PKCS8 9     /* a private key in a legacy form (SEC 1 "EC PRIVATE KEY", "RSA PRIVATE KEY") */
#define CJWSS_KEY_INVALID 10      /* a P-256 PKCS #8 key that fails OpenSSL's key check */
#define CJWSS_KEY_TOO_LARGE 11    /* more than CJWSS_KEY_MAX_BYTES: not an In-App Purchase key */

/* The most bytes cjwss_key_from_pkcs8 reads (a P-256 .p8 file is about 240 bytes). */
#define CJWSS_KEY_MAX_BYTES 65536

/* Reads a P-256 private key from PKCS #8: a PEM "PRIVATE KEY" block (the first PEM block of the text; text
 * around it is ignored) or DER PrivateKeyInfo (exactly `length` bytes). Returns the key, or NULL with
 * `*reason` set to a CJWSS_KEY_* saying what was found instead and, for CJWSS_KEY_RSA, _WRONG_CURVE,
 * _OTHER_TYPE and _NOT_PKCS8, a short description of it in `found` (NUL-terminated, truncated to
 * `found_capacity`; "" otherwise). `found` never holds key material. Intermediate copies of the key bytes are
 * cleared before they are freed. */
EVP_PKEY *cjwss_key_from_pkcs8(const void *data, size_t length, int *reason, char *found, size_t found_capacity);

/* 1 when `key` is an EC key on P-256, else 0. */
int cjwss_key_is_p256(const EVP_PKEY *key);

/* ---- signatures (sign.c) ----------------------------------------------------------------------------- */

/* Message digests (the same values as CJWSTesting's CJWST_DIGEST_*). */
#define CJWSS_DIGEST_SHA1 1
#define CJWSS_DIGEST_SHA256 256
#define CJWSS_DIGEST_SHA384 384
#define CJWSS_DIGEST_SHA512 512

/* ES256 (RFC 7518 section 3.4): SHA-256 and ECDSA with a P-256 key; the raw 64-byte r||s, each half
 * left-padded to 32 bytes. Fails for any other key. */
int cjwss_sign_es256(EVP_PKEY *key, const void *message, size_t message_length, unsigned char **out_signature,
                     size_t *out_length);

/* SHA-256 and ECDSA with a P-256 key, as a DER ECDSA-Sig-Value (the V1 promotional offer signature). Fails for
 * any other key. */
int cjwss_sign_es256_der(EVP_PKEY *key, const void *message, size_t message_length,
                         unsigned char **out_signature, size_t *out_length);

/* The general form, for the testing library's certificates and negative tokens: `message` hashed with
 * `digest` (CJWSS_DIGEST_*) and signed with any EC or RSA key by OpenSSL's EVP_DigestSign. `raw` 0: OpenSSL's
 * encoding (ECDSA: a DER ECDSA-Sig-Value; RSA: PKCS #1 v1.5). `raw` 1 (EC keys only): r||s, each half
 * left-padded to the size of the curve's order (64 bytes for P-256, 96 for P-384). */
int cjwss_sign(EVP_PKEY *key, int digest, int raw, const void *message, size_t message_length,
               unsigned char **out_signature, size_t *out_length);

#ifdef __cplusplus
}
#endif

#endif /* CJWSSIGNING_H */
