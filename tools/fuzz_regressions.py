#!/usr/bin/env python3
"""Writes the hand-made regression inputs of the database harnesses (docs/reliability.md "Fuzzing").

   fuzz_regressions.py [REAL_TESTDATA]     (default: ../shared/testdata/real)

tests/fuzz/regressions/db_bytes/* are the harness's selector byte and a small database cut from the real
fixtures, then damaged; tests/fuzz/regressions/db_sql/* are edit lists in the format of
tests/fuzz/FuzzTargets.h (dbSql). Each reaches one deep path of the loader, which
tests/io/tst_fuzz_regressions checks by the message it leaves (its table lists them).
"""
import os
import shutil
import sqlite3
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "tests", "fuzz", "regressions")
TORCH = "ascend/torch_npu_db_rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db"
MSPROF = "ascend/msprof_edited_db/msprof_0.db"
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


def cut_db(path, rows, edit=None):
    """The database with its first `rows` rows a table, 1 KB pages, `edit(db)` applied; its bytes."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, "cut.db")
        shutil.copyfile(path, copy)
        db = sqlite3.connect(copy)
        db.execute("PRAGMA journal_mode = DELETE")
        for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall():
            q = '"' + t.replace('"', '""') + '"'
            db.execute(f"DELETE FROM {q} WHERE rowid NOT IN (SELECT rowid FROM {q} ORDER BY rowid LIMIT {rows})")
        if edit:
            edit(db)
        db.commit()
        db.execute("PRAGMA page_size = 1024")
        db.execute("VACUUM")
        db.close()
        with open(copy, "rb") as f:
            return f.read()


def root_page(data, table):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "x.db")
        with open(path, "wb") as f:
            f.write(data)
        db = sqlite3.connect(path)
        (page,) = db.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (table,)).fetchone()
        db.close()
        return page


def write(harness, name, data):
    folder = os.path.join(OUT, harness)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def db_bytes(real):
    torch, msprof = os.path.join(real, TORCH), os.path.join(real, MSPROF)
    # Half of a database whose header declares the whole: the size check before SQLite opens it.
    whole = cut_db(msprof, 8)
    write("db_bytes", "msprof-truncated", b"\x01" + whole[: len(whole) // 2])
    # TASK's root page overwritten: the schema reads, the table does not (SQLITE_CORRUPT mid-load).
    data = bytearray(cut_db(msprof, 8))
    page = root_page(bytes(data), "TASK")
    data[(page - 1) * 1024 : page * 1024] = b"\x0d" + b"\xff" * 1023
    write("db_bytes", "msprof-task-page-corrupt", b"\x01" + bytes(data))
    # Times at the int64 limits: an end - start that overflows, and times finalize has to clamp.
    def extremes(db):
        db.execute("UPDATE TASK SET startNs = ?, endNs = ? WHERE rowid = (SELECT min(rowid) FROM TASK)",
                   (INT64_MIN, INT64_MAX))
        db.execute("UPDATE TASK SET startNs = ?, endNs = ? WHERE rowid = (SELECT max(rowid) FROM TASK)",
                   (2**62 + 5, 2**62 + 10))
    write("db_bytes", "torch-task-int64-extremes", b"\x00" + cut_db(torch, 8, extremes))
    # An SQLite file with no profiler table.
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "x.db")
        db = sqlite3.connect(path)
        db.execute("PRAGMA page_size = 1024")
        db.execute("CREATE TABLE notes (id INTEGER, text TEXT)")
        db.execute("INSERT INTO notes VALUES (1, 'not a profile')")
        db.commit()
        db.close()
        with open(path, "rb") as f:
            write("db_bytes", "no-profiler-tables", b"\x00" + f.read())


# dbSql's edit list: table (index in the template's tables sorted by name), column (index), op, every,
# at, [rowid - 1 for ops 0-5], value (kind byte, then its bytes); FuzzTargets.h reads it.
TORCH_TABLES = {"CONNECTION_IDS": 6, "PYTORCH_API": 24, "TASK": 31}
SPECIAL = {0: 0, INT64_MAX: 4, INT64_MIN: 5}  # indexes into bindValue's specials


def special(value):
    return bytes([0, SPECIAL[value]])


def db_sql():
    task, pytorch, conn = TORCH_TABLES["TASK"], TORCH_TABLES["PYTORCH_API"], TORCH_TABLES["CONNECTION_IDS"]
    # TASK.startNs text on every row (op 9: all rows): the integer-column check's warning.
    write("db_sql", "torch-task-start-text", bytes([0, task, 0, 9, 0, 0, 4, 3]) + b"abc")
    # Every PYTORCH_API row and every CONNECTION_IDS id set to 0: 60 ops share one connection id.
    write("db_sql", "torch-connection-fan-out",
          bytes([0, pytorch, 3, 9, 0, 0]) + special(0) + bytes([conn, 0, 9, 0, 0]) + special(0))
    # TASK row 1 from INT64_MIN to INT64_MAX (op 0: one row).
    write("db_sql", "torch-task-int64-span",
          bytes([0, task, 0, 0, 0, 0, 0]) + special(INT64_MIN) + bytes([task, 1, 0, 0, 0, 0]) + special(INT64_MAX))
    # The msprof template without STRING_IDS (table 14; op 15: drop).
    write("db_sql", "msprof-no-string-ids", bytes([1, 14, 0, 15, 0, 0]))


def main():
    real = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", "shared", "testdata", "real")
    db_bytes(real)
    db_sql()


if __name__ == "__main__":
    main()
