#!/usr/bin/env python3
"""Verifies tokens with Apple's App Store Server Library (PyPI app-store-server-library).

Usage: apple_verify.py --root ROOT.der [--root ...] --bundle-id ID --environment Sandbox [--app-apple-id N]

Reads NDJSON from stdin, one {"kind": "transaction|renewal|app-transaction|notification|realtime",
"token": "..."} per line, and prints one JSON verdict per input line, in order:
{"verified": true|false, "status": "OK" | VerificationStatus name | "EXCEPTION", "detail": "..."}.
Online checks are off. Used by the tests that compare JWSVerify with Apple's library
(ApplePythonAcceptanceTests, DifferentialTests); run it with the interpreter that
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
    roots = []
    for path in args.root:
        with open(path, "rb") as file:
            roots.append(file.read())
    verifier = SignedDataVerifier(roots, False, Environment(args.environment), args.bundle_id, args.app_apple_id)
    methods = {
        "transaction": verifier.verify_and_decode_signed_transaction,
        "renewal": verifier.verify_and_decode_renewal_info,
        "app-transaction": verifier.verify_and_decode_app_transaction,
        "notification": verifier.verify_and_decode_notification,
        "realtime": verifier.verify_and_decode_realtime_request,
    }
    out = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        item = json.loads(line)
        try:
            methods[item["kind"]](item["token"])
            verdict = {"verified": True, "status": "OK", "detail": ""}
        except VerificationException as error:
            cause = error.__cause__
            detail = f"{type(cause).__name__}: {cause}" if cause is not None else ""
            verdict = {"verified": False, "status": error.status.name, "detail": detail[:200]}
        except Exception as error:  # noqa: BLE001 - a crash of the library on hostile input is a failure too
            verdict = {"verified": False, "status": "EXCEPTION", "detail": f"{type(error).__name__}: {error}"[:200]}
        out.write(json.dumps(verdict) + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
