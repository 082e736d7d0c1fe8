/* App receipts (StoreKit 1): CMS/PKCS #7 SignedData made with OpenSSL's CMS API (the CJWSTesting.h
 * function cjwst_cms_sign; the RSA keys it signs with come from keys.c).
 *
 * An App Store receipt is a SignedData whose one SignerInfo names its certificate by issuer and
 * serial number, has no signed attributes and signs the content's SHA-1 (before 2023) or SHA-256
 * digest with RSA (signatureAlgorithm rsaEncryption). cjwst_cms_sign writes that shape by default
 * and lets a test change one thing at a time: the digest, signed attributes, detached content,
 * eContentType, the embedded certificates and their order, the digestAlgorithms set, more signers, a signer named by one
 * certificate but signed with another key, and DER or streamed BER (Xcode's StoreKit Testing
 * receipts are BER with indefinite lengths). */
#include "internal.h"

#include <limits.h>
#include <stdint.h>
#include <string.h>

#include <openssl/asn1.h>
#include <openssl/bio.h>
#include <openssl/cms.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/x509.h>

static const unsigned char empty_content[1] = {0};

/* The digest of a SignerInfo (CJWST_DIGEST_*), or NULL. */
static const EVP_MD *signer_digest(int digest) {
    switch (digest) {
    case CJWST_DIGEST_SHA1: return EVP_sha1();
    case CJWST_DIGEST_SHA256: return EVP_sha256();
    case CJWST_DIGEST_SHA384: return EVP_sha384();
    case CJWST_DIGEST_SHA512: return EVP_sha512();
    case CJWST_DIGEST_MD5: return EVP_md5();
    default: return NULL;
    }
}

/* Adds one SignerInfo. CMS_add1_signer requires the key to match the certificate; when a test
 * wants a SignerInfo that names `spec->certificate_der` but is signed with another key, the
 * certificate is copied and the copy given the signing key's public key. The SignerInfo takes
 * only the issuer and serial number from it (the copy is never embedded: CMS_NOCERTS). */
static int add_signer(CMS_ContentInfo *cms, const cjwst_cms_signer *spec, const char **step) {
    int ok = 0;
    X509 *certificate = NULL;
    X509 *stand_in = NULL;
    const EVP_MD *digest = NULL;
    unsigned int flags = CMS_BINARY | CMS_PARTIAL | CMS_NOCERTS | CMS_NOSMIMECAP;

    *step = "signer certificate and key are required";
    if (spec->key == NULL) goto done;
    *step = "signer certificate is not one DER certificate";
    certificate = cjwst_internal_parse_certificate(spec->certificate_der, spec->certificate_len);
    if (certificate == NULL) goto done;
    *step = "unsupported signer digest";
    digest = signer_digest(spec->digest);
    if (digest == NULL) goto done;
    if (!spec->signed_attributes) flags |= CMS_NOATTR;
    if (EVP_PKEY_eq(X509_get0_pubkey(certificate), spec->key) != 1) {
        *step = "X509_dup (signer named by another certificate)";
        stand_in = X509_dup(certificate);
        if (stand_in == NULL) goto done;
        *step = "X509_set_pubkey (signer named by another certificate)";
        if (X509_set_pubkey(stand_in, spec->key) != 1) goto done;
    }
    *step = "CMS_add1_signer";
    /* The SignerInfo keeps its own references to the certificate and the key. */
    if (CMS_add1_signer(cms, stand_in != NULL ? stand_in : certificate, spec->key, digest,
                        flags) == NULL)
        goto done;
    ok = 1;
done:
    X509_free(stand_in);
    X509_free(certificate);
    return ok;
}

/* ---- The certificates field, written in the caller's order ---------------------------------
 * OpenSSL encodes `certificates` (a SET OF) sorted, as DER wants; Apple's receipts list leaf,
 * intermediate, root. So the SignedData is encoded without certificates and the field is then
 * inserted after encapContentInfo, verbatim, with the lengths of the three enclosing definite-length
 * headers grown to match (indefinite ones stay as they are). The signature covers neither. */

typedef struct ber_header {
    size_t header_len;  /* tag and length octets */
    size_t content_len; /* 0 when indefinite */
    int indefinite;
    unsigned char tag;
} ber_header;

