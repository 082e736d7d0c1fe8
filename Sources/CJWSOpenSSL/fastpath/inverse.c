/* w = s^-1 mod n for the fixed-base table path of ec_key.c (see CJWSOpenSSL.h, "EC verification
 * keys"): a binary inversion on 64-bit limbs, checked with OpenSSL's BN_mod_mul, OpenSSL's
 * BN_mod_inverse when the check or anything else fails. */
#include "../internal.h"

#include <stdatomic.h>
#include <stdint.h>

#include <openssl/bn.h>

/* ---- w = s^-1 mod n ----------------------------------------------------------------------------
 *
 * BN_mod_inverse costs about 17 µs for a 256-bit order here, a quarter of a warm token: OpenSSL's own
 * P-256 verification uses an assembly inverse that is not part of its API. The signature's s is
 * public, so a plain binary extended Euclid on fixed 64-bit limbs (Hankerson, Menezes, Vanstone,
 * "Guide to Elliptic Curve Cryptography", algorithm 2.22) does the same in a few µs. Its answer is
 * never trusted as such: the caller checks w·s ≡ 1 (mod n) with OpenSSL's BN_mod_mul, which only the
 * inverse satisfies, and uses BN_mod_inverse whenever the check or anything else fails. */

#define INVERSE_LIMBS 6 /* up to 384 bits */
#define LIMBS_INLINE static inline __attribute__((always_inline))

/* 1 when `value` fits in `count` limbs (then written to `limbs`). */
LIMBS_INLINE int limbs_from_bn(uint64_t *limbs, const BIGNUM *value, int count) {
    unsigned char bytes[INVERSE_LIMBS * 8];
    if (BN_bn2lebinpad(value, bytes, count * 8) != count * 8) {
        return 0;
    }
    for (int index = 0; index < count; index++) {
        uint64_t limb = 0;
        for (int byte = 7; byte >= 0; byte--) {
            limb = (limb << 8) | bytes[index * 8 + byte];
        }
        limbs[index] = limb;
    }
    return 1;
}

LIMBS_INLINE int limbs_is_one(const uint64_t *a, int count) {
    if (a[0] != 1) {
        return 0;
    }
    for (int index = 1; index < count; index++) {
        if (a[index] != 0) {
            return 0;
        }
    }
    return 1;
}

/* a >= b */
LIMBS_INLINE int limbs_greater_or_equal(const uint64_t *a, const uint64_t *b, int count) {
    for (int index = count - 1; index >= 0; index--) {
        if (a[index] != b[index]) {
            return a[index] > b[index];
        }
    }
    return 1;
}

/* a = a + b, returns the carry */
LIMBS_INLINE uint64_t limbs_add(uint64_t *a, const uint64_t *b, int count) {
    uint64_t carry = 0;
    for (int index = 0; index < count; index++) {
        unsigned __int128 sum = (unsigned __int128)a[index] + b[index] + carry;
        a[index] = (uint64_t)sum;
        carry = (uint64_t)(sum >> 64);
    }
    return carry;
}

/* a = a - b, returns the borrow */
LIMBS_INLINE uint64_t limbs_subtract(uint64_t *a, const uint64_t *b, int count) {
    uint64_t borrow = 0;
    for (int index = 0; index < count; index++) {
        unsigned __int128 difference = (unsigned __int128)a[index] - b[index] - borrow;
        a[index] = (uint64_t)difference;
        borrow = (uint64_t)(difference >> 64) & 1;
    }
    return borrow;
}

/* a = a >> shift, 0 < shift < 64 */
LIMBS_INLINE void limbs_shift_right(uint64_t *a, int shift, int count) {
    for (int index = 0; index < count - 1; index++) {
        a[index] = (a[index] >> shift) | (a[index + 1] << (64 - shift));
    }
    a[count - 1] >>= shift;
}

/* x = x / 2^shift mod n for x < n, n odd, 0 < shift < 64, with n_inverse = n^-1 mod 2^64: adds the
 * multiple m·n (m < 2^shift) that makes x divisible by 2^shift, as Montgomery reduction does. */
LIMBS_INLINE void limbs_divide_mod(uint64_t *x, int shift, const uint64_t *n, uint64_t n_inverse, int count) {
    uint64_t mask = (UINT64_C(1) << shift) - 1;
    uint64_t m = (0 - x[0] * n_inverse) & mask;
    uint64_t sum[INVERSE_LIMBS + 1];
    uint64_t carry = 0;
    for (int index = 0; index < count; index++) {
        unsigned __int128 term = (unsigned __int128)m * n[index] + x[index] + carry;
        sum[index] = (uint64_t)term;
        carry = (uint64_t)(term >> 64);
    }
    sum[count] = carry;
    limbs_shift_right(sum, shift, count + 1);
    /* (x + m·n) / 2^shift < n/2^shift + n < 2n: one subtraction at most. */
    if (sum[count] != 0 || limbs_greater_or_equal(sum, n, count)) {
        limbs_subtract(sum, n, count);
    }
    memcpy(x, sum, sizeof(uint64_t) * (size_t)count);
}

