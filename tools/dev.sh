#!/usr/bin/env bash
# Set-up, build and run helper behind the README's two commands (Debian 12, as root or with sudo).
#   tools/dev.sh demo   install dependencies, build, open the viewer on the embedded demo profile
#   tools/dev.sh test   install dependencies, build, run the whole test suite offscreen; then build it again
#                       with ASan + UBSan (ASAN_BUILD_DIR, default build-asan) and run it again there
#   tools/dev.sh build  install dependencies and build only
#   tools/dev.sh package  build the program alone and its Debian package (BUILD_DIR/dspark-timeline_*.deb)
#   tools/dev.sh install  the same, then install the package with apt
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-build}
BUILD_DIR=${BUILD_DIR:-build}
ASAN_BUILD_DIR=${ASAN_BUILD_DIR:-build-asan}

PACKAGES=(build-essential cmake ninja-build pkg-config
  qt6-base-dev qt6-charts-dev qt6-svg-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
  libqt6opengl6-dev libxkbcommon-dev libgl1-mesa-dev
  libsqlite3-dev nlohmann-json3-dev libsimdjson-dev zlib1g-dev
  qt6-translations-l10n fonts-noto-cjk xvfb xauth)
# Making the Debian package (dpkg-shlibdeps, CPack's `file`), and checking it in the test suite.
PACKAGE_TOOLS=(dpkg-dev file)
CHECK_TOOLS=(desktop-file-utils appstream lintian shared-mime-info qt6-translations-l10n)

sudo_if_needed() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

install_deps() {
  local wanted=("${PACKAGES[@]}" "$@") missing=()
  for p in "${wanted[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    sudo_if_needed apt-get update
    DEBIAN_FRONTEND=noninteractive sudo_if_needed apt-get install -y --no-install-recommends "${wanted[@]}"
  fi
}

# ccache, where installed, makes a rebuild in another clone of the same tree cheap; optional.
LAUNCHER=()
if command -v ccache >/dev/null 2>&1; then
  export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD} CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}
  LAUNCHER=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi

configure() {
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release "${LAUNCHER[@]}"
}

build() {
  configure
  cmake --build "$BUILD_DIR" -j"$(nproc)"
}

# The second build of `test` (docs/reliability.md, "Sanitizers"): -O1 keeps it near the Release build's
# compile time; no benchmarks, since only the suite runs there. Any report aborts the test that made it.
sanitized_build() {
  cmake -S . -B "$ASAN_BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDSPARK_BUILD_BENCH=OFF \
    -DCMAKE_CXX_FLAGS_RELEASE="-O1 -g1 -DNDEBUG" \
    -DCMAKE_CXX_FLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" "${LAUNCHER[@]}"
  cmake --build "$ASAN_BUILD_DIR" -j"$(nproc)"
}

# run_suite DIR LOG: the whole suite in DIR, its output also in LOG; returns ctest's status.
run_suite() {
  (cd "$1" && QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j"$(nproc)") 2>&1 | tee "$2"
  return "${PIPESTATUS[0]}"
}

# ctest's closing line ("100% tests passed, 0 tests failed out of N") of LOG, or why there is none.
suite_result() {
  grep -E '^[0-9]+% tests passed' "$1" | tail -n 1 || echo "no result (the suite did not finish)"
}

test_both() {
  local logs release_status=0 sanitized_status=0
  logs=$(mktemp -d)
  run_suite "$BUILD_DIR" "$logs/release.log" || release_status=$?
  sanitized_build
  # Leaks are not checked (Qt's own one-time allocations); a failed allocation is the program's to report.
  ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1 \
    run_suite "$ASAN_BUILD_DIR" "$logs/sanitized.log" || sanitized_status=$?
  echo
  echo "== Test suite, Release build ($BUILD_DIR):"
  suite_result "$logs/release.log"
  echo "== Test suite, ASan + UBSan build ($ASAN_BUILD_DIR):"
  suite_result "$logs/sanitized.log"
  rm -rf "$logs"
  [ "$release_status" -eq 0 ] && [ "$sanitized_status" -eq 0 ]
}

case "$mode" in
  build) install_deps; build ;;
  test)
    install_deps "${PACKAGE_TOOLS[@]}" "${CHECK_TOOLS[@]}"; build
    test_both
    ;;
  demo)
    install_deps; build
    if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
      echo "No display found: starting the viewer under xvfb-run (set DISPLAY to use your own)." >&2
      exec xvfb-run -a "$BUILD_DIR/app/dspark-timeline" --demo
    fi
    exec "$BUILD_DIR/app/dspark-timeline" --demo
    ;;
  package|install)
    install_deps "${PACKAGE_TOOLS[@]}"; configure
    cmake --build "$BUILD_DIR" -j"$(nproc)" --target dspark-timeline dspark-desktop-files
    rm -f "$BUILD_DIR"/dspark-timeline_*.deb
    (cd "$BUILD_DIR" && cpack -G DEB)
    deb=$(ls "$BUILD_DIR"/dspark-timeline_*.deb)
    if [ "$mode" = install ]; then
      # apt resolves the dependencies the package names (Qt 6, SQLite, simdjson, zlib).
      DEBIAN_FRONTEND=noninteractive sudo_if_needed apt-get install -y "$(realpath "$deb")"
    else
      echo "Built $deb; install it with: apt install ./$deb" >&2
    fi
    ;;
  *) echo "usage: tools/dev.sh demo|test|build|package|install" >&2; exit 2 ;;
esac