/* Reads the header at `pos` (one-byte tags only; lengths must fit in `length`). */
static int read_header(const unsigned char *bytes, size_t length, size_t pos, ber_header *out) {
    if (pos >= length || length - pos < 2) return 0;
    out->tag = bytes[pos];
    out->header_len = 2;
    out->content_len = 0;
    out->indefinite = 0;
    if ((out->tag & 0x1F) == 0x1F) return 0;
    unsigned char first = bytes[pos + 1];
    if (first < 0x80) {
        out->content_len = first;
    } else if (first == 0x80) {
        if ((out->tag & 0x20) == 0) return 0; /* only constructed encodings may be indefinite */
        out->indefinite = 1;
    } else {
        size_t count = first & 0x7Fu;
        if (count > sizeof(size_t) || length - pos - 2 < count) return 0;
        for (size_t index = 0; index < count; index++) {
            out->content_len = out->content_len << 8 | bytes[pos + 2 + index];
        }
        out->header_len += count;
    }
    return out->indefinite || out->content_len <= length - pos - out->header_len;
}

/* The offset just after the element at `pos` (after its end-of-contents octets when indefinite). */
static int element_end(const unsigned char *bytes, size_t length, size_t pos, int depth,
                       size_t *out_end) {
    ber_header header;
    if (depth > 32 || !read_header(bytes, length, pos, &header)) return 0;
    if (!header.indefinite) {
        *out_end = pos + header.header_len + header.content_len;
        return 1;
    }
    size_t cursor = pos + header.header_len;
    for (;;) {
        if (length - cursor >= 2 && bytes[cursor] == 0 && bytes[cursor + 1] == 0) {
            *out_end = cursor + 2;
            return 1;
        }
        if (!element_end(bytes, length, cursor, depth + 1, &cursor)) return 0;
    }
}

/* Octets of a definite length. */
static size_t length_octets(size_t length) {
    size_t count = 1;
    if (length >= 0x80) {
        for (size_t rest = length; rest != 0; rest >>= 8) count++;
    }
    return count;
}

static unsigned char *write_header(unsigned char *cursor, unsigned char tag, size_t length,
                                   int indefinite) {
    *cursor++ = tag;
    if (indefinite) {
        *cursor++ = 0x80;
    } else if (length < 0x80) {
        *cursor++ = (unsigned char)length;
    } else {
        size_t count = length_octets(length) - 1;
        *cursor++ = (unsigned char)(0x80 | count);
        for (size_t index = count; index > 0; index--) {
            *cursor++ = (unsigned char)(length >> (8 * (index - 1)));
        }
    }
    return cursor;
}

/* A header's new content length once its contents change by `delta` bytes, and the change of the whole
 * element's size. 0 when the contents would shrink below nothing. */
static int resized(const ber_header *header, long long delta, size_t *out_length, long long *out_change) {
    if (header->indefinite) {
        *out_length = 0;
        *out_change = delta;
        return 1;
    }
    long long length = (long long)header->content_len + delta;
    if (length < 0) return 0;
    *out_length = (size_t)length;
    *out_change = (long long)(1 + length_octets(*out_length) + *out_length) -
                  (long long)(header->header_len + header->content_len);
    return 1;
}

/* Replaces SignedData field number `field` (0 version, 1 digestAlgorithms, 2 encapContentInfo, 3 the
 * next one) with `insert` (`replace` nonzero), or inserts `insert` before it, growing or shrinking the
 * three enclosing definite-length headers (indefinite ones stay as they are). */
static int splice_signed_data(const unsigned char *cms, size_t cms_len, int field, int replace,
                              const unsigned char *insert, size_t insert_len, unsigned char **out_cms,
                              size_t *out_len) {
    ber_header info, explicit, signed_data;
    size_t type_end = 0, at = 0, after = 0;
    size_t info_len = 0, explicit_len = 0, signed_len = 0;
    long long change = 0;
    /* ContentInfo { contentType, [0] EXPLICIT SignedData { version, digestAlgorithms,
       encapContentInfo, [certificates,] signerInfos } } */
    if (insert_len > SIZE_MAX / 4 || cms_len > SIZE_MAX / 4) return 0;
    if (!read_header(cms, cms_len, 0, &info) || info.tag != 0x30) return 0;
    if (!element_end(cms, cms_len, info.header_len, 0, &type_end)) return 0;
    if (!read_header(cms, cms_len, type_end, &explicit) || explicit.tag != 0xA0) return 0;
    size_t signed_at = type_end + explicit.header_len;
    if (!read_header(cms, cms_len, signed_at, &signed_data) || signed_data.tag != 0x30) return 0;
    at = signed_at + signed_data.header_len;
    for (int index = 0; index < field; index++) {
        if (!element_end(cms, cms_len, at, 0, &at)) return 0;
    }
    if (at >= cms_len) return 0;
    after = at;
    if (replace && !element_end(cms, cms_len, at, 0, &after)) return 0;
    if (!replace && cms[at] == 0xA0) return 0; /* a certificates field is there already */

    if (!resized(&signed_data, (long long)insert_len - (long long)(after - at), &signed_len, &change)) return 0;
    if (!resized(&explicit, change, &explicit_len, &change)) return 0;
    if (!resized(&info, change, &info_len, &change)) return 0;
    size_t total = (size_t)((long long)cms_len + change);
    unsigned char *result = OPENSSL_malloc(total);
    if (result == NULL) return 0;
    unsigned char *cursor = write_header(result, 0x30, info_len, info.indefinite);
    memcpy(cursor, cms + info.header_len, type_end - info.header_len);
    cursor += type_end - info.header_len;
    cursor = write_header(cursor, 0xA0, explicit_len, explicit.indefinite);
    cursor = write_header(cursor, 0x30, signed_len, signed_data.indefinite);
    size_t before = at - signed_at - signed_data.header_len;
    memcpy(cursor, cms + signed_at + signed_data.header_len, before);
    cursor += before;
    if (insert_len > 0) memcpy(cursor, insert, insert_len);
    cursor += insert_len;
    memcpy(cursor, cms + after, cms_len - after);
    cursor += cms_len - after;
    if ((size_t)(cursor - result) != total) {
        OPENSSL_free(result);
        return 0;
    }
    *out_cms = result;
    *out_len = total;
    return 1;
}

