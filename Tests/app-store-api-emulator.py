#!/usr/bin/env python3
"""An App Store Server API emulator on loopback, for the tests of the API client and `jwsverify api`.

Python 3 standard library only. It answers as Apple's App Store Server API would, and checks every
request the way Apple's API does: method and path against the documented endpoints, query parameters
and their formats, headers, the JSON body of PUT and POST endpoints, and the bearer token (ES256
header, signature verified with the configured public key in pure Python, claims `iss`, `iat`, `exp`,
`aud`, `bid`; `iat` not in the future beyond a minute of skew, `exp` after now, at most 60 minutes after
`iat` and at most 60 minutes from now). Notification history asks for a window of Apple's: a startDate
at most 180 days before now, before its endDate. A request body is at most 1 MiB (413 beyond; a
Content-Length that is not a number: 400), and a JSON body is strict JSON: no duplicate member names,
no NaN or Infinity, no number out of range (400). A bad request gets Apple's answer (401 for
authentication, 400 or 404 with Apple's error body, 413) and is recorded as a violation.

Run: python3 Tests/app-store-api-emulator.py --config FILE
It prints `PORT <n>` on stdout once it listens on 127.0.0.1 (port 0 in the config, or none, picks a
free port) and exits when stdin closes or on SIGTERM.

Config (JSON):
  issuerId, keyId, bundleId      what the bearer token must carry
  publicKey                      path of the signing key's public half (PEM, P-256 SubjectPublicKeyInfo)
  port                           optional, default 0
  routes                         list of {method, path, query?, responses}
    query                        optional exact match: {name: [value, ...]}; a route without it
                                 matches any query
    responses                    served in order, the last one repeats:
      status                     HTTP status (default 200)
      headers                    optional {name: value}
      json | text                the body: a JSON value, or raw text (none: empty body)
      truncate                   optional: serve only the first n bytes of the body
      declaredLength             optional: the Content-Length to declare (default: the bytes sent),
                                 larger than the bytes sent for a connection that ends early
      delay                      optional seconds to wait before answering
      endless                    optional {chunk, interval, declaredLength, encoding, seconds}: instead of
                                 the body, bytes `a` without end, in chunks of `chunk` bytes (default 65536)
                                 every `interval` seconds (default 0), chunked (Transfer-Encoding) unless
                                 `declaredLength` gives a Content-Length; with encoding "gzip", a gzip stream
                                 of 1 MiB of zeros per chunk (a compression bomb); it stops when the client
                                 goes away or after `seconds` (default 120): a hostile server
A request that passes every check but matches no route gets 404 with Apple's TransactionIdNotFound
body (for paths with an id) or GeneralBadRequest.

GET /__emulator/log returns {"requests": [{method, path, query, headers, body, violations}]}.
"""

import argparse
import base64
import hashlib
import json
import re
import signal
import sys
import threading
import time
import uuid
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

# ---------------------------------------------------------------- P-256 ECDSA verification (FIPS 186-4)

P = 0xFFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF
A = P - 3
B = 0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B
N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
G = (
    0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296,
    0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5,
)


def on_curve(point):
    x, y = point
    return 0 <= x < P and 0 <= y < P and (y * y - (x * x * x + A * x + B)) % P == 0


def point_add(p1, p2):
    if p1 is None:
        return p2
    if p2 is None:
        return p1
    (x1, y1), (x2, y2) = p1, p2
    if x1 == x2:
        if (y1 + y2) % P == 0:
            return None
        slope = (3 * x1 * x1 + A) * pow(2 * y1, -1, P) % P
    else:
        slope = (y2 - y1) * pow(x2 - x1, -1, P) % P
    x3 = (slope * slope - x1 - x2) % P
    return (x3, (slope * (x1 - x3) - y1) % P)


def scalar_multiply(k, point):
    result = None
    while k:
        if k & 1:
            result = point_add(result, point)
        point = point_add(point, point)
        k >>= 1
    return result


def es256_verify(public_point, message, signature):
    """True when `signature` (JWS r||s, 64 bytes) signs `message` under `public_point`."""
    if len(signature) != 64:
        return False
    r = int.from_bytes(signature[:32], "big")
    s = int.from_bytes(signature[32:], "big")
    if not (0 < r < N and 0 < s < N):
        return False
    e = int.from_bytes(hashlib.sha256(message).digest(), "big")
    w = pow(s, -1, N)
    point = point_add(scalar_multiply(e * w % N, G), scalar_multiply(r * w % N, public_point))
    return point is not None and point[0] % N == r


# The DER prefix of a P-256 SubjectPublicKeyInfo with an uncompressed point (RFC 5480).
SPKI_P256_PREFIX = bytes.fromhex("3059301306072a8648ce3d020106082a8648ce3d030107034200")


