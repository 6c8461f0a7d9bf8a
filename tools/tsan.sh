#!/usr/bin/env bash
# ThreadSanitizer over the loaders that use two threads (docs/reliability.md): the Chrome-trace parser's
# parts, the TASK table read in two halves, the parallel sort and finalize. Builds build-tsan/ (GCC,
# -fsanitize=thread, -O1) with only the tests that drive those paths on inputs large enough to split, then
# runs each; any data-race report fails it (halt_on_error). Run it under `nice -n 19`: ~30 min on 2 cores.
#   tools/tsan.sh [TEST_NAME_REGEX]   (default: the loader tests below)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD=${TSAN_BUILD_DIR:-build-tsan}
TESTS=(io_tst_chrome_trace io_tst_msprof_db io_tst_loader_messages util_tst_parallel demo_tst_demo_loaders io_tst_parallel_loads)
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDSPARK_BUILD_BENCH=OFF \
  -DCMAKE_CXX_FLAGS_RELEASE="-O1 -g1 -DNDEBUG" -DCMAKE_CXX_FLAGS="-fsanitize=thread -fno-omit-frame-pointer" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=thread" >/dev/null
cmake --build "$BUILD" -j"${JOBS:-2}" --target "${TESTS[@]}"
cd "$BUILD"
regex=${1:-$(IFS='|'; echo "${TESTS[*]}" | sed 's/_tst_/.tst_/g')}
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$ROOT/tools/tsan.supp" QT_QPA_PLATFORM=offscreen ctest --output-on-failure -R "$regex"