/* The certificates field [0] IMPLICIT SET OF Certificate with `list`, verbatim, inserted after
 * encapContentInfo (SignedData field 3). */
static int insert_certificates(const unsigned char *cms, size_t cms_len, const cjwst_bytes *list,
                               size_t count, unsigned char **out_cms, size_t *out_len) {
    size_t total = 0;
    for (size_t index = 0; index < count; index++) {
        if (list[index].data == NULL || list[index].length == 0 ||
            list[index].length > SIZE_MAX / 4 - total)
            return 0;
        total += list[index].length;
    }
    size_t field_len = 1 + length_octets(total) + total;
    unsigned char *field = OPENSSL_malloc(field_len);
    if (field == NULL) return 0;
    unsigned char *cursor = write_header(field, 0xA0, total, 0);
    for (size_t index = 0; index < count; index++) {
        memcpy(cursor, list[index].data, list[index].length);
        cursor += list[index].length;
    }
    int ok = splice_signed_data(cms, cms_len, 3, 0, field, field_len, out_cms, out_len);
    OPENSSL_free(field);
    return ok;
}

/* The digestAlgorithms SET (SignedData field 1) replaced by one AlgorithmIdentifier without parameters
 * per dotted OID, in the order given (none: an empty SET). */
static int replace_digest_algorithms(const unsigned char *cms, size_t cms_len, const char *const *oids,
                                     size_t count, unsigned char **out_cms, size_t *out_len) {
    int ok = 0;
    unsigned char body[8 * 126];
    unsigned char set[6 + sizeof body];
    size_t used = 0;
    ASN1_OBJECT *object = NULL;
    if (count > 8 || (count > 0 && oids == NULL)) goto done;
    for (size_t index = 0; index < count; index++) {
        unsigned char encoded[124];
        unsigned char *cursor = encoded;
        object = oids[index] != NULL ? OBJ_txt2obj(oids[index], 1) : NULL;
        if (object == NULL || i2d_ASN1_OBJECT(object, NULL) > (int)sizeof encoded) goto done;
        int length = i2d_ASN1_OBJECT(object, &cursor);
        if (length <= 0) goto done;
        body[used++] = 0x30;
        body[used++] = (unsigned char)length;
        memcpy(body + used, encoded, (size_t)length);
        used += (size_t)length;
        ASN1_OBJECT_free(object);
        object = NULL;
    }
    {
        unsigned char *end = write_header(set, 0x31, used, 0);
        memcpy(end, body, used);
        used += (size_t)(end - set);
    }
    ok = splice_signed_data(cms, cms_len, 1, 1, set, used, out_cms, out_len);
done:
    ASN1_OBJECT_free(object);
    return ok;
}

