#!/usr/bin/env python3
"""make_seeds.py - builds small seed corpora for the fuzz targets from the
sqllogictest files (tests/sql/**/*.test) and, for manifests, from tables
created with sqe-cli.

    tests/fuzz/make_seeds.py [--cli build/sqe-cli] [--out DIR] [--max N]

Writes seed-<hash> files into DIR/<target>/ (default: a temp folder printed
at the end, so checked-in corpora under tests/fuzz/corpus/ are never
overwritten by accident; pass --out tests/fuzz/corpus to refresh them).
At most N (default 50) seeds per target, chosen to be short and varied:
  sql          statements of `statement` and `query` records
  ddl          the CREATE ... TABLE statements among them
  text_reader  data of `file`/`file-escaped` directives (not manifests),
               each behind 5 option bytes cycling through SerDes, null
               formats, header/footer counts, chunk sizes and projections
  manifest     manifests of `file` directives (Name rewritten to "t", the
               harness's table) and manifests sqe-cli writes for a few
               CREATE EXTERNAL TABLE statements
  partitions   a few hand-written listings (keys dt, Region, n of the
               harness's table) in every key-type combination
"""
import argparse
import glob
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def unescape_line(line):
    """C escapes of `file-escaped`: \\t \\n \\r \\\\ \\0 \\xHH \\NNN."""
    out = bytearray()
    i = 0
    b = line.encode()
    while i < len(b):
        c = b[i]
        if c != 0x5C or i + 1 >= len(b):
            out.append(c)
            i += 1
            continue
        n = chr(b[i + 1])
        if n in "tnr\\":
            out += {"t": b"\t", "n": b"\n", "r": b"\r", "\\": b"\\"}[n]
            i += 2
        elif n == "x":
            out.append(int(b[i + 2:i + 4], 16))
            i += 4
        elif n.isdigit():
            j = i + 1
            while j < len(b) and j < i + 4 and chr(b[j]).isdigit():
                j += 1
            out.append(int(b[i + 1:j], 8) & 0xFF)
            i = j
        else:
            out.append(c)
            i += 1
    return bytes(out)


def parse_test(path):
    """Yields ('sql', text) and ('file', name, bytes) from one .test file."""
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().replace("__TEST_DIR__", "/data").split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        head = line.split()
        if not head or head[0].startswith("#"):
            i += 1
            continue
        block = []
        j = i + 1
        while j < len(lines) and lines[j].strip():
            block.append(lines[j])
            j += 1
        if head[0] in ("statement", "query"):
            sql = []
            for l in block:
                if l.strip() == "----":
                    break
                sql.append(l)
            if sql:
                yield ("sql", "\n".join(sql))
        elif head[0] in ("file", "file-escaped") and len(head) > 1:
            if head[0] == "file":
                data = "".join(l + "\n" for l in block).encode()
            else:
                data = b""
                for k, l in enumerate(block):
                    if l == "\\c" and k == len(block) - 1:
                        data = data[:-1]
                        break
                    data += unescape_line(l) + b"\n"
            yield ("file", head[1], data)
        i = j


def pick(items, n):
    """Up to n distinct items, shortest first within round-robin over
    sources so every test file contributes."""
    by_src = {}
    for src, item in items:
        by_src.setdefault(src, [])
        if item not in by_src[src]:
            by_src[src].append(item)
    for v in by_src.values():
        v.sort(key=len)
    out, seen = [], set()
    while len(out) < n and any(by_src.values()):
        for src in sorted(by_src):
            if by_src[src] and len(out) < n:
                it = by_src[src].pop(0)
                if it not in seen and len(it) <= 4096:
                    seen.add(it)
                    out.append(it)
    return out


