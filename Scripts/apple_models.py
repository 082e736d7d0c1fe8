#!/usr/bin/env python3
"""Decodes JSON bodies with the models of Apple's App Store Server Library (PyPI app-store-server-library) and
encodes them back, as that library does.

Usage: apple_models.py

Reads NDJSON from stdin, one {"model": "RealtimeResponseBody" | "AdvancedCommerce...Request" | ..., "json": {...}}
per line, and prints one line per input line, in order: {"json": {...}}, the model's re-encoding (what Apple's
library sends: `None` members left out, UUIDs in lower case, a request's `operation` and `version`), or
{"error": "..."} when the model refuses the body. Used by JWSSigning's tests (AppleModelsTests); run it with the
interpreter that Scripts/apple-python-venv.sh prints.
"""
import importlib
import json
import sys

from appstoreserverlibrary.models.LibraryUtility import _get_cattrs_converter


def round_trip(model: str, body: dict) -> dict:
    module = importlib.import_module("appstoreserverlibrary.models." + model)
    cls = getattr(module, model)
    converter = _get_cattrs_converter(cls)
    return converter.unstructure(converter.structure(body, cls))


def main() -> int:
    for line in sys.stdin:
        if not line.strip():
            continue
        case = json.loads(line)
        try:
            result = {"json": round_trip(case["model"], case["json"])}
        except Exception as error:  # noqa: BLE001 - any refusal is a verdict to report
            result = {"error": "%s: %s" % (type(error).__name__, error)}
        print(json.dumps(result, sort_keys=True), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