int cjwst_cms_sign(const cjwst_cms_params *params, unsigned char **out_cms, size_t *out_len) {
    int ok = 0;
    const char *step = "invalid arguments";
    CMS_ContentInfo *cms = NULL;
    ASN1_OBJECT *content_type = NULL;
    X509 *certificate = NULL;
    BIO *data = NULL;
    BIO *output = NULL;
    unsigned char *replaced = NULL;
    size_t replaced_len = 0;
    unsigned int flags = CMS_BINARY | CMS_PARTIAL | CMS_NOSMIMECAP;

    cjwss_internal_begin();
    if (out_cms != NULL) *out_cms = NULL;
    CJWSS_CHECK(params != NULL && out_cms != NULL && out_len != NULL, "invalid arguments");
    CJWSS_CHECK((params->content != NULL || params->content_len == 0) && params->content_len <= INT_MAX,
          "content");
    CJWSS_CHECK(params->signer_count == 0 || params->signers != NULL, "signers missing");
    CJWSS_CHECK(params->certificate_count == 0 || params->certificates != NULL, "certificates missing");
    CJWSS_CHECK(params->encoding == CJWST_CMS_DER || params->encoding == CJWST_CMS_BER,
          "unknown encoding");
    /* OpenSSL's streaming writer always embeds the content (CMS_stream creates eContent). */
    CJWSS_CHECK(!(params->detached && params->encoding == CJWST_CMS_BER),
          "BER output cannot be detached: OpenSSL's streaming writer embeds the content");
    if (params->detached) flags |= CMS_DETACHED;
    if (params->encoding == CJWST_CMS_BER) flags |= CMS_STREAM;

    cms = CMS_sign(NULL, NULL, NULL, NULL, flags);
    CJWSS_CHECK(cms != NULL, "CMS_sign");
    if (params->content_type_oid != NULL) {
        content_type = OBJ_txt2obj(params->content_type_oid, 1);
        CJWSS_CHECK(content_type != NULL, "eContentType OID (dotted text)");
        CJWSS_CHECK(CMS_set1_eContentType(cms, content_type) == 1, "CMS_set1_eContentType");
    }
    for (size_t index = 0; index < params->signer_count; index++) {
        if (!add_signer(cms, &params->signers[index], &step)) goto done;
    }
    for (size_t index = 0; index < params->certificate_count; index++) {
        certificate = cjwst_internal_parse_certificate(params->certificates[index].data,
                                                       params->certificates[index].length);
        CJWSS_CHECK(certificate != NULL, "embedded certificate is not one DER certificate");
        X509_free(certificate);
        certificate = NULL;
    }

    data = BIO_new_mem_buf(params->content_len > 0 ? params->content : empty_content,
                           (int)params->content_len);
    CJWSS_CHECK(data != NULL, "BIO_new_mem_buf");
    output = BIO_new(BIO_s_mem());
    CJWSS_CHECK(output != NULL, "BIO_new");
    if (params->signer_count == 0) {
        /* CMS_final needs a digest to compute, so with no SignerInfo the content is set directly;
           nothing is signed. */
        ASN1_OCTET_STRING **content = CMS_get0_content(cms); /* owned by `cms` */
        CJWSS_CHECK(params->encoding == CJWST_CMS_DER,
              "a SignedData without SignerInfos can only be written as DER");
        if (!params->detached) {
            CJWSS_CHECK(content != NULL && *content != NULL, "CMS_get0_content");
            CJWSS_CHECK(ASN1_OCTET_STRING_set(*content, params->content_len > 0 ? params->content
                                                                           : empty_content,
                                        (int)params->content_len) == 1,
                  "ASN1_OCTET_STRING_set");
        }
        CJWSS_CHECK(i2d_CMS_bio(output, cms) == 1, "i2d_CMS_bio");
    } else if (params->encoding == CJWST_CMS_DER) {
        CJWSS_CHECK(CMS_final(cms, data, NULL, flags) == 1, "CMS_final");
        CJWSS_CHECK(i2d_CMS_bio(output, cms) == 1, "i2d_CMS_bio");
    } else {
        /* Streaming: the signatures are computed while the content is copied through. */
        CJWSS_CHECK(i2d_CMS_bio_stream(output, cms, data, (int)flags) == 1, "i2d_CMS_bio_stream");
    }
    {
        char *bytes = NULL;
        long length = BIO_get_mem_data(output, &bytes);
        CJWSS_CHECK(length > 0 && bytes != NULL, "BIO_get_mem_data");
        const unsigned char *encoded = (const unsigned char *)bytes;
        size_t encoded_len = (size_t)length;
        if (params->replaces_digest_algorithms) {
            CJWSS_CHECK(replace_digest_algorithms(encoded, encoded_len, params->digest_algorithm_oids,
                                            params->digest_algorithm_count, &replaced, &replaced_len),
                  "replacing the digestAlgorithms set (at most 8 dotted OIDs)");
            encoded = replaced;
            encoded_len = replaced_len;
        }
        if (params->certificate_count == 0) {
            *out_cms = OPENSSL_memdup(encoded, encoded_len);
            CJWSS_CHECK(*out_cms != NULL, "allocation");
            *out_len = encoded_len;
        } else {
            CJWSS_CHECK(insert_certificates(encoded, encoded_len, params->certificates,
                                      params->certificate_count, out_cms, out_len),
                  "inserting the certificates");
        }
    }
    ok = 1;
done:
    OPENSSL_free(replaced);
    BIO_free(output);
    BIO_free(data);
    X509_free(certificate);
    ASN1_OBJECT_free(content_type);
    CMS_ContentInfo_free(cms);
    return cjwss_internal_finish(ok, __func__, step);
}
