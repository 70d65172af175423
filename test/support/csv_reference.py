"""The CSV reference for test/unit/csv-differential.test.ts: Python's csv module (non-strict, the
excel dialect but for the delimiter), which the batch's quoting rule follows.

stdin: files, each as 1 byte delimiter, 4 bytes little-endian length, the bytes.
stdout: one JSON array, per file {"records": [[field, ...], ...], "unclosed": bool}. Fields are
the bytes as latin-1 (one code point per byte); blank lines ([] records) are left out, as the batch
drops them. "unclosed": the input ends inside a quoted field (what follows is absorbed into it)."""

import csv

csv.field_size_limit(1 << 30)
import io
import json
import struct
import sys


def parse(text, delimiter):
    rows = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=False)
    return [r for r in rows if r]


def main():
    data = sys.stdin.buffer.read()
    out = []
    at = 0
    while at < len(data):
        delimiter = chr(data[at])
        (n,) = struct.unpack_from("<I", data, at + 1)
        raw = data[at + 5 : at + 5 + n]
        # A UTF-8 BOM is not text (Python's utf-8-sig codec, spreadsheets): a quote after it opens the field.
        text = raw[3 if raw.startswith(b"\xef\xbb\xbf") else 0 :].decode("latin-1")
        at += 5 + n
        records = parse(text, delimiter)
        unclosed = len(text) > 0 and len(parse(text + "\nX", delimiter)) == len(records)
        out.append({"records": records, "unclosed": unclosed})
    json.dump(out, sys.stdout)


main()
