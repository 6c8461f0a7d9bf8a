#!/usr/bin/env bash
# Set-up, build and run helper behind the README's two commands (Debian 12, as root or with sudo).
#   tools/dev.sh demo   install dependencies, build, open the viewer on the embedded demo profile
#   tools/dev.sh test   install dependencies, build, run the whole test suite offscreen
#   tools/dev.sh build  install dependencies and build only
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-build}
BUILD_DIR=${BUILD_DIR:-build}

PACKAGES=(build-essential cmake ninja-build pkg-config
  qt6-base-dev qt6-charts-dev qt6-svg-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
  libqt6opengl6-dev libxkbcommon-dev libgl1-mesa-dev
  libsqlite3-dev nlohmann-json3-dev libsimdjson-dev zlib1g-dev
  fonts-noto-cjk xvfb xauth)

install_deps() {
  local missing=()
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    local SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO=sudo
    $SUDO apt-get update
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${PACKAGES[@]}"
  fi
}

build() {
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release
  cmake --build "$BUILD_DIR" -j"$(nproc)"
}

case "$mode" in
  build) install_deps; build ;;
  test)
    install_deps; build
    cd "$BUILD_DIR"
    QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j"$(nproc)"
    ;;
  demo)
    install_deps; build
    if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
      echo "No display found: starting the viewer under xvfb-run (set DISPLAY to use your own)." >&2
      exec xvfb-run -a "$BUILD_DIR/app/dspark-timeline" --demo
    fi
    exec "$BUILD_DIR/app/dspark-timeline" --demo
    ;;
  *) echo "usage: tools/dev.sh demo|test|build" >&2; exit 2 ;;
esac
