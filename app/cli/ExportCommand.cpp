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

namespace {

// What the command line asks for.
struct ExportRequest {
    QString path, out, lanes, annotationFile;
    ui::ImageFormat format{};
    double width = 0, height = 0, scale = 1;
    qint64 forwardCt = -1;              // -1: the whole profile
    int recordRank = -1;                // -1: any rank
    std::optional<double> fromMs, toMs; // ms after the step's window start (the profile start without --step)
    bool annotations = true, legend = true;
};

// The options' texts, before they are checked.
struct ExportTexts {
    QString step, rank, width, height, scale, from, to;
};

// --width / --height / --scale, --step / --rank, --from / --to. 0 when they are valid, else the exit code
// (the error printed).
int checkNumbers(const ExportTexts& t, ExportRequest& r)
{
    if (!parsePositive(t.width, r.width, 20000) || r.width < 400) {
        printError(QCoreApplication::translate(
                       "cli", "export: --width must be a number of pixels from 400 to 20000, not \"%1\"")
                       .arg(t.width));
        return 2;
    }
    if (!t.height.isEmpty() && (!parsePositive(t.height, r.height, 20000) || r.height < 100)) {
        printError(QCoreApplication::translate(
                       "cli", "export: --height must be a number of pixels from 100 to 20000, not \"%1\"")
                       .arg(t.height));
        return 2;
    }
    if (!parsePositive(t.scale, r.scale, 8)) {
        printError(
            QCoreApplication::translate("cli", "export: --scale must be a number above 0 and at most 8, not \"%1\"")
                .arg(t.scale));
        return 2;
    }
    bool ok = true;
    r.forwardCt = t.step.isEmpty() ? -1 : t.step.toLongLong(&ok);
    if (!ok) {
        printError(QCoreApplication::translate("cli", "export: --step takes a forward_ct, not \"%1\"").arg(t.step));
        return 2;
    }
    r.recordRank = t.rank.isEmpty() ? -1 : t.rank.toInt(&ok);
    if (!ok) {
        printError(QCoreApplication::translate("cli", "export: --rank takes a rank number, not \"%1\"").arg(t.rank));
        return 2;
    }
    for (auto [text, out, name] : {std::tuple{&t.from, &r.fromMs, "--from"}, std::tuple{&t.to, &r.toMs, "--to"}}) {
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
    if (r.fromMs && r.toMs && *r.toMs <= *r.fromMs) {
        printError(QCoreApplication::translate("cli", "export: --to must be after --from"));
        return 2;
    }
    return 0;
}

// 0 when the command line is valid, else the exit code (the error or the usage printed).
int parseRequest(const QStringList& argsIn, ExportRequest& r)
{
    QStringList args = argsIn;
    ExportTexts t;
    r.out = takeOption(args, QStringLiteral("--out"));
    t.step = takeOption(args, QStringLiteral("--step"));
    t.rank = takeOption(args, QStringLiteral("--rank"));
    t.width = takeOption(args, QStringLiteral("--width"), QStringLiteral("1600"));
    t.height = takeOption(args, QStringLiteral("--height"));
    t.scale = takeOption(args, QStringLiteral("--scale"), QStringLiteral("1"));
    r.lanes = takeOption(args, QStringLiteral("--lanes"));
    t.from = takeOption(args, QStringLiteral("--from"));
    t.to = takeOption(args, QStringLiteral("--to"));
    r.annotationFile = takeOption(args, QStringLiteral("--annotations"));
    r.annotations = !takeFlag(args, QStringLiteral("--no-annotations"));
    r.legend = !takeFlag(args, QStringLiteral("--no-legend"));
    for (const QString& a : args)
        if (a.startsWith(QLatin1String("--"))) {
            printError(QCoreApplication::translate("cli", "export: unknown option %1").arg(a));
            return 2;
        }
    if (args.size() != 1 || r.out.isEmpty()) {
        printError(QCoreApplication::translate(
            "cli", "usage: dspark-timeline export PATH [--step N] --out FILE.png|svg|pdf [--width W] [--height H] "
                   "[--lanes PATTERN] [--scale S] [--rank R] [--from MS] [--to MS] [--annotations FILE] "
                   "[--no-annotations] [--no-legend]"));
        return 2;
    }
    const std::optional<ui::ImageFormat> format = ui::imageFormatForPath(r.out);
    if (!format) {
        printError(QCoreApplication::translate("cli", "%1: unknown image type (use .png, .svg or .pdf)").arg(r.out));
        return 2;
    }
    r.format = *format;
    r.path = args.front();
    return checkNumbers(t, r);
}

// The session's annotations (or --annotations FILE) onto the report. 0, else the exit code.
int addAnnotations(const ExportRequest& r, const Profile& profile, AnnotationSet& annotations,
                   ui::TimelineReport& report)
{
    const QString file = r.annotationFile.isEmpty() ? ui::annotationSessionPath(profile) : r.annotationFile;
    if (QFileInfo::exists(file)) {
        if (const QString error = annotations.load(file); !error.isEmpty()) {
            printError(error);
            if (!r.annotationFile.isEmpty())
                return 1;
        }
    } else if (!r.annotationFile.isEmpty()) {
        printError(QCoreApplication::translate("cli", "%1: no such annotation file").arg(r.annotationFile));
        return 1;
    }
    report.setAnnotations(annotations);
    return 0;
}

// The aligned step of --step (and --rank), the first that matches; nothing (the error printed) when none does.
std::optional<size_t> findStep(const ExportRequest& r, const Profile& profile, const StepAnalyses& analyses)
{
    const StepRecordSet* set = profile.stepRecords.get();
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    std::optional<size_t> step;
    for (size_t i = 0; i < analyses.stepCount(); ++i) {
        const RecordWindow& w = analyses.step(i);
        lo = std::min(lo, w.window.forwardCt);
        hi = std::max(hi, w.window.forwardCt);
        const int rank = set && w.row < set->size() ? set->rows[w.row].dpRank : w.window.rankIndex;
        if (w.window.forwardCt == r.forwardCt && (r.recordRank < 0 || rank == r.recordRank) && !step)
            step = i;
    }
    if (step)
        return step;
    if (analyses.stepCount() == 0)
        printError(QCoreApplication::translate(
                       "cli", "%1: no DSpark step records aligned to the timeline, so there is no step %2 (export "
                              "without --step for the whole profile)")
                       .arg(r.path)
                       .arg(r.forwardCt));
    else
        printError(
            QCoreApplication::translate("cli", "%1: forward_ct %2 is not an aligned step%3 (aligned steps: %4–%5)")
                .arg(r.path)
                .arg(r.forwardCt)
                .arg(r.recordRank >= 0 ? QCoreApplication::translate("cli", " of rank %1").arg(r.recordRank)
                                       : QString())
                .arg(lo)
                .arg(hi));
    return std::nullopt;
}

// The step or the whole profile, then --from / --to within it. 0, else the exit code.
int showRange(const ExportRequest& r, const Profile& profile, const StepAnalyses& analyses, ui::TimelineReport& report)
{
    std::optional<size_t> step;
    if (r.forwardCt >= 0) {
        step = findStep(r, profile, analyses);
        if (!step)
            return 1;
        report.showStep(*step);
    } else {
        report.showRange(profile.firstNs(), profile.lastNs());
    }
    if (r.fromMs || r.toMs) {
        const TimeNs origin = step ? analyses.step(*step).window.startNs : profile.firstNs();
        auto at = [origin](double ms) { return origin + TimeNs(std::llround(ms * 1e6)); };
        report.setShownRange(r.fromMs ? at(*r.fromMs) : report.startNs(), r.toMs ? at(*r.toMs) : report.endNs());
    }
    return 0;
}

} // namespace

int runExport(const QStringList& args)
{
    ExportRequest r;
    if (const int code = parseRequest(args, r); code != 0)
        return code;
    QString rulesError;
    const auto rules = std::make_shared<const AnalysisRules>(AnalysisRules::load({}, &rulesError));
    if (!rulesError.isEmpty())
        printError(rulesError);
    LoadOutcome loaded = loadForCommand(r.path, rules);
    if (!loaded.profile) {
        printError(loaded.error);
        return 1;
    }
    std::shared_ptr<const Profile> profile = std::move(loaded.profile);

    ProfileSession session(profile, r.path, *rules);
    StepAnalyses& analyses = *session.analyses();
    ui::TimelineReport report(&analyses);
    ui::ReportParts parts;
    parts.legend = r.legend;
    parts.annotations = r.annotations;
    report.setParts(parts);
    if (const QString error = report.setLanePattern(r.lanes); !error.isEmpty()) {
        printError(QCoreApplication::translate("cli", "export: %1").arg(error));
        return 2;
    }
    if (r.annotations)
        if (const int code = addAnnotations(r, *profile, session.annotations(), report); code != 0)
            return code;
    if (const int code = showRange(r, *profile, analyses, report); code != 0)
        return code;
    if (report.shownLaneCount() == 0) {
        printError(QCoreApplication::translate("cli", "%1: no lane with events matches the lane pattern \"%2\"")
                       .arg(r.path, r.lanes));
        return 1;
    }
    const QSize size{int(r.width), int(r.height)};
    if (const QString error = report.exportTo(r.out, r.format, size, r.scale); !error.isEmpty()) {
        printError(error);
        return 1;
    }
    const QSize logical = r.height > 0 ? size : report.preferredSize(int(r.width));
    printOut(QCoreApplication::translate("cli", "wrote %1 (%2×%3 px at scale %4, %n lane(s))\n", nullptr,
                                         int(report.shownLaneCount()))
                 .arg(r.out)
                 .arg(logical.width())
                 .arg(logical.height())
                 .arg(r.scale)
                 .toStdString());
    return 0;
}

} // namespace dspark::cli
