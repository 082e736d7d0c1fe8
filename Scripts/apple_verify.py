#!/usr/bin/env python3
"""Verifies tokens with Apple's App Store Server Library (PyPI app-store-server-library).

Usage: apple_verify.py --root ROOT.der [--root ...] --bundle-id ID --environment Sandbox [--app-apple-id N]
Reads NDJSON from stdin, one {"kind": "transaction|renewal|app-transaction|notification|realtime",
"token": "..."} per line, and prints one line per input: "VERIFIED" or "FAILED <VerificationStatus>".
Used by the tests that compare JWSVerify with Apple's library; run it with the interpreter that
Scripts/apple-python-venv.sh prints.
"""
import argparse
import json
import sys

from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier, VerificationException


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", action="append", required=True)
    parser.add_argument("--bundle-id", required=True)
    parser.add_argument("--environment", required=True)
    parser.add_argument("--app-apple-id", type=int)
    args = parser.parse_args()
    roots = [open(path, "rb").read() for path in args.root]
    verifier = SignedDataVerifier(roots, False, Environment(args.environment), args.bundle_id, args.app_apple_id)
    methods = {
        "transaction": verifier.verify_and_decode_signed_transaction,
        "renewal": verifier.verify_and_decode_renewal_info,
        "app-transaction": verifier.verify_and_decode_app_transaction,
        "notification": verifier.verify_and_decode_notification,
        "realtime": verifier.verify_and_decode_realtime_request,
    }
    for line in sys.stdin:
        if not line.strip():
            continue
        item = json.loads(line)
        try:
            methods[item["kind"]](item["token"])
            print("VERIFIED")
        except VerificationException as error:
            print("FAILED %s" % error.status.name)
        except Exception as error:  # a crash of the library on hostile input is a failure too
            print("FAILED EXCEPTION %s" % type(error).__name__)
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