def cli_manifests(cli):
    """Manifests written by sqe-cli for a few CREATE EXTERNAL TABLE forms."""
    ddl = [
        "CREATE EXTERNAL TABLE t (id bigint, name string, price decimal(10,2), d date, ts timestamp) "
        "ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' LOCATION '/data/t/'",
        "CREATE EXTERNAL TABLE t (a int COMMENT 'the a', b varchar(5), c char(3)) COMMENT 'c' "
        "PARTITIONED BY (dt date, region string) ROW FORMAT SERDE "
        "'org.apache.hadoop.hive.serde2.OpenCSVSerde' WITH SERDEPROPERTIES "
        "('separatorChar'=';', 'quoteChar'='\\'', 'escapeChar'='\\\\') LOCATION '/data/t/' "
        "TBLPROPERTIES ('skip.header.line.count'='1', 'serialization.null.format'='')",
        "CREATE EXTERNAL TABLE t (x double, y boolean, z binary) STORED AS PARQUET LOCATION 's3://b/t/'",
        "CREATE EXTERNAL TABLE t (k string, v string) ROW FORMAT DELIMITED FIELDS TERMINATED BY '\\t' "
        "ESCAPED BY '\\\\' NULL DEFINED AS 'NULL' STORED AS TEXTFILE LOCATION 'file:///data/t/' "
        "TBLPROPERTIES ('projection.enabled'='false', 'skip.footer.line.count'='2')",
        "CREATE EXTERNAL TABLE t (j string) PARTITIONED BY (year int, month int) ROW FORMAT SERDE "
        "'org.openx.data.jsonserde.JsonSerDe' LOCATION '/data/t/' TBLPROPERTIES "
        "('projection.enabled'='true', 'projection.year.type'='integer', 'projection.year.range'='2000,2030', "
        "'projection.month.type'='integer', 'projection.month.range'='1,12')",
        "CREATE EXTERNAL TABLE t (a tinyint, b smallint, c float, d real) STORED AS ORC LOCATION '/data/t/'",
    ]
    out = []
    with tempfile.TemporaryDirectory() as wh:
        for k, stmt in enumerate(ddl):
            root = os.path.join(wh, "r%d" % k)
            os.makedirs(root)
            r = subprocess.run([cli, "--embedded", "--hive-root", "w=" + root, "-c",
                                "USE w; CREATE DATABASE db; " + stmt.replace("TABLE t ", "TABLE db.t ")],
                               capture_output=True, text=True)
            path = os.path.join(root, "db", "t.manifest.json")
            if r.returncode != 0 or not os.path.exists(path):
                print("make_seeds: sqe-cli failed on %r: %s" % (stmt[:60], r.stderr.strip()), file=sys.stderr)
                continue
            with open(path, "rb") as f:
                out.append(f.read())
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default=os.path.join(REPO, "build", "sqe-cli"))
    ap.add_argument("--out", default=None)
    ap.add_argument("--max", type=int, default=50)
    args = ap.parse_args()
    out = args.out or tempfile.mkdtemp(prefix="sqe-seeds.")

    sqls, ddls, datas, manifests = [], [], [], []
    for path in sorted(glob.glob(os.path.join(REPO, "tests", "sql", "**", "*.test"), recursive=True)):
        src = os.path.relpath(path, REPO)
        for item in parse_test(path):
            if item[0] == "sql":
                sql = item[1].encode()
                sqls.append((src, sql))
                if re.match(r"\s*CREATE\s+(EXTERNAL\s+|TEMPORARY\s+)?TABLE", item[1], re.I):
                    ddls.append((src, sql))
            elif item[1].endswith(".manifest.json"):
                data = item[2]
                try:
                    doc = json.loads(data)
                    if isinstance(doc, dict) and "Name" in doc:
                        doc["Name"] = "t"
                        data = json.dumps(doc, indent=2).encode()
                except ValueError:
                    pass
                manifests.append((src, data))
            else:
                datas.append((src, item[2]))

    if os.path.exists(args.cli):
        for m in cli_manifests(args.cli):
            manifests.append(("cli", m))
    else:
        print("make_seeds: %s not found; no CLI manifests" % args.cli, file=sys.stderr)

    # option bytes for text seeds: cycle through the harness's choices
    texts = []
    for k, d in enumerate(pick(datas, args.max)):
        o0 = (k % 4) | (((k // 4) % 4) << 2) | (((k // 3) % 2) << 4) | (((k // 7) % 2) << 6)
        o1 = [1, 3, 7, 0x40, 0x80 | 5][k % 5]
        o2 = (k * 7) % 81
        o3 = [0x7F, 0x01, 0x05, 0x00, 0x83][k % 5]
        o4 = [0x00, 0x05, 0x12, 0x20, 0x40][k % 5]
        texts.append(bytes([o0, o1, o2, o3, o4]) + d)

    layouts = [
        b"dt=2024-01-01/Region=us/n=1/part-0.csv\ndt=2024-01-02/region=eu/n=2/part-0.csv\n",
        b"dt=__HIVE_DEFAULT_PARTITION__/Region=a%2Fb/n=007/x.csv\nDT=2024-1-5/REGION=New%20York/n=-3/y.csv\n",
        b"dt=2024-01-01/_SUCCESS\ndt=2024-01-01/.hidden/x\ndt=2024-01-01/Region=x/n=1/sub/dir/deep.csv\n",
        b"dt=2024-01-01/Region=x/n=1/empty.csv!\nstray.txt\ndt=2024-01-01/Region=%zz/n=9/a\n",
        b"dt=1/Region=abcd/n=99999999999/a\nd%74=2024-02-30/Region=/n=/a\n",
        b"not-a-key/a\n",
        b"dt=2024-01-01/Region=x%00y/n=1/a\ndt=2024-01-01/Region=x%/n=1/a\n",
    ]
    parts = []
    for k, lay in enumerate(layouts):
        for combo in (0, 1 + 5 * 2 + 25 * 3, 4 + 5 * 0 + 25 * 2, 2 + 5 * 1 + 25 * 4):
            parts.append(bytes([(combo + k) % 125, 2 - (k % 3)]) + lay)

    sets = {
        "partitions": parts[:args.max],
        "sql": pick(sqls, args.max),
        "ddl": pick(ddls, args.max),
        "text_reader": texts,
        "manifest": pick(manifests, args.max),
    }
    for target, seeds in sets.items():
        d = os.path.join(out, target)
        os.makedirs(d, exist_ok=True)
        for s in seeds:
            name = "seed-" + hashlib.sha1(s).hexdigest()[:12]
            with open(os.path.join(d, name), "wb") as f:
                f.write(s)
        print("%s: %d seeds in %s" % (target, len(seeds), d))


if __name__ == "__main__":
    main()
