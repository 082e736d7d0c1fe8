#!/usr/bin/env python3
"""Re-verify App Store signed tokens and StoreKit 1 app receipts in bulk on Spark with `jwsverify batch`.

Reads a table (NDJSON or Parquet) with an id column and a column of tokens or receipts, pipes each partition
through `jwsverify batch` (`RDD.pipe`), fails unless every input row came back exactly once, and writes the input
joined with its verdict by id. Docs/Bulk-reverification.md explains the job and how it was measured.

    spark-submit Scripts/spark/reverify.py --binary ./jwsverify \\
        --input purchases.parquet --output verdicts.parquet \\
        -- --bundle-id com.example.app --environment Production --app-apple-id 1234567890

Everything after `--` goes to `jwsverify batch` unchanged, except that the files named by `--root` and
`--xcode-certificate` are shipped to the executors with the binary and named there by their executor path.
Exit status: 0 written; 1 not written (a row did not come back exactly once, jwsverify failed); 2 usage error.
"""

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Optional, Tuple

# `jwsverify batch` keeps an object line of at most 4 MiB + 4 KiB (Docs/CLI.md, "Receipts in batch": the
# receipt limit plus room for the wrapper); a longer line comes back without its id. A value over 4 MiB is not
# sent: its row gets the verdict batch gives such a line (malformedToken, check format), written by this job
# and saying so. An id is at most ID_LIMIT bytes of UTF-8, so that escaped (at most 6 bytes a byte) it fits
# the 4 KiB of room with the wrapper.
VALUE_LIMIT = 4 * 1024 * 1024
ID_LIMIT = 512

# The `jwsverify batch` options that take a value (Docs/CLI.md, "Options"), and those whose value is a file
# that the executors need.
VALUE_OPTIONS = {"--root", "--bundle-id", "--app-apple-id", "--environment", "--xcode-certificate", "--at", "--kind"}
FILE_OPTIONS = {"--root", "--xcode-certificate"}
# Options that would break the job's reading of batch's output, and why.
REFUSED_OPTIONS = {
    "-q": "batch would write no result line",
    "--quiet": "batch would write no result line",
    "--report": "the job reads the compact line (--report compact, the default)",
    "--fields": "the job reads the compact line's id, verdict and identifiers; select columns in the output instead",
    "-h": "run 'jwsverify batch --help' instead",
    "--help": "run 'jwsverify batch --help' instead",
    "--version": "run 'jwsverify --version' instead",
}

# Internal column names; an input column of the same name is refused.
KEY = "_jwsverify_id"
VALUE = "_jwsverify_value"
VERDICT = "verdict"

# The members of batch's compact line (`schemaVersion` 2) kept as columns of the verdict, with their types; the
# whole line is kept too, as `verdict.result`. Each is read as data by Spark's JSON reader (`from_json`), never
# evaluated.
VERDICT_FIELDS = [
    ("verified", "boolean"),
    ("code", "string"),
    ("check", "string"),
    ("message", "string"),
    ("underlying", "string"),
    ("retryable", "boolean"),
    ("kind", "string"),
    ("environment", "string"),
    ("bundleId", "string"),
    ("transactionId", "string"),
    ("originalTransactionId", "string"),
    ("productId", "string"),
]

PREFLIGHT_ID = "jwsverify-preflight"


class JobError(Exception):
    """The job cannot go on; the message says why. Exit status 1."""


class UsageError(JobError):
    """The job's arguments are wrong. Exit status 2."""


class ExactlyOnceError(JobError):
    """A row did not come back from `jwsverify batch` exactly once; nothing was written."""

    def __init__(self, message: str, counts: Dict[str, int]):
        super().__init__(message)
        self.counts = counts


@dataclass
class ShippedFile:
    """A file that the executors need (the binary, a root): shipped with `SparkContext.addFile`."""

    path: str

    @property
    def name(self) -> str:
        return os.path.basename(self.path)


@dataclass
class Options:
    input: str
    output: str
    input_format: str = "ndjson"
    output_format: str = "parquet"
    id_column: str = "id"
    token_columns: List[str] = field(default_factory=lambda: ["token"])
    binary: Optional[str] = None
    executor_binary: Optional[str] = None
    partitions: Optional[int] = None
    keep_tokens: bool = False
    overwrite: bool = False
    preflight: bool = True
    batch_arguments: List[Tuple[str, object]] = field(default_factory=list)


