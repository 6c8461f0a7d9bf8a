#!/usr/bin/env bash
# Runs one libFuzzer harness of tests/fuzz for SECONDS (docs/reliability.md):
#   tools/fuzz.sh chrome_trace|step_records|db_bytes|db_sql SECONDS [libFuzzer options...]
# Builds it with clang (ASan + UBSan + fuzzer coverage) in build-fuzz/, seeds its corpus once from
# ../shared/testdata/real and the demo (written at run time by build/app/dspark-timeline, when built), and
# keeps the corpus in build-fuzz/corpus/NAME. Crashes land in build-fuzz/crashes/NAME; keep each as a
# regression input in tests/fuzz/regressions/NAME once fixed. Run it under `nice -n 19`.
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:?usage: tools/fuzz.sh chrome_trace|step_records|db_bytes|db_sql SECONDS}
seconds=${2:-60}
shift $(($# >= 2 ? 2 : $#))
case "$name" in chrome_trace | step_records | db_bytes | db_sql) ;; *)
  echo "tools/fuzz.sh: no harness \"$name\" (chrome_trace, step_records, db_bytes, db_sql)" >&2
  exit 2
  ;;
esac
BUILD=${FUZZ_BUILD_DIR:-build-fuzz}
REAL=${DSPARK_REAL_TESTDATA:-$PWD/../shared/testdata/real}
CLANG=$(command -v clang++-14 || command -v clang++)

if [ ! -f "$BUILD/build.ninja" ]; then
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$CLANG" \
    -DDSPARK_FUZZ=ON -DDSPARK_BUILD_TESTS=OFF -DDSPARK_BUILD_BENCH=OFF -DDSPARK_REAL_TESTDATA="$REAL" \
    -DCMAKE_CXX_FLAGS_RELEASE="-O1 -g1 -DNDEBUG" \
    -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
fi
cmake --build "$BUILD" --target "fuzz_$name" -j"${JOBS:-2}"

corpus=$BUILD/corpus/$name
crashes=$BUILD/crashes/$name
mkdir -p "$corpus" "$crashes"
# A seed is the harness's selector byte (which file name / format) followed by a real file.
seed() { # seed SELECTOR FILE
  [ -f "$2" ] || return 0
  { printf "\\x$(printf %02x "$1")"; cat "$2"; } >"$corpus/seed-$1-$(basename "$2")"
}
if [ -z "$(ls -A "$corpus")" ]; then
  demo=$BUILD/demo
  if [ -x build/app/dspark-timeline ] && [ ! -d "$demo" ]; then
    build/app/dspark-timeline demo "$demo" --steps 8 --trace-json >/dev/null
  fi
  case "$name" in
  chrome_trace)
    for f in "$REAL"/ascend/*/ASCEND_PROFILER_OUTPUT/trace_view.json "$demo"/*/ASCEND_PROFILER_OUTPUT/trace_view.json; do
      seed 0 "$f"
    done
    for f in "$REAL"/kineto/*.json.gz; do
      [ -f "$f" ] && { printf '\x01'; gzip -dc "$f"; } >"$corpus/seed-1-$(basename "$f" .gz)"
    done
    ;;
  step_records)
    for f in "$demo"/server_info.json; do seed 0 "$f" && seed 4 "$f"; done
    printf '\x05{"forward_ct": 3, "bs": 4, "mode": "DECODE", "reqs": [{"acc_len": 2, "verify_len": 4}]}\n' \
      >"$corpus/seed-5-line"
    printf '\x06{"forward_ct": 3, "num_running_reqs": 4, "num_verify_tokens": 16, "step_time": 0.01}\n' \
      >"$corpus/seed-6-sps"
    ;;
  db_bytes)
    for f in "$REAL"/ascend/*/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_*.db "$demo"/*/ASCEND_PROFILER_OUTPUT/*.db; do
      seed 0 "$f"
    done
    seed 1 "$REAL"/ascend/msprof_edited_db/msprof_0.db
    ;;
  db_sql)
    printf '\x00' >"$corpus/seed-torch"
    printf '\x01' >"$corpus/seed-msprof"
    ;;
  esac
fi
maxlen=65536
[ "$name" = db_bytes ] && maxlen=1048576
exec "$BUILD/tests/fuzz/fuzz_$name" -max_total_time="$seconds" -dict="tests/fuzz/$name.dict" -max_len="$maxlen" \
  -rss_limit_mb=3072 -timeout=30 -artifact_prefix="$crashes/" -print_final_stats=1 "$@" "$corpus"
