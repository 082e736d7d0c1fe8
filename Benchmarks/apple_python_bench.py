#!/usr/bin/env python3
"""Measures Apple's App Store Server Library for Python (PyPI app-store-server-library) on the token
sets that `jwsverify-benchmark --export-ndjson DIR` wrote: single-threaded tokens/s, median of the
repeats, offline (enable_online_checks=False), with the same root, bundle id, app Apple id and
environment as the Swift benchmark.

Usage: apple_python_bench.py --sets DIR [--set warm --set cold] [--repeats 5] [--seconds 2]
Prints one JSON object: {"library": version, "sets": {name: {"tokensPerSecond": ...,
"tokensPerCPUSecond": ..., ...}}}; the CPU-time rate (time.process_time) is what the comparison uses,
as `openssl speed` and jwsverify-benchmark report CPU-time rates too.
Apple's library keeps no chain cache offline, so every token costs a full chain verification.
"""
import argparse
import json
import os
import statistics
import sys
import time

from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier, VerificationException

try:
    from importlib.metadata import version as package_version

    LIBRARY_VERSION = package_version("app-store-server-library")
except Exception:  # pragma: no cover - metadata missing
    LIBRARY_VERSION = "unknown"


def load_set(directory, config, name):
    entry = config["sets"][name]
    tokens = []
    with open(os.path.join(directory, entry["file"]), encoding="ascii") as handle:
        for line in handle:
            if line.strip():
                item = json.loads(line)
                if item.get("expect", "verified") == "verified":
                    tokens.append(item["token"])
    return entry["kind"], tokens


def method_for(verifier, kind):
    return {
        "transaction": verifier.verify_and_decode_signed_transaction,
        "renewal": verifier.verify_and_decode_renewal_info,
        "app-transaction": verifier.verify_and_decode_app_transaction,
        "notification": verifier.verify_and_decode_notification,
    }[kind]


def measure(verify, tokens, repeats, seconds):
    """Wall-clock and CPU-time (time.process_time) rates of each repeat."""
    rates = []
    cpu_rates = []
    count = len(tokens)
    for _ in range(repeats):
        done = 0
        index = 0
        cpu_start = time.process_time()
        start = time.perf_counter()
        deadline = start + seconds
        while True:
            verify(tokens[index])
            done += 1
            index += 1
            if index == count:
                index = 0
            now = time.perf_counter()
            if now >= deadline:
                break
        rates.append(done / (now - start))
        cpu_rates.append(done / max(time.process_time() - cpu_start, 1e-9))
    return rates, cpu_rates


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sets", required=True, help="directory written by jwsverify-benchmark --export-ndjson")
    parser.add_argument("--set", action="append", dest="names", help="set to measure (default: warm and cold)")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()

    with open(os.path.join(args.sets, "config.json"), encoding="utf-8") as handle:
        config = json.load(handle)
    with open(os.path.join(args.sets, config["root"]), "rb") as handle:
        root = handle.read()
    environment = Environment(config["environment"])
    result = {"library": "app-store-server-library " + LIBRARY_VERSION, "python": sys.version.split()[0], "sets": {}}
    for name in args.names or ["warm", "cold"]:
        if name not in config["sets"]:
            result["sets"][name] = {"error": "set not exported"}
            continue
        kind, tokens = load_set(args.sets, config, name)
        # One verifier for the whole run, as a server would keep it.
        verifier = SignedDataVerifier([root], False, environment, config["bundleId"], config.get("appAppleId"))
        verify = method_for(verifier, kind)
        try:
            verify(tokens[0])
        except VerificationException as error:
            result["sets"][name] = {"error": "Apple's library rejected the first token: %s" % error.status.name}
            continue
        print("apple-python %s: %d tokens, %d x %.1f s" % (name, len(tokens), args.repeats, args.seconds),
              file=sys.stderr)
        rates, cpu_rates = measure(verify, tokens, args.repeats, args.seconds)
        result["sets"][name] = {
            "tokens": len(tokens),
            "tokensPerSecond": statistics.median(rates),
            "tokensPerCPUSecond": statistics.median(cpu_rates),
            "repeatTokensPerSecond": rates,
        }
    json.dump(result, sys.stdout, indent=2, sort_keys=True)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