def parse_arguments(argv: List[str]) -> Options:
    """Parses the job's arguments; those after `--` are `jwsverify batch`'s."""
    own, batch = (argv[: argv.index("--")], argv[argv.index("--") + 1 :]) if "--" in argv else (argv, [])
    parser = argparse.ArgumentParser(
        prog="reverify.py",
        description="Re-verify tokens and app receipts with jwsverify batch on Spark; "
        "arguments after '--' go to 'jwsverify batch'.",
    )
    parser.add_argument("--input", required=True, help="NDJSON or Parquet file or directory (any Spark path)")
    parser.add_argument("--input-format", choices=["ndjson", "parquet"], help="default: parquet when --input ends in .parquet, else ndjson")
    parser.add_argument("--output", required=True, help="where the verdict table is written (a Spark output directory)")
    parser.add_argument("--output-format", choices=["parquet", "ndjson"], default="parquet")
    parser.add_argument("--id-column", default="id", help="unique, non-null, at most %d bytes as text (default: id)" % ID_LIMIT)
    parser.add_argument(
        "--token-column", action="append", dest="token_columns",
        help="column holding the token or base64 receipt; repeat for several (the first non-null is used; default: token)",
    )
    parser.add_argument("--binary", help="jwsverify on the driver, shipped to the executors (default: jwsverify on PATH)")
    parser.add_argument("--executor-binary", help="jwsverify's path on the executors when it is installed there: nothing is shipped")
    parser.add_argument("--partitions", type=int, help="repartition the input into this many partitions (one jwsverify process each)")
    parser.add_argument("--keep-tokens", action="store_true", help="keep the token columns in the output (default: dropped)")
    parser.add_argument("--overwrite", action="store_true", help="replace the output if it exists")
    parser.add_argument("--no-preflight", dest="preflight", action="store_false", help="do not run jwsverify on the driver first")
    parsed = parser.parse_args(own)
    if parsed.partitions is not None and parsed.partitions < 1:
        parser.error("--partitions must be at least 1")
    input_format = parsed.input_format or ("parquet" if parsed.input.rstrip("/").endswith(".parquet") else "ndjson")
    try:
        batch_arguments = split_batch_arguments(batch)
    except UsageError as error:
        parser.error(str(error))
    return Options(
        input=parsed.input, output=parsed.output, input_format=input_format, output_format=parsed.output_format,
        id_column=parsed.id_column, token_columns=parsed.token_columns or ["token"], binary=parsed.binary,
        executor_binary=parsed.executor_binary, partitions=parsed.partitions, keep_tokens=parsed.keep_tokens,
        overwrite=parsed.overwrite, preflight=parsed.preflight, batch_arguments=batch_arguments,
    )


def split_batch_arguments(arguments: List[str]) -> List[Tuple[str, object]]:
    """`jwsverify batch`'s arguments as (name, value) pairs; a file option's value is a ``ShippedFile``.

    Options that would break the reading of batch's output are refused; anything else is left to jwsverify,
    which judges it in the preflight (or, without one, on the executors: then no row comes back and the
    exactly-once check fails).
    """
    pairs: List[Tuple[str, object]] = []
    index = 0
    while index < len(arguments):
        argument = arguments[index]
        name, equals, inline = argument.partition("=") if argument.startswith("--") else (argument, "", "")
        if name in REFUSED_OPTIONS:
            raise UsageError("'%s' cannot be passed to jwsverify batch here: %s" % (name, REFUSED_OPTIONS[name]))
        if name in VALUE_OPTIONS:
            if equals:
                value: object = inline
            elif index + 1 < len(arguments):
                index += 1
                value = arguments[index]
            else:
                raise UsageError("'%s' needs a value" % name)
            pairs.append((name, ShippedFile(os.path.abspath(str(value))) if name in FILE_OPTIONS else value))
        else:
            pairs.append((argument, None))
        index += 1
    return pairs


