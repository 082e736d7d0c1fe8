// JWSSigning: what a server signs with its In-App Purchase key (a PKCS #8 P-256 key from App Store Connect).
//
// Apple's signature creators (promotional offers V1 and V2, introductory-offer eligibility, Advanced Commerce)
// and the Retention Messaging realtime answer, on one ES256 signer over OpenSSL. A server that only verifies
// links `JWSVerify` and none of this module.
