#!/usr/bin/env bash
# Runs one libFuzzer harness of tests/fuzz for SECONDS (docs/reliability.md):
#   tools/fuzz.sh chrome_trace|step_records|db_bytes|db_sql SECONDS [libFuzzer options...]
# Builds it with clang (ASan + UBSan + fuzzer coverage) in build-fuzz/, or with FUZZ_SANITIZE=undefined
# (UBSan alone, -O2: 2-4 times the executions, no memory checks) in build-fuzz-undefined/; seeds its corpus once from small
# cuts of ../shared/testdata/real and the demo (written at run time by build/app/dspark-timeline or
# $DSPARK_CLI, when built), minimized with -merge=1, and keeps the corpus in build-fuzz/corpus/NAME. Crashes land in build-fuzz/crashes/NAME; keep each as a
# regression input in tests/fuzz/regressions/NAME once fixed. Run it under `nice -n 19`.
set -euo pipefail
cd "$(dirname "$0")/.."
# `tools/fuzz.sh save NAME` instead minimizes NAME's corpus (-merge=1) into tests/fuzz/corpus/NAME.tar.gz,
# which a run on an empty corpus starts from.
save=false
if [ "${1:-}" = save ]; then save=true && shift; fi
name=${1:?usage: tools/fuzz.sh [save] chrome_trace|step_records|db_bytes|db_sql SECONDS}
seconds=${2:-60}
shift $(($# >= 2 ? 2 : $#))
case "$name" in chrome_trace | step_records | db_bytes | db_sql) ;; *)
  echo "tools/fuzz.sh: no harness \"$name\" (chrome_trace, step_records, db_bytes, db_sql)" >&2
  exit 2
  ;;
esac
SANITIZE=${FUZZ_SANITIZE:-address,undefined}
case "$SANITIZE" in
address,undefined) opt=-O1 default_build=build-fuzz ;;
undefined) opt=-O2 default_build=build-fuzz-undefined ;;
*)
  echo "tools/fuzz.sh: FUZZ_SANITIZE is address,undefined (the default) or undefined" >&2
  exit 2
  ;;
esac
BUILD=${FUZZ_BUILD_DIR:-$default_build}
# The corpus, seeds and crashes are one set for both builds.
DATA=${FUZZ_DATA_DIR:-build-fuzz}
REAL=${DSPARK_REAL_TESTDATA:-$PWD/../shared/testdata/real}
CLANG=$(command -v clang++-14 || command -v clang++)

if [ ! -f "$BUILD/build.ninja" ]; then
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$CLANG" \
    -DDSPARK_FUZZ=ON -DDSPARK_BUILD_TESTS=OFF -DDSPARK_BUILD_BENCH=OFF -DDSPARK_REAL_TESTDATA="$REAL" \
    -DCMAKE_CXX_FLAGS_RELEASE="$opt -g1 -DNDEBUG" \
    -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,$SANITIZE -fno-sanitize-recover=all -fno-omit-frame-pointer" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=$SANITIZE" >/dev/null
fi
cmake --build "$BUILD" --target "fuzz_$name" -j"${JOBS:-2}"