def load_public_key(path):
    text = open(path, encoding="ascii").read()
    match = re.search(r"-----BEGIN PUBLIC KEY-----(.*?)-----END PUBLIC KEY-----", text, re.S)
    if not match:
        raise ValueError("no PUBLIC KEY block in " + path)
    der = base64.b64decode("".join(match.group(1).split()))
    if len(der) != 91 or not der.startswith(SPKI_P256_PREFIX) or der[26] != 4:
        raise ValueError("not an uncompressed P-256 public key: " + path)
    point = (int.from_bytes(der[27:59], "big"), int.from_bytes(der[59:91], "big"))
    if not on_curve(point):
        raise ValueError("the public key is not on P-256: " + path)
    return point


# ---------------------------------------------------------------- Apple's errors


class Rejection(Exception):
    """A request Apple would refuse: the HTTP status, Apple's error code (None for 401) and message."""

    def __init__(self, status, code, message):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def bad(code, message):
    return Rejection(400, code, message)


GENERAL_BAD_REQUEST = 4000000
INVALID_REQUEST_REVISION = 4000005
INVALID_TRANSACTION_ID = 4000006
INVALID_EXTEND_BY_DAYS = 4000009
INVALID_EXTEND_REASON_CODE = 4000010
INVALID_REQUEST_IDENTIFIER = 4000011
START_DATE_TOO_FAR_IN_PAST = 4000012
START_DATE_AFTER_END_DATE = 4000013
INVALID_PAGINATION_TOKEN = 4000014
INVALID_START_DATE = 4000015
INVALID_END_DATE = 4000016
INVALID_NOTIFICATION_TYPE = 4000018
MULTIPLE_FILTERS_SUPPLIED = 4000019
INVALID_TEST_NOTIFICATION_TOKEN = 4000020
INVALID_SORT = 4000021
INVALID_PRODUCT_TYPE = 4000022
INVALID_PRODUCT_ID = 4000023
INVALID_SUBSCRIPTION_GROUP_IDENTIFIER = 4000024
INVALID_IN_APP_OWNERSHIP_TYPE = 4000026
INVALID_EMPTY_STOREFRONT_COUNTRY_CODE_LIST = 4000027
INVALID_STOREFRONT_COUNTRY_CODE = 4000028
INVALID_REVOKED = 4000030
INVALID_STATUS = 4000031
INVALID_ACCOUNT_TENURE = 4000032
INVALID_APP_ACCOUNT_TOKEN = 4000033
INVALID_CONSUMPTION_STATUS = 4000034
INVALID_CUSTOMER_CONSENTED = 4000035
INVALID_DELIVERY_STATUS = 4000036
INVALID_LIFETIME_DOLLARS_PURCHASED = 4000037
INVALID_LIFETIME_DOLLARS_REFUNDED = 4000038
INVALID_PLATFORM = 4000039
INVALID_PLAY_TIME = 4000040
INVALID_SAMPLE_CONTENT_PROVIDED = 4000041
INVALID_USER_STATUS = 4000042
INVALID_IMAGE = 4000161
HEADER_TOO_LONG = 4000162
BODY_TOO_LONG = 4000163
INVALID_LOCALE = 4000164
ALT_TEXT_TOO_LONG = 4000175
INVALID_APP_ACCOUNT_TOKEN_UUID = 4000183
TRANSACTION_ID_NOT_FOUND = 4040010

# ---------------------------------------------------------------- value formats

