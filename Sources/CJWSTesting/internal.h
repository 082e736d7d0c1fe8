/*
 * CJWSTesting's private header: what the module's C files share. Not in include/, so not part of
 * the module's interface to Swift; every C file of the module includes it first.
 *
 * Only the signing side of JWSVerify's tests uses this module; see include/CJWSTesting.h for the
 * contract. Deprecated OpenSSL APIs are hidden on purpose (OPENSSL_NO_DEPRECATED, set by
 * CJWSSigning's internal.h, included below), so using one is a compile error rather than a warning;
 * the two macros must come before any OpenSSL header, which is why this header is included first.
 *
 * Ownership: every function owns the OpenSSL objects it creates and frees them on its single
 * exit path (label `done`). Objects handed to OpenSSL containers are noted where ownership moves.
 *
 * The files (each holds the functions of one CJWSTesting.h section, with its own static helpers):
 *   helpers.c        the helpers below that several files use (the entry and exit of every exported
 *                    function are CJWSSigning's, through its internal.h)
 *   keys.c           cjwst_key_* (including cjwst_key_public_spki_der_ex), cjwst_rsa_key_*
 *   certificates.c   cjwst_cert_create and the cjwst_cert_* readers and converters
 *   cert_builders.c  names, times and extensions for cjwst_cert_create
 *   signatures.c     cjwst_forge_es256_infinity
 *   crafted.c        cjwst_cert_create_crafted and its DER writer
 *   chain.c          cjwst_verify_chain, cjwst_verify_error_string
 *   receipts.c       cjwst_cms_sign
 *   receipt_reference.c  cjwst_cms_verify_reference, cjwst_cms_inspect
 *   allocator.c      the failing allocator (uses nothing of this header but its first lines)
 */
#ifndef CJWSTESTING_INTERNAL_H
#define CJWSTESTING_INTERNAL_H

/* CJWSSigning's private header first: it hides the deprecated API (the two macros must come before any
 * OpenSSL header) and declares the entry and exit of every exported function, cjwss_internal_begin and
 * cjwss_internal_finish (defined once, in CJWSSigning/sign.c; this module links CJWSSigning), and the
 * CJWSS_CHECK macro, which both modules use. */
#include "../CJWSSigning/internal.h"

#include "CJWSTesting.h"
#include "CJWSOpenSSL.h" /* the error drain and the free functions of both modules */
#include "CJWSSigning.h" /* the one signer: certificate signatures (crafted.c) */

#include <stddef.h>
#include <stdint.h>

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/x509.h>

/* ---- helpers.c ------------------------------------------------------------------------------- */

/* The field size in bytes of a CJWST_CURVE_* (32 or 48), or 0. */
size_t cjwst_internal_curve_field_bytes(int curve);

/* Copies the contents of a memory BIO into a new NUL-terminated OpenSSL buffer. */
int cjwst_internal_bio_to_text(BIO *bio, char **out_text, size_t *out_len);

/* Parses a whole DER certificate (no trailing bytes). */
X509 *cjwst_internal_parse_certificate(const void *der, size_t length);

/* A password callback that refuses: encrypted keys fail instead of prompting on a terminal. */
int cjwst_internal_no_password(char *buffer, int size, int rwflag, void *userdata);

/* ---- cert_builders.c: parts of a certificate made by cjwst_cert_create (1 on success) -------- */

/* Builds CN, OU, O, C (in Apple's order); CN and O are required. NULL on failure. */
X509_NAME *cjwst_internal_build_name(const cjwst_name *spec);

/* Sets notAfter (`not_after` nonzero) or notBefore to `seconds` since the Unix epoch. */
int cjwst_internal_set_time(X509 *certificate, int64_t seconds, int not_after);

/* Critical basicConstraints; `path_length` < 0 leaves out the constraint (CAs only). */
int cjwst_internal_add_basic_constraints(X509 *certificate, int is_ca, int path_length);

/* Critical keyUsage with the CJWST_KU_* bits of `usage`. */
int cjwst_internal_add_key_usage(X509 *certificate, unsigned int usage);

/* subjectKeyIdentifier / authorityKeyIdentifier (keyid): SHA-1 of the key's public key bits. */
int cjwst_internal_add_subject_key_identifier(X509 *certificate, EVP_PKEY *subject);
int cjwst_internal_add_authority_key_identifier(X509 *certificate, EVP_PKEY *issuer);

/* Authority Information Access with one OCSP URI. */
int cjwst_internal_add_ocsp_access(X509 *certificate, const char *url);

/* A non-critical extension with OID `oid` (dotted text) and value DER NULL (05 00). */
int cjwst_internal_add_marker(X509 *certificate, const char *oid);

#endif /* CJWSTESTING_INTERNAL_H */
