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
cp "$TMP/tour/4-markers-measurement.png" "$OUT/window-markers-measurement.png"
cp "$TMP/tour/4b-lane-filter.png" "$OUT/window-lane-filter.png"
# The same tour in Chinese.
QT_QPA_PLATFORM=offscreen DSPARK_SCREENSHOT_LANG=zh_CN DSPARK_SCREENSHOT_DIR="$TMP/tour-zh" "$BUILD_DIR/tests/ui_tst_tour" >/dev/null
cp "$TMP/tour-zh/2-anomalous-step.png" "$OUT/window-anomalous-step-zh.png"
cp "$TMP/tour-zh/3b-step-charts.png" "$OUT/window-step-charts-zh.png"
cp "$TMP/tour-zh/4-markers-measurement.png" "$OUT/window-markers-measurement-zh.png"
cp "$TMP/tour-zh/4b-lane-filter.png" "$OUT/window-lane-filter-zh.png"
# Step records without a timeline; the Selected step chart.
QT_QPA_PLATFORM=offscreen DSPARK_SCREENSHOT_DIR="$TMP/new-user" "$BUILD_DIR/tests/ui_tst_new_user" >/dev/null
cp "$TMP/new-user/steps-without-timeline.png" "$OUT/window-steps-without-timeline.png"
cp "$TMP/new-user/selected-step-chart.png" "$OUT/window-selected-step-chart.png"
# The cluster window on the 8-rank demo (docs/cluster.md), in English and Chinese.
QT_QPA_PLATFORM=offscreen DSPARK_SCREENSHOT_DIR="$OUT" "$BUILD_DIR/tests/ui_tst_cluster_timeline" screenshots >/dev/null
# Range statistics, kernel summary, profiler steps (issue 26), in English and Chinese.
QT_QPA_PLATFORM=offscreen DSPARK_SCREENSHOT_DIR="$OUT" "$BUILD_DIR/tests/ui_tst_summary_docks" screenshots >/dev/null
QT_QPA_PLATFORM=offscreen DSPARK_SCREENSHOT_LANG=zh_CN DSPARK_SCREENSHOT_DIR="$OUT" "$BUILD_DIR/tests/ui_tst_summary_docks" \
  screenshots >/dev/null
# The first view of the real torch_npu database and Kineto trace, folded host lanes (needs the real data).
QT_QPA_PLATFORM=offscreen DSPARK_SCREENSHOT_DIR="$OUT" "$BUILD_DIR/tests/ui_tst_first_view" screenshots >/dev/null
QT_QPA_PLATFORM=offscreen DSPARK_SCREENSHOT_LANG=zh_CN DSPARK_SCREENSHOT_DIR="$OUT" "$BUILD_DIR/tests/ui_tst_first_view" \
  screenshots >/dev/null
"$BUILD_DIR/app/dspark-timeline" demo "$TMP/demo" >/dev/null
# Step 1209: exposed DeepEP communication; 1215: host gap before the verify graph replay.
"$BUILD_DIR/app/dspark-timeline" export "$TMP/demo" --step 1209 --width 1600 --out "$OUT/export-step-1209.png"
"$BUILD_DIR/app/dspark-timeline" export "$TMP/demo" --step 1209 --from 10 --to 11.2 --lanes 'Stream [235]' \
  --width 1600 --out "$OUT/export-step-1209-detail.png"
"$BUILD_DIR/app/dspark-timeline" export "$TMP/demo" --step 1215 --width 1600 --out "$OUT/export-step-1215.png"
LC_ALL=zh_CN.UTF-8 "$BUILD_DIR/app/dspark-timeline" export "$TMP/demo" --step 1209 --width 1600 \
  --out "$OUT/export-step-1209-zh.png"
# The whole profile (no step): the title says so.
"$BUILD_DIR/app/dspark-timeline" export "$TMP/demo" --width 1600 --out "$OUT/export-whole-profile.png"