def staged(file: ShippedFile) -> ShippedFile:
    """A copy of `file` named by its content (`<sha-256 prefix>-root.der`) in one directory per user:
    `SparkContext.addFile` ships files by name and refuses a second path under a name it has, and two roots
    are often both `root.der`. The same content is the same path, so a session may run the job again."""
    import hashlib
    import shutil
    import tempfile

    if not os.path.isfile(file.path):
        raise UsageError("no file '%s'" % file.path)
    digest = hashlib.sha256()
    with open(file.path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    directory = os.path.join(tempfile.gettempdir(), "jwsverify-reverify-%d" % os.getuid())
    os.makedirs(directory, mode=0o700, exist_ok=True)
    copy = os.path.join(directory, "%s-%s" % (digest.hexdigest()[:16], file.name))
    if not os.path.exists(copy):
        partial = copy + ".%d" % os.getpid()
        shutil.copyfile(file.path, partial)
        os.chmod(partial, os.stat(file.path).st_mode & 0o755 | 0o400)
        os.replace(partial, copy)
    return ShippedFile(copy)


def render_batch_command(binary: str, pairs: List[Tuple[str, object]], path_of) -> List[str]:
    """`binary batch …` with each shipped file named by `path_of(ShippedFile)`."""
    command = [binary, "batch"]
    for name, value in pairs:
        command.append(name)
        if isinstance(value, ShippedFile):
            command.append(path_of(value))
        elif value is not None:
            command.append(str(value))
    return command


def json_text(text: str) -> str:
    """`text` as a JSON string that `jwsverify batch` echoes byte for byte.

    Every character outside printable ASCII is a `\\u` escape (DEL too: batch refuses an id holding a raw
    DEL, C1 control, U+2028, U+2029 or bidirectional formatting character, Docs/CLI.md), so no id is ever
    refused and no line ever holds a line break.
    """
    return json.dumps(text, ensure_ascii=True).replace("\x7f", "\\u007f")


def batch_line(key: str, value: Optional[str]) -> str:
    """The `jwsverify batch` input line of one row: `{"id": …, "token": …}`, or `{"id": …}` when the value is
    null (batch answers malformedToken, keeping the id). A receipt's base64 in `token` is verified as a receipt."""
    if value is None:
        return '{"id":%s}' % json_text(key)
    return '{"id":%s,"token":%s}' % (json_text(key), json_text(value))


def executor_path_for(spark_context):
    """How the executors name a shipped file: in local mode the driver's SparkFiles directory (the driver is the
    executor); on a cluster the executor's working directory, where Spark puts files added with `addFile` or
    `--files` (SparkFiles' root on an executor is `.`)."""
    from pyspark import SparkFiles

    if re.fullmatch(r"local(\[.*\])?", spark_context.master):
        return lambda shipped: SparkFiles.get(shipped.name)
    return lambda shipped: "./" + shipped.name


def preflight(command: List[str]) -> None:
    """Runs `jwsverify batch` on the driver with one line, so that a missing binary or an option jwsverify
    refuses (exit 64) stops the job before any executor starts."""
    line = batch_line(PREFLIGHT_ID, None) + "\n"
    try:
        finished = subprocess.run(command, input=line.encode(), capture_output=True, timeout=300)
    except OSError as error:
        raise JobError("cannot run %s on the driver: %s (pass --no-preflight when only the executors can)" % (command[0], error))
    errors = finished.stderr.decode("utf-8", "replace").strip()
    if finished.returncode not in (0, 1):
        raise JobError("jwsverify batch exited %d on the driver: %s" % (finished.returncode, errors))
    lines = finished.stdout.decode("utf-8", "replace").splitlines()
    try:
        answered = len(lines) == 1 and json.loads(lines[0]).get("id") == PREFLIGHT_ID
    except ValueError:
        answered = False
    if not answered:
        raise JobError("jwsverify batch did not answer the preflight line once with its id (a file operand?): %r" % lines[:3])


def verdict_schema():
    from pyspark.sql import types as T

    kinds = {"boolean": T.BooleanType(), "string": T.StringType()}
    return T.StructType([T.StructField("id", T.StringType())] + [T.StructField(name, kinds[kind]) for name, kind in VERDICT_FIELDS])


def read_input(spark, options: Options):
    """The input table. NDJSON columns are read as text (`primitivesAsString`): an id is compared and written
    as written, never through a float. Parquet columns keep their types; the id is compared as text."""
    if options.input_format == "parquet":
        return spark.read.parquet(options.input)
    return spark.read.option("primitivesAsString", "true").json(options.input)


def check_columns(frame, options: Options) -> None:
    from pyspark.sql import types as T

    columns = {column.name: column.dataType for column in frame.schema.fields}
    for name in [options.id_column] + options.token_columns:
        if name not in columns:
            raise UsageError("the input has no column '%s'; it has: %s" % (name, ", ".join(sorted(columns))))
    for name in options.token_columns:
        if not isinstance(columns[name], T.StringType):
            raise UsageError(
                "column '%s' is %s, not text: pass tokens and base64 receipts as strings "
                "(receipt files' bytes: base64(%s) in Spark SQL)" % (name, columns[name].simpleString(), name))
    for name in (KEY, VALUE, VERDICT):
        if name in columns:
            raise UsageError("the input already has a column '%s', which the job writes" % name)


def check_ids(keys, total: int) -> None:
    """Fails unless every id is present, at most ID_LIMIT bytes, and unique."""
    from pyspark.sql import functions as F

    row = keys.agg(
        F.count_if(F.col(KEY).isNull()).alias("missing"),
        F.count_if(F.octet_length(KEY) > ID_LIMIT).alias("long"),
    ).first()
    if row["missing"]:
        raise JobError("%d of %d input rows have no id (or, in NDJSON, are not JSON objects)" % (row["missing"], total))
    if row["long"]:
        raise JobError("%d ids are longer than %d bytes" % (row["long"], ID_LIMIT))
    repeated = keys.groupBy(KEY).count().where(F.col("count") > 1)
    count = repeated.count()
    if count:
        examples = [r[KEY] for r in repeated.limit(5).collect()]
        raise JobError("%d ids appear more than once in the input, e.g. %s: the verdicts are joined by id" % (count, examples))


def verify(spark, keyed, options: Options, command: List[str]):
    """The verdict of every row: (KEY, verdict struct), one row per result line of `jwsverify batch`."""
    from pyspark.sql import functions as F

    size = F.octet_length(VALUE)
    sent = keyed.where(size.isNull() | (size <= VALUE_LIMIT))
    if options.partitions:
        sent = sent.repartition(options.partitions)
    lines = sent.rdd.map(lambda row: batch_line(row[0], row[1]))
    results = lines.pipe(shlex.join(command))
    parsed = spark.createDataFrame(results.map(lambda line: (line,)), "result string").select(
        F.from_json("result", verdict_schema()).alias("v"), "result")
    piped = parsed.select(
        F.col("v.id").alias(KEY),
        F.struct(*[F.col("v." + name).alias(name) for name, _ in VERDICT_FIELDS], F.col("result")).alias(VERDICT))

    message = F.format_string(
        "the value is %d bytes, over jwsverify batch's line limit (4 MiB for a receipt, 64 KiB for a token): "
        "not sent to jwsverify (reverify.py)", size)
    fields = {name: F.lit(None).cast(kind) for name, kind in VERDICT_FIELDS}
    fields.update(verified=F.lit(False), code=F.lit("malformedToken"), check=F.lit("format"), message=message,
                  retryable=F.lit(False))
    verdict = F.struct(*[fields[name].alias(name) for name, _ in VERDICT_FIELDS])
    oversized = keyed.where(size > VALUE_LIMIT).select(
        KEY, F.struct(*[verdict[name].alias(name) for name, _ in VERDICT_FIELDS], F.to_json(verdict).alias("result")).alias(VERDICT))
    return piped.unionByName(oversized)


def check_exactly_once(keys, verdicts) -> Dict[str, int]:
    """Fails unless each input id has exactly one verdict and each verdict an input id. Returns the counts."""
    from pyspark.sql import functions as F

    answered = verdicts.groupBy(KEY).agg(F.count("*").alias("n"))
    joined = keys.withColumn("sent", F.lit(True)).join(answered, KEY, "full_outer")
    row = joined.agg(
        F.count_if(F.col("n").isNull()).alias("missing"),
        F.count_if(F.col("n") > 1).alias("duplicated"),
        F.coalesce(F.sum(F.when(F.col("sent").isNull(), F.col("n"))), F.lit(0)).alias("unexpected"),
    ).first()
    counts = {name: int(row[name]) for name in ("missing", "duplicated", "unexpected")}
    if any(counts.values()):
        examples = {
            "missing": [r[KEY] for r in joined.where(F.col("n").isNull()).limit(5).collect()],
            "duplicated": [r[KEY] for r in joined.where(F.col("n") > 1).limit(5).collect()],
            "unexpected": [r[KEY] for r in joined.where(F.col("sent").isNull()).limit(5).collect()],
        }
        raise ExactlyOnceError(
            "not every row came back from jwsverify batch exactly once, nothing was written: "
            "%(missing)d ids without a verdict, %(duplicated)d with more than one, " % counts
            + "%(unexpected)d verdicts for no input id (without an id when it is None); " % counts
            + "examples: %s. The executors' standard error holds jwsverify's messages." % examples,
            counts)
    return counts


def run(spark, options: Options) -> Dict[str, object]:
    """Runs the job on `spark`. Returns the row count and the counts per (verified, code)."""
    from pyspark import StorageLevel
    from pyspark.sql import functions as F

    context = spark.sparkContext
    if __name__ != "__main__":
        # Imported (by a test or another job): the functions that run on the executors travel by value, so
        # that the executors need not import this file.
        from pyspark import cloudpickle

        cloudpickle.register_pickle_by_value(sys.modules[__name__])
    if options.executor_binary:
        executor_binary = options.executor_binary
        driver_binary = options.binary or executor_binary
    else:
        driver_binary = os.path.abspath(options.binary) if options.binary else _which("jwsverify")
    batch_arguments = [(name, staged(value) if isinstance(value, ShippedFile) else value)
                       for name, value in options.batch_arguments]
    shipped = [value for _, value in batch_arguments if isinstance(value, ShippedFile)]
    if not options.executor_binary:
        binary = staged(ShippedFile(driver_binary))
        shipped = [binary] + shipped
    for file in shipped:
        context.addFile(file.path)
    path_of = executor_path_for(context)
    if not options.executor_binary:
        executor_binary = path_of(binary)
    command = render_batch_command(executor_binary, batch_arguments, path_of)
    if options.preflight:
        preflight(render_batch_command(driver_binary, batch_arguments, lambda shipped: shipped.path))

    frame = read_input(spark, options)
    check_columns(frame, options)
    value = F.coalesce(*[F.col(name) for name in options.token_columns])
    keyed = frame.select(F.col(options.id_column).cast("string").alias(KEY), value.alias(VALUE))
    keys = keyed.select(KEY).persist(StorageLevel.MEMORY_AND_DISK)
    total = keys.count()
    check_ids(keys, total)

    verdicts = verify(spark, keyed, options, command).persist(StorageLevel.MEMORY_AND_DISK)
    check_exactly_once(keys, verdicts)

    dropped = [] if options.keep_tokens else options.token_columns
    output = (frame.withColumn(KEY, F.col(options.id_column).cast("string"))
              .join(verdicts, KEY).drop(KEY, *dropped))
    writer = output.write.mode("overwrite" if options.overwrite else "errorifexists")
    (writer.parquet if options.output_format == "parquet" else writer.json)(options.output)

    counts = {
        (row["verified"], row["code"]): row["count"]
        for row in verdicts.groupBy(F.col(VERDICT + ".verified").alias("verified"), F.col(VERDICT + ".code").alias("code")).count().collect()
    }
    verdicts.unpersist()
    keys.unpersist()
    return {"rows": total, "counts": counts}


def _which(name: str) -> str:
    from shutil import which

    found = which(name)
    if not found:
        raise UsageError("no %s on PATH: pass --binary (the static build of Docs/Bulk-reverification.md)" % name)
    return found


def main(argv: Optional[List[str]] = None, spark=None) -> int:
    """Parses `argv`, runs the job (on `spark`, else a new session) and prints a summary. Returns the exit status."""
    try:
        options = parse_arguments(sys.argv[1:] if argv is None else argv)
    except SystemExit as exit:
        return int(exit.code or 0)
    own_session = spark is None
    if own_session:
        from pyspark.sql import SparkSession

        spark = SparkSession.builder.appName("jwsverify reverify").getOrCreate()
    try:
        summary = run(spark, options)
    except UsageError as error:
        print("reverify.py: %s" % error, file=sys.stderr)
        return 2
    except JobError as error:
        print("reverify.py: %s" % error, file=sys.stderr)
        return 1
    finally:
        if own_session:
            spark.stop()
    print("reverify.py: %d rows, each verdict written once to %s" % (summary["rows"], options.output))
    for (verified, code), count in sorted(summary["counts"].items(), key=lambda item: (not item[0][0], str(item[0][1]))):
        print("  %s: %d" % ("verified" if verified else code, count))
    return 0


if __name__ == "__main__":
    sys.exit(main())
