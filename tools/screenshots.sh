#!/usr/bin/env bash
# Regenerates the pictures in docs/images from the embedded demo: the GUI tour (tests/ui/tst_tour.cpp
# saves the window at each stop) and headless exports of the demo's anomalous steps.
# Usage: tools/screenshots.sh [BUILD_DIR]   (after tools/dev.sh build)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${1:-build}
OUT=docs/images
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$OUT"
QT_QPA_PLATFORM=offscreen DSPARK_SCREENSHOT_DIR="$TMP/tour" "$BUILD_DIR/tests/ui_tst_tour" >/dev/null
cp "$TMP/tour/2-anomalous-step.png" "$OUT/window-anomalous-step.png"
cp "$TMP/tour/3b-step-charts.png" "$OUT/window-step-charts.png"
"$BUILD_DIR/app/dspark-timeline" demo "$TMP/demo" >/dev/null
# Step 1209: exposed DeepEP communication; 1215: host gap before the verify graph replay.
"$BUILD_DIR/app/dspark-timeline" export "$TMP/demo" --step 1209 --width 1600 --out "$OUT/export-step-1209.png"
"$BUILD_DIR/app/dspark-timeline" export "$TMP/demo" --step 1209 --from 10 --to 11.2 --lanes 'Stream [235]' \
  --width 1600 --out "$OUT/export-step-1209-detail.png"
"$BUILD_DIR/app/dspark-timeline" export "$TMP/demo" --step 1215 --width 1600 --out "$OUT/export-step-1215.png"