/* Makes the even, non-zero a odd by dividing it by 2^k, and x by the same 2^k modulo n. */
LIMBS_INLINE void limbs_make_odd(uint64_t *a, uint64_t *x, const uint64_t *n, uint64_t n_inverse, int count) {
    while ((a[0] & 1) == 0) {
        int shift = a[0] == 0 ? 63 : __builtin_ctzll(a[0]);
        limbs_shift_right(a, shift, count);
        limbs_divide_mod(x, shift, n, n_inverse, count);
    }
}

LIMBS_INLINE int limbs_is_zero(const uint64_t *a, int count) {
    for (int index = 0; index < count; index++) {
        if (a[index] != 0) {
            return 0;
        }
    }
    return 1;
}

/* Binary inversion of a in [1, n-1] modulo the odd n; 1 on success (result in `inverse`). Inlined
 * into a 4-limb and a 6-limb copy (P-256, P-384) so that every limb loop has a constant count.
 * Invariants: x1·a ≡ u and x2·a ≡ v (mod n), u and v odd after each step; gcd(u, v) = gcd(a, n). */
LIMBS_INLINE int limbs_inverse(uint64_t *inverse, const uint64_t *a, const uint64_t *n, int count, int bits) {
    uint64_t u[INVERSE_LIMBS], v[INVERSE_LIMBS], x1[INVERSE_LIMBS] = {1}, x2[INVERSE_LIMBS] = {0};
    memcpy(u, a, sizeof(uint64_t) * (size_t)count);
    memcpy(v, n, sizeof(uint64_t) * (size_t)count);
    if (limbs_is_zero(u, count)) {
        return 0;
    }
    /* n^-1 mod 2^64 by Newton's iteration (each step doubles the correct low bits; n odd). */
    uint64_t n_inverse = n[0];
    for (int step = 0; step < 6; step++) {
        n_inverse *= 2 - n[0] * n_inverse;
    }
    limbs_make_odd(u, x1, n, n_inverse, count);
    /* Each round removes at least one bit from u or v. */
    for (int round = 0; round < 2 * bits + 8; round++) {
        if (limbs_is_one(u, count)) {
            memcpy(inverse, x1, sizeof(uint64_t) * (size_t)count);
            return 1;
        }
        if (limbs_is_one(v, count)) {
            memcpy(inverse, x2, sizeof(uint64_t) * (size_t)count);
            return 1;
        }
        if (limbs_greater_or_equal(u, v, count)) {
            limbs_subtract(u, v, count);
            if (limbs_is_zero(u, count)) {
                return 0; /* u = v > 1: not coprime */
            }
            if (limbs_subtract(x1, x2, count)) {
                limbs_add(x1, n, count);
            }
            limbs_make_odd(u, x1, n, n_inverse, count);
        } else {
            limbs_subtract(v, u, count);
            if (limbs_subtract(x2, x1, count)) {
                limbs_add(x2, n, count);
            }
            limbs_make_odd(v, x2, n, n_inverse, count);
        }
    }
    return 0;
}

static int limbs_inverse_4(uint64_t *inverse, const uint64_t *a, const uint64_t *n, int bits) {
    return limbs_inverse(inverse, a, n, 4, bits);
}

static int limbs_inverse_6(uint64_t *inverse, const uint64_t *a, const uint64_t *n, int bits) {
    return limbs_inverse(inverse, a, n, 6, bits);
}

static atomic_uint_fast64_t inverse_fallbacks = 0;

uint64_t cjws_ec_inverse_fallbacks(void) { return atomic_load_explicit(&inverse_fallbacks, memory_order_relaxed); }

/* w = s^-1 mod order, for s in [1, order-1]; 1 on success. */
int cjws_internal_inverse_mod_order(BIGNUM *w, const BIGNUM *s, const BIGNUM *order, BN_CTX *context) {
    int bits = BN_num_bits(order);
    /* 256 bits in 4 limbs, 384 in 6; a 4-limb order also fits the 6-limb copy (its top limbs zero). */
    int count = bits <= 256 ? 4 : 6;
    if (bits <= 64 * INVERSE_LIMBS && BN_is_odd(order)) {
        uint64_t a[INVERSE_LIMBS], n[INVERSE_LIMBS], result[INVERSE_LIMBS];
        int ready = limbs_from_bn(a, s, count) && limbs_from_bn(n, order, count);
        if (ready && (count == 4 ? limbs_inverse_4(result, a, n, bits) : limbs_inverse_6(result, a, n, bits))) {
            unsigned char bytes[INVERSE_LIMBS * 8];
            for (int index = 0; index < count; index++) {
                for (int byte = 0; byte < 8; byte++) {
                    bytes[index * 8 + byte] = (unsigned char)(result[index] >> (8 * byte));
                }
            }
            BN_CTX_start(context);
            BIGNUM *product = BN_CTX_get(context);
            int ok = product != NULL && BN_lebin2bn(bytes, count * 8, w) != NULL && BN_cmp(w, order) < 0 &&
                     BN_mod_mul(product, w, s, order, context) == 1 && BN_is_one(product);
            BN_CTX_end(context);
            if (ok) {
                return 1;
            }
        }
    }
    atomic_fetch_add_explicit(&inverse_fallbacks, 1, memory_order_relaxed);
    return BN_mod_inverse(w, s, order, context) != NULL;
}
