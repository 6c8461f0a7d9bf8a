// Timeline rendering benchmark: a synthetic profile with ~10 million events, painted offscreen at
// 1920×1080 through the window's own paint path (the graphics view with one item per lane) and
// through the export renderer. Run by hand:
//   QT_QPA_PLATFORM=offscreen build-bench/bench/bench_ui_timeline [kernelsPerStream] [streams] [pngDir]
//   QT_QPA_PLATFORM=offscreen build-bench/bench/bench_ui_timeline --file PATH [pngDir]
// --file: the profile a loader makes of PATH (a file or folder) instead of the synthetic one, so that the
// first paint after a real load (the model's pages as the loader left them) is measured.
// Figures go to docs/performance.md ("Timeline rendering").
#include "../tests/ui/SyntheticProfile.h"

#include "io/ProfileLoader.h"
#include "timeline/TimelineView.h"
#include "timeline/TimelineWidget.h"
#include "util/Memory.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>
#include <QScrollBar>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace dspark;
using namespace dspark::ui;

struct Stats {
    double min = 0, median = 0, max = 0;
};

template <typename F> static Stats measure(int runs, F&& f)
{
    std::vector<double> ms;
    for (int i = 0; i < runs; ++i) {
        QElapsedTimer t;
        t.start();
        f();
        ms.push_back(double(t.nsecsElapsed()) / 1e6);
    }
    std::sort(ms.begin(), ms.end());
    return {ms.front(), ms[ms.size() / 2], ms.back()};
}

static void report(const char* what, const Stats& s)
{
    std::printf("%-58s min %7.2f  median %7.2f  max %7.2f ms\n", what, s.min, s.median, s.max);
}

int main(int argc, char** argv)
{
    keepFreedMemoryForReuse(); // (the allocator's settings for loading, as the app sets them)
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const bool fromFile = argc > 2 && std::string(argv[1]) == "--file";
    QElapsedTimer build;
    build.start();
    std::shared_ptr<Profile> profile;
    if (fromFile) {
        const LoadOutcome out = loadProfile(argv[2], LoadProgress());
        if (!out.profile) {
            std::fprintf(stderr, "%s\n", qPrintable(out.error));
            return 1;
        }
        profile = out.profile;
    } else {
        test::SyntheticSpec spec;
        spec.kernelsPerStream = argc > 1 ? std::stoul(argv[1]) : 1'250'000;
        spec.streams = argc > 2 ? std::atoi(argv[2]) : 8;
        spec.steps = 64;
        profile = test::makeSyntheticProfile(spec);
    }
    const ProfileStats stats = profile->stats();
    std::printf("profile: %llu events (%llu device tasks) in %zu lanes, %zu links, built in %.0f ms\n",
                (unsigned long long)stats.events, (unsigned long long)stats.deviceTasks, profile->lanes.size(),
                profile->links.size(), double(build.nsecsElapsed()) / 1e6);

    TimelineWidget timeline;
    timeline.resize(1920, 1080);
    timeline.show();
    QCoreApplication::processEvents();

    QImage viewImage(timeline.view()->viewport()->size(), QImage::Format_ARGB32_Premultiplied);
    auto paintView = [&]() {
        QPainter p(&viewImage);
        timeline.view()->render(&p, QRectF(), timeline.view()->viewport()->rect());
    };

    // First paint after load: hand the profile to the timeline, lay it out, paint the first frame. The
    // very first one also pays for cold caches (fonts, glyphs); then 5 more, each after clearing the
    // timeline, for the spread.
    auto firstPaint = [&]() {
        QElapsedTimer first;
        first.start();
        timeline.setProfile(profile);
        QCoreApplication::processEvents();
        paintView();
        return double(first.nsecsElapsed()) / 1e6;
    };
    std::printf("%-58s %7.2f ms\n", "first paint after load (setProfile + layout + frame)", firstPaint());
    std::vector<double> again;
    for (int i = 0; i < 5; ++i) {
        timeline.setProfile(nullptr);
        QCoreApplication::processEvents();
        again.push_back(firstPaint());
    }
    std::sort(again.begin(), again.end());
    std::printf("%-58s min %7.2f  median %7.2f  max %7.2f ms\n", "  again, after setProfile(nullptr), 5 times",
                again.front(), again[again.size() / 2], again.back());

    const int runs = 15;
    QImage full(1920, 1080, QImage::Format_ARGB32_Premultiplied);
    auto exportFrame = [&]() {
        QPainter p(&full);
        timeline.render(p, QRectF(0, 0, 1920, 1080), timeline.currentViewOptions());
    };
    auto windowRepaint = [&]() { timeline.view()->viewport()->repaint(); };

    const QString pngDir = argc > 3 ? QString::fromLocal8Bit(argv[3]) : QString(); // (in both forms)
    int scenarioIndex = 0;
    auto scenario = [&](const char* name, TimeNs a, TimeNs b) {
        timeline.zoom()->setRange(a, b);
        QCoreApplication::processEvents();
        std::printf("-- %s: span %.3f ms, view %dx%d (event area %.0f px)\n", name, double(b - a) / 1e6,
                    timeline.view()->viewport()->width(), timeline.view()->viewport()->height(),
                    timeline.eventAreaWidth());
        report("  graphics view -> QImage (all lane items)", measure(runs, paintView));
        report("  export renderer -> QImage 1920x1080 (ruler+lanes+overlays)", measure(runs, exportFrame));
        std::vector<double> frames;
        for (int i = 0; i < runs; ++i) {
            windowRepaint();
            frames.push_back(timeline.lastFrameMs());
        }
        std::sort(frames.begin(), frames.end());
        std::printf("%-58s min %7.2f  median %7.2f  max %7.2f ms\n",
                    "  window repaint (paintEvent, offscreen backing store)", frames.front(), frames[frames.size() / 2],
                    frames.back());
        if (!pngDir.isEmpty())
            full.save(QStringLiteral("%1/bench_ui_timeline_%2.png").arg(pngDir).arg(++scenarioIndex));
    };
    const TimeNs first0 = profile->firstNs(), last0 = profile->lastNs();
    scenario("fit all: every event in view", first0, last0);
    const TimeNs mid = first0 + (last0 - first0) / 2;
    scenario("1 ms window", mid, mid + 1'000'000);
    scenario("zoomed in: 20 us window", mid, mid + 20'000);

    // Flows for every visible event (capped) at a 200 µs window.
    timeline.setShowAllFlows(true);
    scenario("200 us window with all flows in view", mid, mid + 200'000);
    return 0;
}
