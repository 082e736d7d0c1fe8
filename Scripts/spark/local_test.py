#!/usr/bin/env python3
"""Runs Scripts/spark/reverify.py in Spark's local mode and checks every verdict (Scripts/spark-local.sh runs it).

Mints a test PKI, a receipt PKI and an untrusted PKI with `jwsverify mint`; tokens of every kind (Sandbox and
Production), receipts, and bad values (garbage, tampered signatures and payloads, a wrong bundle id, an untrusted
chain, values batch refuses: empty, null, JSON objects and strings, over-long, over 4 MiB). The reference verdict of
each distinct value is `jwsverify batch` run directly. Then:

1. bulk: --lines rows (default 100,000) with distinct ids, Parquet, through the job; every id comes back exactly
   once with its value's reference verdict (verified, code, check, kind, message) and the whole line;
2. ndjson: every value once with awkward ids (quotes, backslashes, DEL, U+2028, bidi controls, emoji, numbers,
   512 bytes), two token columns, NDJSON out;
3. the job fails, writing nothing, when a line is dropped or duplicated, when ids repeat, and when jwsverify
   refuses an option.

Prints one line per check and `spark-local: N passed, N failed`; exit 1 when any failed.
"""

import argparse
import base64
import json
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reverify  # noqa: E402

SIGNED = "2026-06-01T00:00:00Z"
KINDS = ["transaction", "renewal", "app-transaction", "notification", "realtime"]
JOB_OPTIONS = ["--bundle-id", "com.example.jwsverify", "--environment", "Sandbox", "--environment", "Production",
               "--app-apple-id", "1234"]


def run(command, **kwargs):
    return subprocess.run(command, check=True, capture_output=True, **kwargs).stdout.decode()


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def mint(binary, work):
    """The distinct values: (name, value, expected (verified, code, kind) or None when only the reference says)."""
    pki, rpki, other = (os.path.join(work, name) for name in ("pki", "rpki", "other"))
    run([binary, "mint", "pki", "--out", pki, "--seed", "1", "--force"])
    run([binary, "mint", "pki", "--out", other, "--seed", "2", "--force"])
    run([binary, "mint", "pki", "--receipt", "--out", rpki, "--force"])

    def tokens(kind, *options, pki_dir=pki, count=2):
        return run([binary, "mint", "token", "--pki", pki_dir, "--kind", kind, "--signed-date", SIGNED,
                    "--count", str(count), *options]).split()

    def receipt(*options):
        return run([binary, "mint", "receipt", "--pki", rpki, "--created", SIGNED, *options]).strip()

    values = []
    for kind in KINDS:
        for index, token in enumerate(tokens(kind)):
            values.append(("%s-sandbox-%d" % (kind, index), token, (True, None, kind)))
        for index, token in enumerate(tokens(kind, "--environment", "Production", "--app-apple-id", "1234", count=1)):
            values.append(("%s-production-%d" % (kind, index), token, (True, None, kind)))
    values.append(("notification-did-renew", tokens("notification", "--type", "DID_RENEW", count=1)[0], (True, None, "notification")))
    values.append(("notification-test", tokens("notification", "--type", "TEST", count=1)[0], (True, None, "notification")))
    monthly = "com.example.jwsverify.premium.monthly"
    values.append(("receipt-sandbox", receipt("--purchase", monthly), (True, None, "receipt")))
    values.append(("receipt-no-purchase", receipt(), (True, None, "receipt")))
    values.append(("receipt-production", receipt("--environment", "Production", "--app-apple-id", "1234", "--purchase", "com.example.coins"), (True, None, "receipt")))
    values.append(("receipt-wrong-bundle", receipt("--bundle-id", "com.other.app"), (False, "invalidAppIdentifier", "receipt")))
    der = bytearray(base64.b64decode(receipt("--purchase", monthly)))
    der[-10] ^= 0x01  # in the RSA signature, the last element of the SignerInfo
    values.append(("receipt-tampered", base64.b64encode(bytes(der)).decode(), (False, None, None)))

    for kind in ("transaction", "app-transaction", "notification"):
        values.append(("%s-wrong-bundle" % kind, tokens(kind, "--bundle-id", "com.other.app", count=1)[0], (False, "invalidAppIdentifier", kind)))
    values.append(("transaction-untrusted", tokens("transaction", pki_dir=other, count=1)[0], (False, "untrustedChain", None)))
    values.append(("transaction-production-wrong-app", tokens("app-transaction", "--environment", "Production", "--app-apple-id", "99", count=1)[0], (False, "invalidAppIdentifier", "app-transaction")))
    header, payload, signature = tokens("transaction", count=1)[0].split(".")
    middle = len(signature) // 2
    flipped = signature[:middle] + ("A" if signature[middle] != "A" else "B") + signature[middle + 1:]
    values.append(("transaction-tampered-signature", ".".join([header, payload, flipped]), (False, "invalidSignature", None)))
    changed = json.loads(unb64url(payload))
    changed["quantity"] = 7
    values.append(("transaction-tampered-payload", ".".join([header, b64url(json.dumps(changed).encode()), signature]), (False, "invalidSignature", None)))

    transaction = values[0][1]
    bad = [
        ("garbage", "not a token at all", "malformedToken"),
        ("garbage-binary", "\x00\x01\x02\xff\ufffd\u2028\u202e", "malformedToken"),
        ("empty", "", "malformedToken"),
        ("null", None, "malformedToken"),
        ("whitespace-inside", " " + transaction + "\n", "malformedToken"),
        ("json-object", json.dumps({"signedPayload": transaction}), "malformedToken"),
        ("json-string", json.dumps(transaction), "malformedToken"),
        ("over-token-limit", "A" * 70000, "malformedToken"),
        ("two-segments", "eyJhbGciOiJFUzI1NiJ9.e30", "malformedToken"),
    ]
    values += [(name, value, (False, code, None)) for name, value, code in bad]
    return values, [os.path.join(pki, "root.der"), os.path.join(rpki, "root.der")]