UUID_RE = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
LOWER_UUID_RE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
DIGITS_RE = re.compile(r"^[0-9]{1,20}$")
ORDER_ID_RE = re.compile(r"^[A-Za-z0-9]{1,64}$")
TOKEN_RE = re.compile(r"^[A-Za-z0-9._~+/=-]{1,512}$")
PRODUCT_ID_RE = re.compile(r"^[A-Za-z0-9._-]{1,255}$")
LOCALE_RE = re.compile(r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$")
COUNTRY_RE = re.compile(r"^[A-Z]{3}$")

NOTIFICATION_TYPES = {
    "CONSUMPTION_REQUEST", "DID_CHANGE_RENEWAL_PREF", "DID_CHANGE_RENEWAL_STATUS", "DID_FAIL_TO_RENEW",
    "DID_RENEW", "EXPIRED", "EXTERNAL_PURCHASE_TOKEN", "GRACE_PERIOD_EXPIRED", "OFFER_REDEEMED",
    "ONE_TIME_CHARGE", "PRICE_INCREASE", "REFUND", "REFUND_DECLINED", "REFUND_REVERSED", "RENEWAL_EXTENDED",
    "RENEWAL_EXTENSION", "REVOKE", "SUBSCRIBED", "TEST", "METADATA_UPDATE", "MIGRATION", "PRICE_CHANGE",
    "RESCIND_CONSENT",
}
NOTIFICATION_SUBTYPES = {
    "INITIAL_BUY", "RESUBSCRIBE", "DOWNGRADE", "UPGRADE", "AUTO_RENEW_ENABLED", "AUTO_RENEW_DISABLED",
    "VOLUNTARY", "BILLING_RETRY", "PRICE_INCREASE", "GRACE_PERIOD", "PENDING", "ACCEPTED", "BILLING_RECOVERY",
    "PRODUCT_NOT_FOR_SALE", "SUMMARY", "FAILURE", "UNREPORTED", "CREATED", "ACTIVE_TOKEN_REMINDER",
}


def is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def millis(value):
    return bool(re.fullmatch(r"[0-9]{1,15}", value))


# ---------------------------------------------------------------- query parameters


HISTORY_QUERY = {
    "revision": (INVALID_REQUEST_REVISION, False, lambda v: bool(TOKEN_RE.match(v))),
    "startDate": (INVALID_START_DATE, False, millis),
    "endDate": (INVALID_END_DATE, False, millis),
    "productId": (INVALID_PRODUCT_ID, True, lambda v: bool(PRODUCT_ID_RE.match(v))),
    "productType": (
        INVALID_PRODUCT_TYPE, True, lambda v: v in {"AUTO_RENEWABLE", "NON_RENEWABLE", "CONSUMABLE", "NON_CONSUMABLE"}
    ),
    "sort": (INVALID_SORT, False, lambda v: v in {"ASCENDING", "DESCENDING"}),
    "subscriptionGroupIdentifier": (INVALID_SUBSCRIPTION_GROUP_IDENTIFIER, True, lambda v: 0 < len(v) <= 255),
    "inAppOwnershipType": (INVALID_IN_APP_OWNERSHIP_TYPE, False, lambda v: v in {"FAMILY_SHARED", "PURCHASED"}),
    "revoked": (INVALID_REVOKED, False, lambda v: v in {"true", "false"}),
}


def query_checker(spec):
    """A checker for endpoints whose parameters are `spec`: {name: (code, repeatable, valid)}."""

    def check(query):
        for name, values in query.items():
            if name not in spec:
                raise bad(GENERAL_BAD_REQUEST, "Unknown query parameter: " + name)
            code, repeatable, valid = spec[name]
            if len(values) > 1 and not repeatable:
                raise bad(code, "Repeated query parameter: " + name)
            for value in values:
                if not valid(value):
                    raise bad(code, "Invalid %s: %r" % (name, value))

    return check


NO_QUERY = query_checker({})


def check_history_query(query):
    query_checker(HISTORY_QUERY)(query)
    if "startDate" in query and "endDate" in query and int(query["startDate"][0]) >= int(query["endDate"][0]):
        raise bad(START_DATE_AFTER_END_DATE, "startDate is not before endDate")

REVISION_QUERY = query_checker({"revision": HISTORY_QUERY["revision"]})
STATUS_QUERY = query_checker({"status": (INVALID_STATUS, True, lambda v: v in {"1", "2", "3", "4", "5"})})
PAGINATION_QUERY = query_checker(
    {"paginationToken": (INVALID_PAGINATION_TOKEN, False, lambda v: bool(TOKEN_RE.match(v)))}
)
IMAGE_QUERY = query_checker(
    {"imageSize": (GENERAL_BAD_REQUEST, False, lambda v: v in {"FULL_SIZE", "BULLET_POINT"})}
)

# ---------------------------------------------------------------- bodies


def require_object(body):
    if not isinstance(body, dict):
        raise bad(GENERAL_BAD_REQUEST, "The body is not a JSON object")
    return body


def only_members(body, allowed):
    for name in body:
        if name not in allowed:
            raise bad(GENERAL_BAD_REQUEST, "Unknown member in the body: " + name)


def int_member(body, name, low, high, code, required=False):
    if name not in body:
        if required:
            raise bad(code, "Missing " + name)
        return
    value = body[name]
    if not is_int(value) or not low <= value <= high:
        raise bad(code, "Invalid %s: %r" % (name, value))


def bool_member(body, name, code, required=False):
    if name not in body:
        if required:
            raise bad(code, "Missing " + name)
        return
    if not isinstance(body[name], bool):
        raise bad(code, "Invalid %s: %r" % (name, body[name]))


def consumption_v1(body):
    body = require_object(body)
    only_members(body, {
        "customerConsented", "consumptionStatus", "platform", "sampleContentProvided", "deliveryStatus",
        "appAccountToken", "accountTenure", "playTime", "lifetimeDollarsRefunded", "lifetimeDollarsPurchased",
        "userStatus", "refundPreference",
    })
    if body.get("customerConsented") is not True:
        raise bad(INVALID_CUSTOMER_CONSENTED, "customerConsented must be true")
    int_member(body, "consumptionStatus", 0, 3, INVALID_CONSUMPTION_STATUS, True)
    int_member(body, "platform", 0, 2, INVALID_PLATFORM, True)
    bool_member(body, "sampleContentProvided", INVALID_SAMPLE_CONTENT_PROVIDED, True)
    int_member(body, "deliveryStatus", 0, 5, INVALID_DELIVERY_STATUS, True)
    token = body.get("appAccountToken")
    if not isinstance(token, str) or not (token == "" or UUID_RE.match(token)):
        raise bad(INVALID_APP_ACCOUNT_TOKEN, "appAccountToken must be a UUID or empty")
    int_member(body, "accountTenure", 0, 7, INVALID_ACCOUNT_TENURE, True)
    int_member(body, "playTime", 0, 7, INVALID_PLAY_TIME, True)
    int_member(body, "lifetimeDollarsRefunded", 0, 7, INVALID_LIFETIME_DOLLARS_REFUNDED, True)
    int_member(body, "lifetimeDollarsPurchased", 0, 7, INVALID_LIFETIME_DOLLARS_PURCHASED, True)
    int_member(body, "userStatus", 0, 4, INVALID_USER_STATUS, True)
    int_member(body, "refundPreference", 0, 3, GENERAL_BAD_REQUEST)


def consumption_v2(body):
    body = require_object(body)
    only_members(body, {
        "customerConsented", "sampleContentProvided", "deliveryStatus", "consumptionPercentage", "refundPreference",
    })
    if body.get("customerConsented") is not True:
        raise bad(INVALID_CUSTOMER_CONSENTED, "customerConsented must be true")
    bool_member(body, "sampleContentProvided", INVALID_SAMPLE_CONTENT_PROVIDED, True)
    if body.get("deliveryStatus") not in {
        "DELIVERED", "UNDELIVERED_QUALITY_ISSUE", "UNDELIVERED_WRONG_ITEM", "UNDELIVERED_SERVER_OUTAGE",
        "UNDELIVERED_OTHER",
    }:
        raise bad(INVALID_DELIVERY_STATUS, "Invalid deliveryStatus")
    int_member(body, "consumptionPercentage", 0, 100000, GENERAL_BAD_REQUEST)
    if "refundPreference" in body and body["refundPreference"] not in {"DECLINE", "GRANT_FULL", "GRANT_PRORATED"}:
        raise bad(GENERAL_BAD_REQUEST, "Invalid refundPreference")


def request_identifier(body, required_uuid):
    value = body.get("requestIdentifier")
    if not isinstance(value, str) or not 0 < len(value) <= 128 or (required_uuid and not UUID_RE.match(value)):
        raise bad(INVALID_REQUEST_IDENTIFIER, "Invalid requestIdentifier")


def extend(body):
    body = require_object(body)
    only_members(body, {"extendByDays", "extendReasonCode", "requestIdentifier"})
    int_member(body, "extendByDays", 1, 90, INVALID_EXTEND_BY_DAYS, True)
    int_member(body, "extendReasonCode", 0, 3, INVALID_EXTEND_REASON_CODE, True)
    request_identifier(body, False)


def extend_mass(body):
    body = require_object(body)
    only_members(body, {"extendByDays", "extendReasonCode", "requestIdentifier", "storefrontCountryCodes", "productId"})
    int_member(body, "extendByDays", 1, 90, INVALID_EXTEND_BY_DAYS, True)
    int_member(body, "extendReasonCode", 0, 3, INVALID_EXTEND_REASON_CODE, True)
    request_identifier(body, True)
    if not isinstance(body.get("productId"), str) or not PRODUCT_ID_RE.match(body["productId"]):
        raise bad(INVALID_PRODUCT_ID, "Invalid productId")
    if "storefrontCountryCodes" in body:
        codes = body["storefrontCountryCodes"]
        if not isinstance(codes, list) or not codes:
            raise bad(INVALID_EMPTY_STOREFRONT_COUNTRY_CODE_LIST, "storefrontCountryCodes is empty")
        if not all(isinstance(code, str) and COUNTRY_RE.match(code) for code in codes):
            raise bad(INVALID_STOREFRONT_COUNTRY_CODE, "Invalid storefront country code")


HISTORY_WINDOW_MS = 180 * 24 * 3600 * 1000


def notification_history(body):
    body = require_object(body)
    only_members(body, {
        "startDate", "endDate", "notificationType", "notificationSubtype", "transactionId",
        "originalTransactionId", "onlyFailures",
    })
    for name, code in (("startDate", INVALID_START_DATE), ("endDate", INVALID_END_DATE)):
        if not is_int(body.get(name)) or body[name] < 0:
            raise bad(code, "Missing or invalid " + name)
    if body["startDate"] >= body["endDate"]:
        raise bad(START_DATE_AFTER_END_DATE, "startDate is not before endDate")
    # Apple's window: a startDate within the past 180 days.
    if body["startDate"] < int(time.time() * 1000) - HISTORY_WINDOW_MS:
        raise bad(START_DATE_TOO_FAR_IN_PAST, "startDate is more than 180 days before now")
    if "notificationType" in body and body["notificationType"] not in NOTIFICATION_TYPES:
        raise bad(INVALID_NOTIFICATION_TYPE, "Invalid notificationType")
    if "notificationSubtype" in body:
        if "notificationType" not in body or body["notificationSubtype"] not in NOTIFICATION_SUBTYPES:
            raise bad(INVALID_NOTIFICATION_TYPE, "Invalid notificationSubtype")
    ids = [name for name in ("transactionId", "originalTransactionId") if name in body]
    if len(ids) > 1 or (ids and "notificationType" in body):
        raise bad(MULTIPLE_FILTERS_SUPPLIED, "More than one filter")
    for name in ids:
        if not isinstance(body[name], str) or not DIGITS_RE.match(body[name]):
            raise bad(INVALID_TRANSACTION_ID, "Invalid " + name)
    bool_member(body, "onlyFailures", GENERAL_BAD_REQUEST)


def app_account_token(body):
    body = require_object(body)
    only_members(body, {"appAccountToken"})
    if not isinstance(body.get("appAccountToken"), str) or not UUID_RE.match(body["appAccountToken"]):
        raise bad(INVALID_APP_ACCOUNT_TOKEN_UUID, "appAccountToken is not a UUID")


def image_reference(image, members):
    image = require_object(image)
    only_members(image, members)
    if "imageIdentifier" in image or "altText" in image:
        if not isinstance(image.get("imageIdentifier"), str) or not LOWER_UUID_RE.match(image["imageIdentifier"]):
            raise bad(GENERAL_BAD_REQUEST, "Invalid imageIdentifier (a lowercase UUID)")
        if not isinstance(image.get("altText"), str) or len(image["altText"]) > 150:
            raise bad(ALT_TEXT_TOO_LONG, "Missing or too long altText")
    return image


def upload_message(body):
    body = require_object(body)
    only_members(body, {"header", "body", "image", "headerPosition", "bulletPoints"})
    if not isinstance(body.get("header"), str) or len(body["header"]) > 66:
        raise bad(HEADER_TOO_LONG, "Missing or too long header")
    if not isinstance(body.get("body"), str) or len(body["body"]) > 144:
        raise bad(BODY_TOO_LONG, "Missing or too long body")
    if "image" in body:
        image_reference(body["image"], {"imageIdentifier", "altText"})
    if "headerPosition" in body and body["headerPosition"] not in {"ABOVE_BODY", "ABOVE_IMAGE"}:
        raise bad(GENERAL_BAD_REQUEST, "Invalid headerPosition")
    if "bulletPoints" in body:
        points = body["bulletPoints"]
        if not isinstance(points, list) or len(points) > 3:
            raise bad(GENERAL_BAD_REQUEST, "bulletPoints must be a list of at most 3")
        for point in points:
            point = image_reference(point, {"text", "imageIdentifier", "altText"})
            if not isinstance(point.get("text"), str) or len(point["text"]) > 66:
                raise bad(BODY_TOO_LONG, "Missing or too long bullet point text")


def default_message(body):
    body = require_object(body)
    only_members(body, {"messageIdentifier"})
    if not isinstance(body.get("messageIdentifier"), str) or not LOWER_UUID_RE.match(body["messageIdentifier"]):
        raise bad(GENERAL_BAD_REQUEST, "Invalid messageIdentifier (a lowercase UUID)")


def realtime_url(body):
    body = require_object(body)
    only_members(body, {"realtimeURL"})
    if not isinstance(body.get("realtimeURL"), str) or not body["realtimeURL"].startswith("https://"):
        raise bad(GENERAL_BAD_REQUEST, "realtimeURL must be an https URL")


def performance_test(body):
    body = require_object(body)
    only_members(body, {"originalTransactionId"})
    if not isinstance(body.get("originalTransactionId"), str) or not DIGITS_RE.match(body["originalTransactionId"]):
        raise bad(INVALID_TRANSACTION_ID, "Invalid originalTransactionId")


# ---------------------------------------------------------------- the endpoints

ANY_ID = r"(?P<id>[^/]+)"
# (method, path pattern, query checker, body: None (no body), a JSON checker, or "image/png")
ENDPOINTS = [
    ("GET", r"/inApps/v1/transactions/appTransactions/" + ANY_ID, NO_QUERY, None),
    ("GET", r"/inApps/v1/transactions/" + ANY_ID, NO_QUERY, None),
    ("GET", r"/inApps/v1/history/" + ANY_ID, check_history_query, None),
    ("GET", r"/inApps/v2/history/" + ANY_ID, check_history_query, None),
    ("GET", r"/inApps/v1/subscriptions/" + ANY_ID, STATUS_QUERY, None),
    ("GET", r"/inApps/v2/refund/lookup/" + ANY_ID, REVISION_QUERY, None),
    ("GET", r"/inApps/v1/lookup/(?P<order>[^/]+)", NO_QUERY, None),
    ("PUT", r"/inApps/v1/transactions/consumption/" + ANY_ID, NO_QUERY, consumption_v1),
    ("PUT", r"/inApps/v2/transactions/consumption/" + ANY_ID, NO_QUERY, consumption_v2),
    ("POST", r"/inApps/v1/subscriptions/extend/mass", NO_QUERY, extend_mass),
    ("GET", r"/inApps/v1/subscriptions/extend/mass/(?P<product>[^/]+)/(?P<request>[^/]+)", NO_QUERY, None),
    ("PUT", r"/inApps/v1/subscriptions/extend/" + ANY_ID, NO_QUERY, extend),
    ("POST", r"/inApps/v1/notifications/history", PAGINATION_QUERY, notification_history),
    ("POST", r"/inApps/v1/notifications/test", NO_QUERY, None),
    ("GET", r"/inApps/v1/notifications/test/(?P<test>[^/]+)", NO_QUERY, None),
    ("PUT", r"/inApps/v1/transactions/" + ANY_ID + "/appAccountToken", NO_QUERY, app_account_token),
    ("POST", r"/inApps/v1/transactions/" + ANY_ID + "/finish", NO_QUERY, None),
    ("GET", r"/inApps/v1/messaging/image/list", NO_QUERY, None),
    ("PUT", r"/inApps/v1/messaging/image/(?P<image>[^/]+)", IMAGE_QUERY, "image/png"),
    ("DELETE", r"/inApps/v1/messaging/image/(?P<image>[^/]+)", NO_QUERY, None),
    ("GET", r"/inApps/v1/messaging/message/list", NO_QUERY, None),
    ("PUT", r"/inApps/v1/messaging/message/(?P<message>[^/]+)", NO_QUERY, upload_message),
    ("DELETE", r"/inApps/v1/messaging/message/(?P<message>[^/]+)", NO_QUERY, None),
    ("GET", r"/inApps/v1/messaging/default/(?P<product>[^/]+)/(?P<locale>[^/]+)", NO_QUERY, None),
    ("PUT", r"/inApps/v1/messaging/default/(?P<product>[^/]+)/(?P<locale>[^/]+)", NO_QUERY, default_message),
    ("DELETE", r"/inApps/v1/messaging/default/(?P<product>[^/]+)/(?P<locale>[^/]+)", NO_QUERY, None),
    ("GET", r"/inApps/v1/messaging/realtime/url", NO_QUERY, None),
    ("PUT", r"/inApps/v1/messaging/realtime/url", NO_QUERY, realtime_url),
    ("DELETE", r"/inApps/v1/messaging/realtime/url", NO_QUERY, None),
    ("POST", r"/inApps/v1/messaging/performanceTest", NO_QUERY, performance_test),
    ("GET", r"/inApps/v1/messaging/performanceTest/result/(?P<performance>[^/]+)", NO_QUERY, None),
]
ENDPOINTS = [(method, re.compile(pattern + "$"), query, body) for method, pattern, query, body in ENDPOINTS]


def check_path_parameters(groups):
    if "id" in groups and not DIGITS_RE.match(groups["id"]):
        raise bad(INVALID_TRANSACTION_ID, "Invalid transaction id: %r" % groups["id"])
    if "order" in groups and not ORDER_ID_RE.match(groups["order"]):
        raise bad(GENERAL_BAD_REQUEST, "Invalid order id: %r" % groups["order"])
    if "request" in groups and not UUID_RE.match(groups["request"]):
        raise bad(INVALID_REQUEST_IDENTIFIER, "Invalid request identifier")
    if "product" in groups and not PRODUCT_ID_RE.match(groups["product"]):
        raise bad(INVALID_PRODUCT_ID, "Invalid product id")
    if "test" in groups and not TOKEN_RE.match(groups["test"]):
        raise bad(INVALID_TEST_NOTIFICATION_TOKEN, "Invalid test notification token")
    for name in ("image", "message", "performance"):
        if name in groups and not LOWER_UUID_RE.match(groups[name]):
            raise bad(GENERAL_BAD_REQUEST, "Invalid %s identifier (a lowercase UUID)" % name)
    if "locale" in groups and not LOCALE_RE.match(groups["locale"]):
        raise bad(INVALID_LOCALE, "Invalid locale")


# ---------------------------------------------------------------- the bearer token


def b64url_decode(text):
    if not re.fullmatch(r"[A-Za-z0-9_-]*", text):
        raise ValueError("not base64url")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def unauthenticated(message):
    return Rejection(401, None, message)


def check_bearer(config, authorization, now):
    if authorization is None:
        raise unauthenticated("No Authorization header")
    if not authorization.startswith("Bearer "):
        raise unauthenticated("Authorization is not a Bearer token")
    token = authorization[len("Bearer "):]
    parts = token.split(".")
    if len(parts) != 3:
        raise unauthenticated("The bearer token is not a compact JWS")
    try:
        header = json.loads(b64url_decode(parts[0]))
        claims = json.loads(b64url_decode(parts[1]))
        signature = b64url_decode(parts[2])
    except ValueError as error:
        raise unauthenticated("The bearer token does not decode: %s" % error)
    if not isinstance(header, dict) or not isinstance(claims, dict):
        raise unauthenticated("The bearer token's header or claims are not objects")
    if header.get("alg") != "ES256":
        raise unauthenticated("alg is %r, not ES256" % header.get("alg"))
    if header.get("kid") != config["keyId"]:
        raise unauthenticated("kid is %r, not the key id" % header.get("kid"))
    if header.get("typ") != "JWT":
        raise unauthenticated("typ is %r, not JWT" % header.get("typ"))
    if not es256_verify(config["point"], (parts[0] + "." + parts[1]).encode("ascii"), signature):
        raise unauthenticated("The bearer token's signature does not verify with the key")
    if claims.get("iss") != config["issuerId"]:
        raise unauthenticated("iss is %r, not the issuer id" % claims.get("iss"))
    if claims.get("aud") != "appstoreconnect-v1":
        raise unauthenticated("aud is %r, not appstoreconnect-v1" % claims.get("aud"))
    if claims.get("bid") != config["bundleId"]:
        raise unauthenticated("bid is %r, not the bundle id" % claims.get("bid"))
    iat, exp = claims.get("iat"), claims.get("exp")
    if not is_int(iat) or not is_int(exp):
        raise unauthenticated("iat and exp must be integers (seconds)")
    if iat > now + 60:
        raise unauthenticated("iat is in the future")
    if exp <= iat or exp - iat > 3600:
        raise unauthenticated("exp is not within 60 minutes after iat")
    if exp > now + 3600:
        raise unauthenticated("exp is more than 60 minutes from now")
    if exp <= now:
        raise unauthenticated("The bearer token expired")


# ---------------------------------------------------------------- the server


class Emulator:
    def __init__(self, config):
        self.config = config
        self.lock = threading.Lock()
        self.log = []
        self.served = {}

    def check(self, method, path, query, headers, body):
        """Raises Rejection when Apple would refuse the request; returns the endpoint otherwise."""
        endpoint = None
        path_known = False
        for candidate in ENDPOINTS:
            match = candidate[1].match(path)
            if match:
                path_known = True
                if candidate[0] == method:
                    endpoint, groups = candidate, match.groupdict()
                    break
        if endpoint is None:
            if path_known:
                raise Rejection(405, GENERAL_BAD_REQUEST, "Method %s not allowed on %s" % (method, path))
            raise Rejection(404, None, "Not Found: no endpoint %s %s" % (method, path))
        check_bearer(self.config, headers.get("Authorization"), int(time.time()))
        check_path_parameters(groups)
        endpoint[2](query)
        content_type = headers.get("Content-Type")
        kind = endpoint[3]
        if kind is None:
            if body:
                raise bad(GENERAL_BAD_REQUEST, "This endpoint takes no body")
        elif kind == "image/png":
            if content_type != "image/png":
                raise bad(GENERAL_BAD_REQUEST, "Content-Type must be image/png, not %r" % content_type)
            if not body.startswith(b"\x89PNG\r\n\x1a\n"):
                raise bad(INVALID_IMAGE, "The body is not a PNG image")
        else:
            if content_type is None or content_type.split(";")[0].strip() != "application/json":
                raise bad(GENERAL_BAD_REQUEST, "Content-Type must be application/json, not %r" % content_type)
            try:
                value = strict_json(body.decode("utf-8"))
            except (UnicodeDecodeError, ValueError):
                raise bad(GENERAL_BAD_REQUEST, "The body is not JSON")
            kind(value)

    def route(self, method, path, query):
        for index, route in enumerate(self.config.get("routes", [])):
            if route.get("method", "GET") != method or route.get("path") != path:
                continue
            if "query" in route and route["query"] != query:
                continue
            with self.lock:
                count = self.served.get(index, 0)
                self.served[index] = count + 1
            responses = route.get("responses") or [{"status": 200}]
            return responses[min(count, len(responses) - 1)]
        return None


def strict_json(text):
    """`text` as JSON (RFC 8259), refusing what Python's parser lets through: a member name twice in an
    object (which one counts differs between parsers), NaN and Infinity (not JSON), and numbers that do
    not fit in a double. Each is a Rejection, so that it is logged as a violation."""

    def members(pairs):
        seen = {}
        for name, value in pairs:
            if name in seen:
                raise bad(GENERAL_BAD_REQUEST, "Duplicate member in the body: " + name)
            seen[name] = value
        return seen

    def constant(name):
        raise bad(GENERAL_BAD_REQUEST, "The body holds %s, which is not JSON" % name)

    def number(text):
        value = float(text)
        if value in (float("inf"), float("-inf")):
            raise bad(GENERAL_BAD_REQUEST, "The body holds a number out of range: " + text[:40])
        return value

    return json.loads(text, object_pairs_hook=members, parse_constant=constant, parse_float=number)


# The largest request body the emulator reads (Apple's limit is not documented; 1 MiB is far above any
# body the API takes), and the most it drains from a larger one before answering 413.
MAXIMUM_BODY = 1 << 20
MAXIMUM_DRAIN = 8 << 20


def error_body(code, message):
    return json.dumps({"errorCode": code, "errorMessage": message}).encode()


def make_handler(emulator):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format, *args):
            sys.stderr.write("emulator: " + (format % args) + "\n")

        def handle_any(self):
            url = urlsplit(self.path)
            declared = self.headers.get("Content-Length") or "0"
            length = int(declared) if re.fullmatch(r"[0-9]{1,18}", declared) else -1
            body = b""
            if 0 < length <= MAXIMUM_BODY:
                body = self.rfile.read(length)
            elif MAXIMUM_BODY < length <= MAXIMUM_DRAIN:
                # Read and drop it, so that the client sees the 413 rather than a reset connection.
                left = length
                while left > 0:
                    chunk = self.rfile.read(min(left, 1 << 16))
                    if not chunk:
                        break
                    left -= len(chunk)
            query = parse_qs(url.query, keep_blank_values=True)
            if url.path == "/__emulator/log" and self.command == "GET":
                with emulator.lock:
                    data = json.dumps({"requests": emulator.log}).encode()
                return self.send(200, {"Content-Type": "application/json"}, data)
            entry = {
                "method": self.command,
                "path": url.path,
                "query": query,
                "headers": {name: value for name, value in self.headers.items()},
                "body": body.decode("utf-8", "replace"),
                "violations": [],
            }
            with emulator.lock:
                emulator.log.append(entry)
            if length < 0 or length > MAXIMUM_BODY:
                status = 400 if length < 0 else 413
                message = ("Content-Length is not a number: %r" % declared[:40]) if length < 0 else (
                    "The request body of %d bytes is larger than 1 MiB" % length)
                with emulator.lock:
                    entry["violations"].append({"status": status, "errorCode": None, "message": message})
                self.close_connection = True
                return self.send(status, {"Content-Type": "text/plain", "Connection": "close"}, message.encode())
            try:
                emulator.check(self.command, url.path, query, self.headers, body)
            except Rejection as rejection:
                with emulator.lock:
                    entry["violations"].append({"status": rejection.status, "errorCode": rejection.code,
                                                "message": rejection.message})
                if rejection.status == 401:
                    request_id = uuid.uuid4().hex.upper()
                    text = "Unauthenticated\n\nRequest ID: %s.0.0\n" % request_id
                    return self.send(401, {"Content-Type": "text/plain"}, text.encode())
                if rejection.code is None:
                    return self.send(404, {"Content-Type": "text/plain"}, b"Not Found\n")
                return self.send(rejection.status, {"Content-Type": "application/json"},
                                 error_body(rejection.code, rejection.message))
            response = emulator.route(self.command, url.path, query)
            if response is None:
                if "/transactions/" in url.path or "/history/" in url.path or "/lookup/" in url.path:
                    return self.send(404, {"Content-Type": "application/json"},
                                     error_body(TRANSACTION_ID_NOT_FOUND, "Transaction id not found."))
                return self.send(404, {"Content-Type": "application/json"},
                                 error_body(GENERAL_BAD_REQUEST, "No route configured for this request."))
            self.serve(response)

        def serve(self, response):
            if response.get("delay"):
                time.sleep(float(response["delay"]))
            headers = dict(response.get("headers") or {})
            if "endless" in response:
                return self.serve_endless(int(response.get("status", 200)), headers, response["endless"])
            if "json" in response:
                data = json.dumps(response["json"]).encode()
                headers.setdefault("Content-Type", "application/json")
            elif "text" in response:
                data = response["text"].encode()
            else:
                data = b""
            declared = response.get("declaredLength")
            if "truncate" in response:
                data = data[: int(response["truncate"])]
            self.send(int(response.get("status", 200)), headers, data, declared)

        def serve_endless(self, status, headers, spec):
            chunk = b"a" * int(spec.get("chunk", 65536))
            compressor = None
            if spec.get("encoding") == "gzip":
                # A compression bomb without end: each chunk of zeros is about a thousandth of its size on the wire.
                compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
                chunk = b"\0" * (1 << 20)
                headers["Content-Encoding"] = "gzip"
            interval = float(spec.get("interval", 0))
            declared = spec.get("declaredLength")
            deadline = time.monotonic() + float(spec.get("seconds", 120))
            self.close_connection = True
            try:
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, str(value))
                if declared is not None:
                    self.send_header("Content-Length", str(declared))
                else:
                    self.send_header("Transfer-Encoding", "chunked")
                self.send_header("Connection", "close")
                self.end_headers()
                while time.monotonic() < deadline:
                    data = chunk
                    if compressor is not None:
                        data = compressor.compress(chunk) + compressor.flush(zlib.Z_SYNC_FLUSH)
                    if declared is not None:
                        self.wfile.write(data)
                    else:
                        self.wfile.write(b"%x\r\n" % len(data) + data + b"\r\n")
                    self.wfile.flush()
                    if interval:
                        time.sleep(interval)
            except (BrokenPipeError, ConnectionResetError):
                pass

        def send(self, status, headers, data, declared=None):
            try:
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, str(value))
                self.send_header("Content-Length", str(declared if declared is not None else len(data)))
                if declared is not None:
                    self.send_header("Connection", "close")
                    self.close_connection = True
                self.end_headers()
                self.wfile.write(data)
                self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                self.close_connection = True

        do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = handle_any

    return Handler


def main():
    parser = argparse.ArgumentParser(description="App Store Server API emulator on loopback")
    parser.add_argument("--config", required=True)
    arguments = parser.parse_args()
    with open(arguments.config, encoding="utf-8") as file:
        config = json.load(file)
    config["point"] = load_public_key(config["publicKey"])
    emulator = Emulator(config)
    server = ThreadingHTTPServer(("127.0.0.1", int(config.get("port", 0))), make_handler(emulator))
    server.daemon_threads = True
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print("PORT %d" % server.server_address[1], flush=True)
    try:
        while sys.stdin.buffer.read(4096):
            pass
    finally:
        server.shutdown()


if __name__ == "__main__":
    main()