corpus=$DATA/corpus/$name
crashes=$DATA/crashes/$name
seeds=$DATA/seeds/$name
mkdir -p "$corpus" "$crashes"
# The JSON harnesses write each input to a scratch folder under TMPDIR (the database ones load theirs from
# memory): on tmpfs, no disk is touched.
if [ -d /dev/shm ] && [ -w /dev/shm ]; then export TMPDIR=${FUZZ_TMPDIR:-/dev/shm}; fi
# A seed is the harness's selector byte (which file name / format) followed by a small file: windows of
# events cut from the real traces and the demo, databases cut to 40 rows a table (tools/fuzz_seeds.py).
seed() { # seed SELECTOR FILE
  [ -f "$2" ] || return 0
  { printf "\\x$(printf %02x "$1")"; cat "$2"; } >"$seeds/seed-$1-$(basename "$2")"
}
if [ -z "$(ls -A "$corpus")" ]; then
  rm -rf "$seeds" && mkdir -p "$seeds"
  demo=$DATA/demo
  cli=${DSPARK_CLI:-build/app/dspark-timeline}
  if [ -x "$cli" ] && [ ! -d "$demo" ]; then
    "$cli" demo "$demo" --steps 8 --trace-json >/dev/null
  fi
  case "$name" in
  chrome_trace)
    python3 tools/fuzz_seeds.py chrome_trace "$seeds" 0 "$REAL"/ascend/*/ASCEND_PROFILER_OUTPUT/trace_view.json \
      "$demo"/*/ASCEND_PROFILER_OUTPUT/trace_view.json
    python3 tools/fuzz_seeds.py chrome_trace "$seeds" 1 "$REAL"/kineto/*.json.gz
    for f in "$REAL"/negative/*.json; do seed 0 "$f"; done
    ;;
  step_records)
    python3 tools/fuzz_seeds.py server_info "$seeds" 0 "$demo"/server_info.json
    python3 tools/fuzz_seeds.py server_info "$seeds" 4 "$demo"/server_info.json
    printf '\x05{"forward_ct": 3, "bs": 4, "mode": "DECODE", "reqs": [{"acc_len": 2, "verify_len": 4}]}\n' \
      >"$seeds/seed-5-line"
    printf '\x06{"forward_ct": 3, "num_running_reqs": 4, "num_verify_tokens": 16, "step_time": 0.01}\n' \
      >"$seeds/seed-6-sps"
    ;;
  db_bytes)
    python3 tools/fuzz_seeds.py db_bytes "$seeds" 0 "$REAL"/ascend/*/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_*.db \
      "$demo"/*/ASCEND_PROFILER_OUTPUT/*.db
    python3 tools/fuzz_seeds.py db_bytes "$seeds" 1 "$REAL"/ascend/msprof_edited_db/msprof_0.db
    ;;
  db_sql)
    for s in 0 1 2 3; do printf "\\x0$s" >"$seeds/seed-$s"; done # torch_npu / msprof, cut / whole
    ;;
  esac
  # The corpus an earlier session's runs minimized (tools/fuzz.sh save NAME), where kept in the tree: a
  # fresh machine goes on from the coverage reached instead of the seeds alone.
  kept=tests/fuzz/corpus/$name.tar.gz
  if [ -f "$kept" ]; then tar -xzf "$kept" -C "$seeds"; fi
fi
# Inputs sized to the format: a trace seed is < 12 KB and a step-record one < 8 KB, a database seed 35-70 pages of 1 KB, an SQL edit
# list at most 16 edits of ~30 bytes.
case "$name" in
chrome_trace) maxlen=65536 ;;
step_records) maxlen=16384 ;;
db_bytes) maxlen=131072 ;;
db_sql) maxlen=1024 ;;
esac
# libFuzzer grows inputs from a few bytes slowly (its len_control): db_sql's stayed at 8 bytes (one edit)
# through a 29-min run, so its edit lists grow as soon as a few inputs add nothing (0 would stop growth).
lencontrol=100
[ "$name" = db_sql ] && lencontrol=1
# ASan records no allocation / free stacks while fuzzing (malloc_context_size=0: 5-10 % of the CPU of an
# execution); a crash is re-run alone (`build-fuzz/tests/fuzz/fuzz_NAME CRASH_FILE`) for the full report.
export ASAN_OPTIONS=${ASAN_OPTIONS:-malloc_context_size=0}
run() {
  "$BUILD/tests/fuzz/fuzz_$name" -dict="tests/fuzz/$name.dict" -max_len="$maxlen" -rss_limit_mb=2048 -timeout=30 -len_control="$lencontrol" \
    -artifact_prefix="$crashes/" "$@"
}
if $save; then
  kept=$(mktemp -d)
  trap 'rm -rf "$kept"' EXIT
  run -merge=1 "$kept" "$corpus" 2>&1 | tail -n 2
  mkdir -p tests/fuzz/corpus
  # (Byte-identical for the same inputs: names sorted, no times or owners.)
  tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -C "$kept" -cf - . | gzip -n -9 \
    >"tests/fuzz/corpus/$name.tar.gz"
  echo "tests/fuzz/corpus/$name.tar.gz: $(ls "$kept" | wc -l) inputs, $(stat -c %s "tests/fuzz/corpus/$name.tar.gz") bytes"
  exit 0
fi
# The seeds minimized into the corpus once (-merge=1 keeps the inputs that add coverage).
if [ -z "$(ls -A "$corpus")" ]; then run -merge=1 "$corpus" "$seeds" 2>&1 | tail -n 2; fi
run -max_total_time="$seconds" -print_final_stats=1 "$@" "$corpus"
