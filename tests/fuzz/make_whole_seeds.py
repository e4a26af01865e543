#!/usr/bin/env python3
"""make_whole_seeds.py - seeds for fuzz_whole (DDL + data files + queries)
made from the sqllogictest files under tests/sql/.

    tests/fuzz/make_whole_seeds.py [--out DIR] [--max N] [--window W]

Each .test file becomes one or more inputs in fuzz_whole's layout (see the
comment at the top of fuzz_whole.c): its `file`/`file-escaped` data as
`@@raw` sections (the bytes as the test wrote them, compressed fixtures
included), the small shared Parquet files it links to (`symlink
__SHARED__/... PATH`, up to 16 KiB) as `@@raw` sections too, its `tuning`
lines as `@@opt`, and its statements and queries as `@@sql` text. A file
with more than W statements (default 16) is cut into windows of W, each
preceded by the CREATE/USE statements that came before it (at most 8), so
every window runs against the same tables. Inputs over 60 KiB are dropped.
At most N inputs (default 80) are written, round-robin over test files so
each contributes, as seed-<hash> into DIR (default: a temp folder; pass
--out tests/fuzz/corpus/whole to refresh the checked-in seeds after
deleting the old seed-* files there).
"""
import argparse
import glob
import hashlib
import os
import re
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_seeds import unescape_line  # noqa: E402

MAX_SEED = 60 * 1024


def shared_dir():
    for p in (os.environ.get("SQE_SHARED_DIR"), os.path.join(REPO, "..", "shared"),
              os.path.join(REPO, "..", "..", "shared")):
        if p and os.path.isdir(p):
            return p
    return None


def parse(path, shared):
    """Yields ('sql', text), ('file', path, bytes), ('opt', line)."""
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        head = lines[i].split()
        if not head or head[0].startswith("#"):
            i += 1
            continue
        block, j = [], i + 1
        while j < len(lines) and lines[j].strip():
            block.append(lines[j])
            j += 1
        kind = head[0]
        if kind in ("statement", "query"):
            sql = []
            for l in block:
                if l.strip() == "----":
                    break
                sql.append(l)
            if sql:
                yield ("sql", "\n".join(sql))
        elif kind in ("file", "file-escaped") and len(head) > 1:
            name = head[1].replace("__TEST_DIR__/", "")
            if kind == "file":
                data = "".join(l + "\n" for l in block).encode("utf-8", "surrogateescape")
            else:
                data = b""
                for k, l in enumerate(block):
                    if l == "\\c" and k == len(block) - 1:
                        data = data[:-1]
                        break
                    data += unescape_line(l) + b"\n"
            yield ("file", name, data)
        elif kind == "symlink" and len(head) == 3 and head[1].startswith("__SHARED__/") and shared:
            src = os.path.join(shared, head[1][len("__SHARED__/"):])
            if os.path.isfile(src) and os.path.getsize(src) <= 16 * 1024:
                with open(src, "rb") as f:
                    yield ("file", head[2].replace("__TEST_DIR__/", ""), f.read())
        elif kind == "tuning":
            opt = []
            for kv in head[1:]:
                k, _, v = kv.partition("=")
                key = {"threads": "threads", "memory_limit": "mem", "parallel_min_bytes": "pmin",
                       "text_split_bytes": "split"}.get(k)
                if key:
                    opt.append("%s=%s" % (key, v))
            yield ("opt", " ".join(opt))
        i = j


def is_setup(sql):
    return re.match(r"\s*(CREATE|USE)\b", sql, re.I) is not None


def seeds_of(path, shared, window):
    files, opts, stmts = {}, [], []
    for item in parse(path, shared):
        if item[0] == "file":
            files[item[1]] = item[2]
        elif item[0] == "opt":
            opts.append(item[1])
        else:
            stmts.append(item[1])
    if not stmts:
        return []
    head = b""
    if opts:
        head += b"@@opt " + opts[-1].encode() + b"\n"
    for name, data in files.items():
        if not name.startswith("/") and ".." not in name.split("/"):
            head += b"@@raw " + name.encode("utf-8", "surrogateescape") + b"\n" + data + b"\n"
    out = []
    for start in range(0, len(stmts), window):
        setup = [s for s in stmts[:start] if is_setup(s)][-8:]
        body = setup + stmts[start:start + window]
        sql = ";\n".join(body) + ";\n"
        seed = head + b"@@sql\n" + sql.encode("utf-8", "surrogateescape")
        if len(seed) <= MAX_SEED:
            out.append(seed)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=None)
    ap.add_argument("--max", type=int, default=80)
    ap.add_argument("--window", type=int, default=16)
    args = ap.parse_args()
    out = args.out or tempfile.mkdtemp(prefix="sqe-whole-seeds.")
    os.makedirs(out, exist_ok=True)
    shared = shared_dir()
    per_file = []
    for path in sorted(glob.glob(os.path.join(REPO, "tests", "sql", "**", "*.test"), recursive=True)):
        if "/pending/" in path:
            continue
        s = seeds_of(path, shared, args.window)
        if s:
            per_file.append(s)
    chosen = []
    while len(chosen) < args.max and any(per_file):
        for s in per_file:
            if s and len(chosen) < args.max:
                chosen.append(s.pop(0))
    for seed in chosen:
        name = "seed-" + hashlib.sha1(seed).hexdigest()[:16]
        with open(os.path.join(out, name), "wb") as f:
            f.write(seed)
    print("make_whole_seeds: %d seeds in %s" % (len(chosen), out))


if __name__ == "__main__":
    main()
