#!/usr/bin/env python3
"""Small fuzz seeds cut from real files (tools/fuzz.sh; docs/reliability.md "Fuzzing").

   fuzz_seeds.py chrome_trace|db_bytes|server_info OUTDIR SELECTOR FILE...

A whole real file (0.7-2 MB) makes every execution slow and is cut at -max_len anyway; a few windows of
events (with the metadata that names their tracks), or a database with a few dozen rows a table, keep what
the loader reaches at a fraction of the cost. Each seed is the harness's selector byte, then the cut file.
"""
import gzip
import json
import os
import shutil
import sqlite3
import sys
import tempfile

TRACE_BYTES = 12 * 1024  # each JSON seed stays below this (fuzz.sh's -max_len is 64 KB)
DB_ROWS = 40  # rows kept per table of a database seed


def write_seed(outdir, selector, name, data):
    with open(os.path.join(outdir, f"seed-{selector}-{name}"), "wb") as f:
        f.write(bytes([selector]) + data)


def dump_trace(wrapper, events):
    if wrapper is None:
        return json.dumps(events, separators=(",", ":")).encode()
    wrapper = dict(wrapper)
    wrapper["traceEvents"] = events
    return json.dumps(wrapper, separators=(",", ":")).encode()


def trace_windows(events):
    """Windows of consecutive timed events (file order), and one of flow events with both ends."""
    timed = [e for e in events if isinstance(e, dict) and e.get("ph") != "M"]
    n = len(timed)
    windows = [timed[max(0, n * k // 4 - 0): n * k // 4 + 60] for k in range(4)]
    flows = [e for e in timed if e.get("ph") in ("s", "f", "t")]
    ids = []
    for e in flows:
        if e.get("id") not in ids:
            ids.append(e.get("id"))
        if len(ids) == 12:
            break
    windows.append([e for e in flows if e.get("id") in ids])
    return [w for w in windows if w]


def cut_trace(outdir, selector, path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        doc = json.load(f)
    wrapper, events = (None, doc) if isinstance(doc, list) else (
        {k: v for k, v in doc.items() if k != "traceEvents"}, doc.get("traceEvents", []))
    if wrapper is not None:  # keep only small top-level fields (device properties, schema version)
        wrapper = {k: v for k, v in wrapper.items() if len(json.dumps(v)) < 512}
    meta = [e for e in events if isinstance(e, dict) and e.get("ph") == "M"]
    base = os.path.basename(path).replace(".gz", "")
    parent = os.path.basename(os.path.dirname(os.path.dirname(path)))
    for k, window in enumerate(trace_windows(events)):
        pids = {e.get("pid") for e in window}
        keep = [e for e in meta if e.get("pid") in pids] + window
        while keep and len(dump_trace(wrapper, keep)) > TRACE_BYTES:
            keep.pop()
        write_seed(outdir, selector, f"{parent}-{base}-{k}", dump_trace(wrapper, keep))


def cut_db(outdir, selector, path):
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, "cut.db")
        shutil.copyfile(path, copy)
        db = sqlite3.connect(copy)
        db.execute("PRAGMA journal_mode = DELETE")
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        for t in tables:
            q = '"' + t.replace('"', '""') + '"'
            try:
                db.execute(f"DELETE FROM {q} WHERE rowid NOT IN (SELECT rowid FROM {q} ORDER BY rowid LIMIT {DB_ROWS})")
            except sqlite3.Error:
                pass  # a WITHOUT ROWID table stays whole
        db.commit()
        db.execute("PRAGMA page_size = 1024")
        db.execute("VACUUM")
        db.close()
        with open(copy, "rb") as f:
            data = f.read()
    write_seed(outdir, selector, os.path.basename(os.path.dirname(os.path.dirname(path))) + "-" +
               os.path.basename(path), data)


def trimmed(value, items):
    """`value` with every list cut to its first `items` elements, at any depth."""
    if isinstance(value, list):
        return [trimmed(v, items) for v in value[:items]]
    if isinstance(value, dict):
        return {k: trimmed(v, items) for k, v in value.items()}
    return value


def cut_server_info(outdir, selector, path):
    """server_info.json with 4 step records of up to 4 requests each (the demo's is 40 KB: each input
    of a few hundred records' worth of JSON DOM costs tens of ms under ASan)."""
    with open(path, "rb") as f:
        doc = json.load(f)
    write_seed(outdir, selector, os.path.basename(path), json.dumps(trimmed(doc, 4), indent=1).encode())


def main():
    kind, outdir, selector = sys.argv[1], sys.argv[2], int(sys.argv[3])
    for path in sys.argv[4:]:
        if os.path.isfile(path):
            {"chrome_trace": cut_trace, "db_bytes": cut_db, "server_info": cut_server_info}[kind](outdir, selector, path)


if __name__ == "__main__":
    main()