def reference(binary, values, roots):
    """`jwsverify batch` run directly on each distinct value once: name -> its result line as a dict."""
    lines = "".join(reverify.batch_line(name, value) + "\n" for name, value, _ in values)
    command = [binary, "batch", *sum((["--root", root] for root in roots), []), *JOB_OPTIONS]
    finished = subprocess.run(command, input=lines.encode(), capture_output=True)
    results = [json.loads(line) for line in finished.stdout.decode().splitlines()]
    assert len(results) == len(values), "reference: %d results for %d values" % (len(results), len(values))
    return {result["id"]: result for result in results}


AWKWARD_IDS = ['quote"back\\slash', "del\x7f", "line\u2028separator", "bidi\u202eoverride", "emoji\U0001F600",
               "e\u0301", "00017", "1e400", "tab\tnew\nline", "x" * 512, " leading space", "\u00e9t\u00e9"]


class Checks:
    def __init__(self):
        self.passed, self.failed = 0, 0

    def check(self, name, condition, detail=""):
        if condition:
            self.passed += 1
            print("passed  %s" % name, flush=True)
        else:
            self.failed += 1
            print("FAILED  %s %s" % (name, detail), flush=True)


def tree_cpu_seconds():
    """User + system CPU seconds of this process's descendants and itself, with their reaped children
    (/proc/<pid>/stat utime, stime, cutime, cstime): jwsverify's processes are reaped by the Python workers,
    the workers by their daemon, all under the JVM that this process started."""
    parents, times = {}, {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry)] = int(fields[1])
        times[int(entry)] = sum(int(value) for value in fields[11:15])
    root, total = os.getpid(), 0
    for pid in times:
        walk = pid
        while walk not in (0, 1, root) and walk in parents:
            walk = parents[walk]
        if walk == root:
            total += times[pid]
    return total / os.sysconf("SC_CLK_TCK")


