"""Verifies tokens with Apple's App Store Server Library for DifferentialTests.swift.

Reads NDJSON from stdin, one {"kind": ..., "token": ...} per line (kind: transaction, renewal,
app-transaction, notification, realtime) and prints one JSON verdict per line, in order:
{"verified": true|false, "status": "OK" | VerificationStatus name | "EXCEPTION", "detail": "..."}.

The verifier is configured as TestVectors/generated's manifest: root.der, bundle id
com.example.jwsverify, app Apple id 1234, environment Sandbox, online checks off.

Usage: python apple_verify.py ROOT_DER < tokens.ndjson > verdicts.ndjson
"""

import json
import sys

from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier, VerificationException


def main() -> None:
    with open(sys.argv[1], "rb") as file:
        root = file.read()
    verifier = SignedDataVerifier([root], False, Environment.SANDBOX, "com.example.jwsverify", 1234)
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
        case = json.loads(line)
        try:
            methods[case["kind"]](case["token"])
            verdict = {"verified": True, "status": "OK", "detail": ""}
        except VerificationException as error:
            cause = error.__cause__
            detail = f"{type(cause).__name__}: {cause}" if cause is not None else ""
            verdict = {"verified": False, "status": error.status.name, "detail": detail[:200]}
        except Exception as error:  # noqa: BLE001 - any other failure is "not verified" too
            verdict = {"verified": False, "status": "EXCEPTION", "detail": f"{type(error).__name__}: {error}"[:200]}
        out.write(json.dumps(verdict) + "\n")
    out.flush()


if __name__ == "__main__":
    main()
