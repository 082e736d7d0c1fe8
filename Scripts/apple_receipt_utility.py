#!/usr/bin/env python3
"""Extracts transaction ids from app receipts with Apple's App Store Server Library (PyPI app-store-server-library).

Usage: apple_receipt_utility.py < receipts.ndjson

Reads NDJSON from stdin, one {"id": "...", "receipt": "<base64>"} per line, and prints one JSON line per input line,
in order: {"id": "...", "transactionId": "..." | null, "error": null | "..."}: what
ReceiptUtility().extract_transaction_id_from_app_receipt returns for the receipt (it checks no signature), or the
exception it raises. Used by AppleReceiptUtilityTests; run it with the interpreter that
Scripts/apple-python-venv.sh prints.
"""
import json
import sys

from appstoreserverlibrary.receipt_utility import ReceiptUtility


def main() -> int:
    utility = ReceiptUtility()
    for line in sys.stdin:
        if not line.strip():
            continue
        item = json.loads(line)
        answer = {"id": item["id"], "transactionId": None, "error": None}
        try:
            value = utility.extract_transaction_id_from_app_receipt(item["receipt"])
            # The library returns whatever ASN.1 value it finds there; a string for real receipts.
            answer["transactionId"] = value if value is None or isinstance(value, str) else repr(value)
        except Exception as error:  # noqa: BLE001 - the library raises ValueError for anything it cannot walk
            answer["error"] = f"{type(error).__name__}: {error}"[:200]
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