def verdict_mismatches(spark, output, output_format, id_to_name, expected):
    """Rows of the job's output whose verdict or echoed id differs from the reference, as (id, problem)."""
    from pyspark.sql import functions as F

    frame = spark.read.parquet(output) if output_format == "parquet" else spark.read.json(output)
    names = spark.createDataFrame(list(id_to_name.items()), "id string, name string")
    fields = ["verified", "code", "check", "kind", "message"]
    reference_frame = spark.createDataFrame(
        [(name, *[expected[name].get(key) for key in fields]) for name in expected],
        "name string, verified boolean, code string, check string, kind string, message string")
    joined = (frame.select(F.col("id").cast("string").alias("id"), "verdict")
              .join(names, "id", "full_outer").join(reference_frame, "name", "left"))
    problems = []
    condition = F.col("verdict").isNull() | F.col("name").isNull() | (F.get_json_object("verdict.result", "$.id") != F.col("id"))
    for key in fields:
        condition = condition | ~F.col("verdict." + key).eqNullSafe(F.col(key))
    for row in joined.where(condition).limit(10).collect():
        problems.append((row["id"], row["name"], row["verdict"] and row["verdict"]["code"]))
    return problems, frame


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--lines", type=int, default=100000)
    parser.add_argument("--partitions", type=int, default=4)
    parser.add_argument("--master", default="local[2]")
    arguments = parser.parse_args()
    binary, work = os.path.abspath(arguments.binary), os.path.abspath(arguments.work)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    checks = Checks()

    started = time.time()
    values, roots = mint(binary, work)
    expected = reference(binary, values, roots)
    for name, _, want in values:
        got = expected[name]
        verified, code, kind = want
        checks.check("reference %s" % name,
                     got["verified"] == verified and (code is None or got["code"] == code) and (kind is None or got["kind"] == kind),
                     "got %s %s %s" % (got["verified"], got["code"], got["kind"]))
    print("minted %d distinct values in %.1f s" % (len(values), time.time() - started), flush=True)
    options = sum((["--root", root] for root in roots), []) + JOB_OPTIONS

    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F

    spark = (SparkSession.builder.master(arguments.master).appName("jwsverify spark-local")
             .config("spark.driver.memory", "2g").config("spark.ui.enabled", "false")
             .config("spark.ui.showConsoleProgress", "false")
             .config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1")
             .config("spark.sql.shuffle.partitions", str(arguments.partitions)).getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")

    # 1. bulk: --lines rows in Parquet, each id once, every value's share about the same.
    started = time.time()
    base = spark.createDataFrame([(index, name, value) for index, (name, value, _) in enumerate(values)],
                                 "base int, name string, token string")
    rows = spark.range(0, arguments.lines, numPartitions=arguments.partitions).select(
        (F.col("id") % len(values)).cast("int").alias("base"), F.col("id").alias("n"))
    bulk = (rows.join(F.broadcast(base), "base")
            .select(F.concat_ws("-", "name", F.col("n").cast("string")).alias("id"), "token", F.col("n").alias("row")))
    bulk_input = os.path.join(work, "bulk.parquet")
    bulk.write.parquet(bulk_input)
    id_to_name = {"%s-%d" % (values[n % len(values)][0], n): values[n % len(values)][0] for n in range(arguments.lines)}
    print("wrote %d rows to %s in %.1f s" % (arguments.lines, bulk_input, time.time() - started), flush=True)

    output = os.path.join(work, "bulk-verdicts.parquet")
    started, cpu = time.time(), tree_cpu_seconds()
    status = reverify.main(["--binary", binary, "--input", bulk_input, "--output", output, "--", *options], spark=spark)
    wall, cpu = time.time() - started, tree_cpu_seconds() - cpu
    checks.check("bulk job exits 0", status == 0, "exit %d" % status)
    print("bulk: %d rows in %.1f s wall, %.1f CPU-seconds of the driver, JVM, Python workers and jwsverify: "
          "%.0f rows per CPU-second" % (arguments.lines, wall, cpu, arguments.lines / cpu if cpu else 0), flush=True)
    if status != 0:
        spark.stop()
        print("spark-local: %d passed, %d failed" % (checks.passed, checks.failed + 1))
        return 1
    problems, frame = verdict_mismatches(spark, output, "parquet", id_to_name, expected)
    checks.check("bulk: every id once with its reference verdict and its id echoed", not problems, str(problems))
    checks.check("bulk: the output has as many rows as the input", frame.count() == arguments.lines)
    checks.check("bulk: the token column is dropped", "token" not in frame.columns and "row" in frame.columns)
    sample = frame.where(F.col("row") < 2 * len(values)).select("id", "verdict.result").collect()
    whole = all({k: v for k, v in json.loads(row["result"]).items() if k not in ("line", "id")}
                == {k: v for k, v in expected[id_to_name[row["id"]]].items() if k not in ("line", "id")} for row in sample)
    checks.check("bulk: whole result lines equal the reference's but for line and id (%d rows)" % len(sample), whole)

    # 2. ndjson: awkward ids, numbers as ids, a second token column, a value over 4 MiB, NDJSON out.
    ndjson_input = os.path.join(work, "awkward.ndjson")
    id_to_name, lines = {}, []
    for index, (name, value, _) in enumerate(values):
        identifier = AWKWARD_IDS[index] if index < len(AWKWARD_IDS) else "%s/%d" % (name, index)
        id_to_name[identifier] = name
        column = "receipt-data" if name.startswith("receipt") else "token"
        lines.append(json.dumps({"id": identifier, column: value} if value is not None else {"id": identifier}))
    lines.append('{"id": 9223372036854775808, "token": "not a token at all"}')
    lines.append('{"id": 17, "token": "not a token at all"}')
    id_to_name.update({"9223372036854775808": "garbage", "17": "garbage"})
    lines.append(json.dumps({"id": "over-4-MiB", "token": "M" * (reverify.VALUE_LIMIT + 1)}))
    with open(ndjson_input, "w") as handle:
        handle.write("\n".join(lines) + "\n")
    output = os.path.join(work, "awkward-verdicts")
    status = reverify.main(["--binary", binary, "--input", ndjson_input, "--output", output, "--output-format", "ndjson",
                            "--token-column", "token", "--token-column", "receipt-data", "--partitions", "3", "--", *options], spark=spark)
    checks.check("ndjson job exits 0", status == 0, "exit %d" % status)
    expected_garbage = dict(expected)
    problems, frame = verdict_mismatches(spark, output, "ndjson", {k: v for k, v in id_to_name.items()}, expected_garbage)
    problems = [problem for problem in problems if problem[0] != "over-4-MiB"]
    checks.check("ndjson: every awkward id once with its reference verdict", not problems, str(problems))
    over = frame.where(F.col("id") == "over-4-MiB").select("verdict.*").collect()
    checks.check("ndjson: a value over 4 MiB is malformedToken, not sent", len(over) == 1 and over[0]["code"] == "malformedToken"
                 and "not sent to jwsverify" in over[0]["message"], str(over))

    # 3. failures: nothing written, the reason named.
    small_input = os.path.join(work, "small.ndjson")
    with open(small_input, "w") as handle:
        for index in range(40):
            handle.write(json.dumps({"id": "s%d" % index, "token": values[index % len(values)][1]}) + "\n")
    for name, script, counts in [
        ("dropped", "sed 1d", {"missing": 2}),
        ("duplicated", "sed 1p", {"duplicated": 2}),
    ]:
        wrapper = os.path.join(work, "jwsverify-" + name)
        with open(wrapper, "w") as handle:
            handle.write('#!/bin/sh\n"%s" "$@" | %s\n' % (binary, script))
        os.chmod(wrapper, 0o755)
        output = os.path.join(work, name)
        job = reverify.parse_arguments(["--binary", wrapper, "--input", small_input, "--output", output,
                                        "--partitions", "2", "--no-preflight", "--", *options])
        try:
            reverify.run(spark, job)
            error = None
        except reverify.ExactlyOnceError as caught:
            error = caught
        checks.check("a %s line fails the job and writes nothing" % name,
                     error is not None and all(error.counts[key] == value for key, value in counts.items())
                     and not os.path.exists(output), repr(error))
    repeated = os.path.join(work, "repeated.ndjson")
    with open(repeated, "w") as handle:
        handle.write('{"id": "a", "token": "x"}\n{"id": "a", "token": "y"}\n')
    status = reverify.main(["--binary", binary, "--input", repeated, "--output", os.path.join(work, "repeated-out"), "--", *options], spark=spark)
    checks.check("repeated ids fail the job (exit 1) and write nothing", status == 1 and not os.path.exists(os.path.join(work, "repeated-out")))
    status = reverify.main(["--binary", binary, "--input", small_input, "--output", os.path.join(work, "refused-out"),
                            "--", "--environment", "Nowhere"], spark=spark)
    checks.check("an option jwsverify refuses fails the preflight (exit 1)", status == 1)
    status = reverify.main(["--binary", binary, "--input", small_input, "--output", os.path.join(work, "quiet-out"), "--", "-q"], spark=spark)
    checks.check("--quiet is refused (exit 2)", status == 2)

    spark.stop()
    print("spark-local: %d passed, %d failed" % (checks.passed, checks.failed))
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
