// `dspark-timeline export PATH --step N --out FILE`: a step (or the whole profile) as an annotated
// PNG / SVG / PDF, headless. Runs under QGuiApplication on the offscreen platform (Commands.cpp marks
// it needsGui): everything on this path paints with QPainter only, no QWidget.
#include "cli/CliCommand.h"

#include "io/ProfileLoader.h"
#include "overlays/AnnotationOverlay.h"
#include "report/TimelineReport.h"
#include "session/ProfileSession.h"
#include "session/StepAnalyses.h"
#include "steps/StepRecords.h"

#include <QCoreApplication>
#include <QFileInfo>

#include <cmath>
#include <tuple>

namespace dspark::cli {

static bool parsePositive(const QString& text, double& out, double max)
{
    bool ok = false;
    const double v = text.toDouble(&ok);
    if (!ok || !(v > 0) || v > max)
        return false;
    out = v;
    return true;
}

int runExport(const QStringList& argsIn)
{
    QStringList args = argsIn;
    const QString out = takeOption(args, QStringLiteral("--out"));
    const QString stepText = takeOption(args, QStringLiteral("--step"));
    const QString rankText = takeOption(args, QStringLiteral("--rank"));
    const QString widthText = takeOption(args, QStringLiteral("--width"), QStringLiteral("1600"));
    const QString heightText = takeOption(args, QStringLiteral("--height"));
    const QString scaleText = takeOption(args, QStringLiteral("--scale"), QStringLiteral("1"));
    const QString lanes = takeOption(args, QStringLiteral("--lanes"));
    const QString fromText = takeOption(args, QStringLiteral("--from"));
    const QString toText = takeOption(args, QStringLiteral("--to"));
    const QString annotationFile = takeOption(args, QStringLiteral("--annotations"));
    const bool noAnnotations = takeFlag(args, QStringLiteral("--no-annotations"));
    const bool noLegend = takeFlag(args, QStringLiteral("--no-legend"));
    for (const QString& a : args)
        if (a.startsWith(QLatin1String("--"))) {
            printError(QCoreApplication::translate("cli", "export: unknown option %1").arg(a));
            return 2;
        }
    if (args.size() != 1 || out.isEmpty()) {
        printError(QCoreApplication::translate(
            "cli", "usage: dspark-timeline export PATH [--step N] --out FILE.png|svg|pdf [--width W] [--height H] "
                   "[--lanes PATTERN] [--scale S] [--rank R] [--from MS] [--to MS] [--annotations FILE] "
                   "[--no-annotations] [--no-legend]"));
        return 2;
    }
    const std::optional<ui::ImageFormat> format = ui::imageFormatForPath(out);
    if (!format) {
        printError(QCoreApplication::translate("cli", "%1: unknown image type (use .png, .svg or .pdf)").arg(out));
        return 2;
    }
    double width = 0, height = 0, scale = 1;
    if (!parsePositive(widthText, width, 20000) || width < 400) {
        printError(QCoreApplication::translate(
                       "cli", "export: --width must be a number of pixels from 400 to 20000, not \"%1\"")
                       .arg(widthText));
        return 2;
    }
    if (!heightText.isEmpty() && (!parsePositive(heightText, height, 20000) || height < 100)) {
        printError(QCoreApplication::translate(
                       "cli", "export: --height must be a number of pixels from 100 to 20000, not \"%1\"")
                       .arg(heightText));
        return 2;
    }
    if (!parsePositive(scaleText, scale, 8)) {
        printError(
            QCoreApplication::translate("cli", "export: --scale must be a number above 0 and at most 8, not \"%1\"")
                .arg(scaleText));
        return 2;
    }
    bool ok = true;
    const qint64 forwardCt = stepText.isEmpty() ? -1 : stepText.toLongLong(&ok);
    if (!ok) {
        printError(QCoreApplication::translate("cli", "export: --step takes a forward_ct, not \"%1\"").arg(stepText));
        return 2;
    }
    const int recordRank = rankText.isEmpty() ? -1 : rankText.toInt(&ok);
    if (!ok) {
        printError(QCoreApplication::translate("cli", "export: --rank takes a rank number, not \"%1\"").arg(rankText));
        return 2;
    }

    // --from / --to: ms after the step's window start (the profile start without --step).
    std::optional<double> fromMs, toMs;
    for (auto [text, out, name] : {std::tuple{&fromText, &fromMs, "--from"}, std::tuple{&toText, &toMs, "--to"}}) {
        if (text->isEmpty())
            continue;
        const double v = text->toDouble(&ok);
        if (!ok || v < 0) {
            printError(QCoreApplication::translate("cli", "export: %1 takes milliseconds from the start (0 or more), "
                                                          "not \"%2\"")
                           .arg(QLatin1String(name), *text));
            return 2;
        }
        *out = v;
    }
    if (fromMs && toMs && *toMs <= *fromMs) {
        printError(QCoreApplication::translate("cli", "export: --to must be after --from"));
        return 2;
    }

    const QString path = args.front();
    LoadOutcome loaded = loadProfile(path.toStdString());
    if (!loaded.profile) {
        printError(loaded.error);
        return 1;
    }
    std::shared_ptr<const Profile> profile = std::move(loaded.profile);
    QString rulesError;
    AnalysisRules rules = AnalysisRules::load({}, &rulesError);
    if (!rulesError.isEmpty())
        printError(rulesError);

    ProfileSession session(profile, path, std::move(rules));
    StepAnalyses& analyses = *session.analyses();
    ui::TimelineReport report(&analyses);
    ui::ReportParts parts;
    parts.legend = !noLegend;
    parts.annotations = !noAnnotations;
    report.setParts(parts);
    if (const QString error = report.setLanePattern(lanes); !error.isEmpty()) {
        printError(QCoreApplication::translate("cli", "export: %1").arg(error));
        return 2;
    }
    if (!noAnnotations) {
        AnnotationSet& annotations = session.annotations();
        const QString file = annotationFile.isEmpty() ? ui::annotationSessionPath(*profile) : annotationFile;
        if (QFileInfo::exists(file)) {
            if (const QString error = annotations.load(file); !error.isEmpty()) {
                printError(error);
                if (!annotationFile.isEmpty())
                    return 1;
            }
        } else if (!annotationFile.isEmpty()) {
            printError(QCoreApplication::translate("cli", "%1: no such annotation file").arg(annotationFile));
            return 1;
        }
        report.setAnnotations(annotations);
    }

    std::optional<size_t> step;
    if (forwardCt >= 0) {
        const StepRecordSet* set = profile->stepRecords.get();
        int64_t lo = INT64_MAX, hi = INT64_MIN;
        for (size_t i = 0; i < analyses.stepCount(); ++i) {
            const RecordWindow& w = analyses.step(i);
            lo = std::min(lo, w.window.forwardCt);
            hi = std::max(hi, w.window.forwardCt);
            const int rank = set && w.row < set->size() ? set->rows[w.row].rank : w.window.rank;
            if (w.window.forwardCt == forwardCt && (recordRank < 0 || rank == recordRank) && !step)
                step = i;
        }
        if (!step) {
            if (analyses.stepCount() == 0)
                printError(QCoreApplication::translate(
                               "cli",
                               "%1: no DSpark step records aligned to the timeline, so there is no step %2 (export "
                               "without --step for the whole profile)")
                               .arg(path)
                               .arg(forwardCt));
            else
                printError(QCoreApplication::translate(
                               "cli", "%1: forward_ct %2 is not an aligned step%3 (aligned steps: %4–%5)")
                               .arg(path)
                               .arg(forwardCt)
                               .arg(recordRank >= 0 ? QCoreApplication::translate("cli", " of rank %1").arg(recordRank)
                                                    : QString())
                               .arg(lo)
                               .arg(hi));
            return 1;
        }
        report.showStep(*step);
    } else {
        report.showRange(profile->firstNs(), profile->lastNs());
    }
    if (fromMs || toMs) {
        const TimeNs origin = step ? analyses.step(*step).window.startNs : profile->firstNs();
        auto at = [origin](double ms) { return origin + TimeNs(std::llround(ms * 1e6)); };
        report.setShownRange(fromMs ? at(*fromMs) : report.startNs(), toMs ? at(*toMs) : report.endNs());
    }
    if (report.shownLaneCount() == 0) {
        printError(QCoreApplication::translate("cli", "%1: no lane with events matches the lane pattern \"%2\"")
                       .arg(path, lanes));
        return 1;
    }
    const QSize size{int(width), int(height)};
    if (const QString error = report.exportTo(out, *format, size, scale); !error.isEmpty()) {
        printError(error);
        return 1;
    }
    const QSize logical = height > 0 ? size : report.preferredSize(int(width));
    printOut(QCoreApplication::translate("cli", "wrote %1 (%2×%3 px at scale %4, %n lane(s))\n", nullptr,
                                         int(report.shownLaneCount()))
                 .arg(out)
                 .arg(logical.width())
                 .arg(logical.height())
                 .arg(scale)
                 .toStdString());
    return 0;
}

} // namespace dspark::cli
