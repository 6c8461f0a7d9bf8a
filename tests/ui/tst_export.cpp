// Reports (issue 8): images of a step or a view in PNG / SVG / PDF with the analyses drawn on them,
// the user's annotations (placed with the mouse, saved per profile, drawn in exports), and the
// Export dialog. The demo profile (docs/demo.md) gives steps whose answers are known.
#include "../demo/DemoTestSupport.h"
#include "SyntheticProfile.h"
#include "TestSupport.h"

#include "io/ProfileLoader.h"
#include "overlays/AnalysisPalette.h"
#include "overlays/AnnotationOverlay.h"
#include "overlays/AnnotationSession.h"
#include "overlays/AnnotationTool.h"
#include "overlays/CommBracketOverlay.h"
#include "overlays/CriticalPathOverlay.h"
#include "overlays/StageBandOverlay.h"
#include "report/ExportDialog.h"
#include "report/TimelineReport.h"
#include "report/ViewReport.h"
#include "session/StepAnalyses.h"
#include "timeline/TimeFormat.h"
#include "timeline/TimelineView.h"
#include "timeline/TimelineWidget.h"

#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QImage>
#include <QPushButton>
#include <QStandardPaths>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

using namespace dspark;
using namespace dspark::test;
using namespace dspark::ui;

namespace {

// Pixels of exactly this colour (antialiased edges blend; the core of a 2 px line does not).
int countColor(const QImage& image, QColor color)
{
    const QImage img = image.convertToFormat(QImage::Format_RGB32);
    const QRgb want = color.rgb() & 0xffffff;
    int n = 0;
    for (int y = 0; y < img.height(); ++y) {
        const QRgb* line = reinterpret_cast<const QRgb*>(img.constScanLine(y));
        for (int x = 0; x < img.width(); ++x)
            n += (line[x] & 0xffffff) == want;
    }
    return n;
}

QByteArray readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Text of every <text> element of an SVG document (QXmlStreamReader: the file must parse).
QString svgText(const QByteArray& svg, QString* error)
{
    QXmlStreamReader xml(svg);
    QString text;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement() && xml.name() == QLatin1String("text"))
            text += xml.readElementText(QXmlStreamReader::IncludeChildElements) + QLatin1Char('\n');
    }
    if (xml.hasError())
        *error = xml.errorString();
    return text;
}

uint32_t laneNamed(const Profile& p, const std::string& process, const std::string& name)
{
    for (uint32_t i = 0; i < p.lanes.size(); ++i)
        if (p.lanes[i].info.process == process && p.lanes[i].info.name == name)
            return i;
    return UINT32_MAX;
}

} // namespace

class TestExport : public QObject {
    Q_OBJECT
    WrittenDemo m_demo;
    std::shared_ptr<const Profile> m_profile;
    std::unique_ptr<StepAnalyses> m_analyses;
    QTemporaryDir m_out;

    size_t stepOf(int64_t forwardCt) const
    {
        const std::optional<size_t> i = m_analyses->stepOf(-1, forwardCt);
        return i ? *i : SIZE_MAX;
    }
    QString out(const QString& name) const { return m_out.filePath(name); }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_demo = writeTestDemo(24, 7, 1, false);
        QVERIFY2(m_demo.result.error.isEmpty(), qPrintable(m_demo.result.error));
        LoadOutcome loaded = loadProfile(m_demo.dir.toStdString());
        QVERIFY2(loaded.profile, qPrintable(loaded.error));
        m_profile = std::move(loaded.profile);
        m_analyses = std::make_unique<StepAnalyses>();
        m_analyses->setProfile(m_profile);
        m_analyses->computeNow();
        QVERIFY(m_analyses->ready());
    }

    void theDemoHasItsDecodeStepsAligned()
    {
        // 24 iterations, one of them the prefill without a record: 23 analysed decode steps.
        QCOMPARE(m_analyses->stepCount(), size_t(23));
        const size_t i = stepOf(1209);
        QVERIFY(i != SIZE_MAX);
        const nlohmann::json& t = m_demo.truthStep(1209);
        QCOMPARE(m_analyses->step(i).window.startNs, t["window"]["start_ns"].get<int64_t>());
        QCOMPARE(m_analyses->step(i).window.endNs, t["window"]["end_ns"].get<int64_t>());
    }

    void aPngHasTheRequestedSizeAtEveryScale()
    {
        TimelineReport report(m_analyses.get());
        report.showRange(m_profile->firstNs(), m_profile->lastNs());
        QCOMPARE(report.exportTo(out("range.png"), ImageFormat::Png, QSize(1200, 700), 1.0), QString());
        QImage one(out("range.png"));
        QCOMPARE(one.size(), QSize(1200, 700));
        QCOMPARE(report.exportTo(out("range2.png"), ImageFormat::Png, QSize(1200, 700), 2.0), QString());
        QImage two(out("range2.png"));
        QCOMPARE(two.size(), QSize(2400, 1400));
        QCOMPARE(report.exportTo(out("range15.png"), ImageFormat::Png, QSize(1000, 500), 1.5), QString());
        QCOMPARE(QImage(out("range15.png")).size(), QSize(1500, 750));
        // Height 0 fits every lane: header + ruler + rows + legend.
        QCOMPARE(report.exportTo(out("fit.png"), ImageFormat::Png, QSize(1000, 0), 1.0), QString());
        QCOMPARE(QImage(out("fit.png")).size(), report.preferredSize(1000));
        QVERIFY(report.preferredSize(1000).height() > int(report.layout().contentHeight()));
    }

    void anSvgParsesAndNamesTheLanesAndTheStep()
    {
        TimelineReport report(m_analyses.get());
        report.showStep(stepOf(1209));
        QCOMPARE(report.exportTo(out("step.svg"), ImageFormat::Svg, QSize(1400, 0), 1.0), QString());
        const QByteArray svg = readFile(out("step.svg"));
        QSvgRenderer renderer(svg);
        QVERIFY(renderer.isValid());
        QCOMPARE(renderer.defaultSize(), report.preferredSize(1400));
        QString error;
        const QString text = svgText(svg, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        for (const char* expected :
             {"Stream 2", "Stream 5", "Thread 2837461", "forward_ct 1209", "Legend:", "Target Verify", "Critical path"})
            QVERIFY2(text.contains(QLatin1String(expected)), expected);
    }

    void aPdfIsOnePageOfThePdfFormat()
    {
        TimelineReport report(m_analyses.get());
        report.showStep(stepOf(1205));
        QCOMPARE(report.exportTo(out("step.pdf"), ImageFormat::Pdf, QSize(1400, 900), 1.0), QString());
        const QByteArray pdf = readFile(out("step.pdf"));
        QVERIFY(pdf.startsWith("%PDF-"));
        QVERIFY(pdf.trimmed().endsWith("%%EOF"));
        QCOMPARE(pdf.count("/Type /Page\n") + pdf.count("/Type /Page\r") + pdf.count("/Type /Page "), 1);
    }

    void badRequestsAreOneLineErrorsNamingTheFile()
    {
        TimelineReport report(m_analyses.get());
        report.showStep(stepOf(1201));
        const QString tooBig = report.exportTo(out("huge.png"), ImageFormat::Png, QSize(20000, 20000), 4.0);
        QVERIFY(tooBig.contains(out("huge.png")));
        QVERIFY(!QFile::exists(out("huge.png")));
        const QString badDir =
            report.exportTo(QStringLiteral("/nonexistent-dir/x.png"), ImageFormat::Png, QSize(800, 400), 1.0);
        QVERIFY(badDir.startsWith(QLatin1String("/nonexistent-dir/x.png:")));
        QVERIFY(!badDir.contains(QLatin1Char('\n')));
        QCOMPARE(imageFormatForPath(QStringLiteral("a.PNG")), std::optional<ImageFormat>(ImageFormat::Png));
        QCOMPARE(imageFormatForPath(QStringLiteral("a.jpg")), std::optional<ImageFormat>());
        QVERIFY(!report.setLanePattern(QStringLiteral("Stream(")).isEmpty());
    }

    void aStepReportCarriesTheTitleLineOfTheStep()
    {
        const size_t i = stepOf(1209);
        TimelineReport report(m_analyses.get());
        report.showStep(i);
        const nlohmann::json& t = m_demo.truthStep(1209);
        const QString title = report.header().title;
        QVERIFY2(title.contains(QStringLiteral("rank 0")), qPrintable(title));
        QVERIFY2(title.contains(QStringLiteral("forward_ct 1209")), qPrintable(title));
        QVERIFY2(title.contains(QStringLiteral("bs %1").arg(t["bs"].get<int>())), qPrintable(title));
        QVERIFY2(title.contains(QStringLiteral("verify tokens %1").arg(t["num_verify_tokens"].get<int>())),
                 qPrintable(title));
        QVERIFY2(
            title.contains(QStringLiteral("step wall %1").arg(formatDuration(t["window"]["wall_ns"].get<int64_t>()))),
            qPrintable(title));
        QVERIFY2(title.contains(QStringLiteral("effective TPOT ")) && title.contains(QStringLiteral(" ms")),
                 qPrintable(title));
        // 1209 is the exposed-communication anomaly of the demo: the detector flags it.
        QVERIFY2(report.header().warning.startsWith(QStringLiteral("Anomaly:")), qPrintable(report.header().warning));
        // The shown range is the window (and the device work launched in it) with a margin.
        const StepAnalysis& a = *m_analyses->analysis(i);
        QVERIFY(report.startNs() < a.window.startNs && report.endNs() > a.window.endNs);
    }

    void theStepLayersAreDrawnAndCanBeLeftOut()
    {
        const size_t i = stepOf(1209);
        const StepAnalysis& a = *m_analyses->analysis(i);
        TimelineReport report(m_analyses.get());
        report.showStep(i);
        const QImage all = report.toImage(QSize(1600, 0), 1.0);
        QVERIFY(!all.isNull());
        // Every band the analysis found, every communication operation, the exposed ones in red.
        int bands = 0;
        for (const auto* b : {&a.bands.draft, &a.bands.planner, &a.bands.verify, &a.bands.accept, &a.bands.commit})
            bands += b->has_value() && (*b)->extent.lengthNs() > 0;
        QVERIFY(bands >= 4);
        QCOMPARE(report.stageBands()->lastBandCount(), bands);
        QCOMPARE(size_t(report.commBrackets()->lastBracketCount()), a.comm.operations.size());
        int exposed = 0;
        for (const CommOperation& op : a.comm.operations)
            exposed += op.exposedNs > 0;
        QVERIFY(exposed > 0);
        QCOMPARE(report.commBrackets()->lastExposedCount(), exposed);
        QVERIFY(report.criticalPath()->lastPieceCount() > 0);
        // The bands are translucent and drawn over the path (their captions stay readable), so the
        // path's own colour is counted with the bands left out.
        ReportParts noBands;
        noBands.stageBands = false;
        report.setParts(noBands);
        const QImage path = report.toImage(QSize(1600, 0), 1.0);
        QVERIFY2(countColor(path, AnalysisPalette::criticalPath()) > 100,
                 qPrintable(QString::number(countColor(path, AnalysisPalette::criticalPath()))));
        QVERIFY(countColor(path, AnalysisPalette::commExposed()) > 20);

        ReportParts parts;
        parts.stageBands = false;
        parts.criticalPath = false;
        parts.commBrackets = false;
        report.setParts(parts);
        const QImage bare = report.toImage(QSize(1600, 0), 1.0);
        QCOMPARE(countColor(bare, AnalysisPalette::criticalPath()), 0);
        QCOMPARE(countColor(bare, AnalysisPalette::commExposed()), 0);
    }

    void thePreReplayGapIsMarkedOnTheVerifyStream()
    {
        // 1215 is the demo's pre-replay host gap: the verify stream idles ~3.4 ms before the replay.
        const size_t i = stepOf(1215);
        const StepAnalysis& a = *m_analyses->analysis(i);
        int gaps = 0;
        for (const ReplayGap& g : a.replay.replays)
            gaps += g.gap.lengthNs() > 0;
        QVERIFY(gaps >= 1);
        QVERIFY(a.replay.preReplayGapNs > 3'000'000);
        TimelineReport report(m_analyses.get());
        report.showStep(i);
        QVERIFY(!report.toImage(QSize(1600, 0), 1.0).isNull());
        QCOMPARE(report.stageBands()->lastReplayGapCount(), gaps);
        QVERIFY(report.header()
                    .details.join(QLatin1Char(' '))
                    .contains(QStringLiteral("pre-replay host gap %1").arg(formatDuration(a.replay.preReplayGapNs))));
    }

    void theLanePatternChoosesTheLanes()
    {
        TimelineReport report(m_analyses.get());
        report.showStep(stepOf(1203));
        // Default: the rank's lanes with events in the step (streams 2, 3, 5, 7, the host threads, the
        // HCCL group) — never the empty profiler-control stream 0.
        const uint32_t stream0 = laneNamed(*m_profile, "Ascend Hardware", "Stream 0");
        const uint32_t stream2 = laneNamed(*m_profile, "Ascend Hardware", "Stream 2");
        QVERIFY(stream0 != UINT32_MAX && stream2 != UINT32_MAX);
        QVERIFY(report.layout().isHidden(stream0));
        QVERIFY(!report.layout().isHidden(stream2));
        QCOMPARE(report.setLanePattern(QStringLiteral("stream [25]$")), QString());
        QCOMPARE(report.shownLaneCount(), size_t(2));
        QVERIFY(!report.layout().isHidden(stream2));
        QCOMPARE(report.setLanePattern(QStringLiteral("Python")), QString());
        QCOMPARE(report.shownLaneCount(), size_t(1));
        QCOMPARE(report.setLanePattern(QStringLiteral("no such lane")), QString());
        QCOMPARE(report.shownLaneCount(), size_t(0));
    }

    void annotationsRoundTripAndAppearInTheExport()
    {
        const size_t i = stepOf(1207);
        const StepWindow& w = m_analyses->step(i).window;
        const uint32_t stream2 = laneNamed(*m_profile, "Ascend Hardware", "Stream 2");
        AnnotationSet set;
        Annotation note;
        note.kind = Annotation::Kind::Note;
        note.startNs = note.endNs = w.startNs + w.wallNs() / 2;
        note.laneKey = AnnotationSet::laneKey(0, "Ascend Hardware", "Stream 2");
        note.text = QStringLiteral("尾部变长 — tail grows");
        note.color = QStringLiteral("#1a7f37");
        Annotation range;
        range.kind = Annotation::Kind::Range;
        range.startNs = w.startNs + w.wallNs() / 5;
        range.endNs = w.startNs + w.wallNs() / 3;
        range.text = QStringLiteral("look here");
        range.color = QStringLiteral("#0057b8");
        Annotation arrow;
        arrow.kind = Annotation::Kind::Arrow;
        arrow.startNs = w.startNs + w.wallNs() / 4;
        arrow.endNs = w.startNs + w.wallNs() * 2 / 5;
        arrow.laneKey = AnnotationSet::laneKey(0, "Python", "Thread 2837461");
        arrow.endLaneKey = AnnotationSet::laneKey(0, "Ascend Hardware", "Stream 5");
        arrow.color = QStringLiteral("#7a00cc");
        set.items = {note, range, arrow};
        AnnotationSet back;
        QCOMPARE(back.fromJson(set.toJson(), QStringLiteral("mem")), QString());
        QCOMPARE(back.items, set.items);

        TimelineReport report(m_analyses.get());
        ReportParts parts;
        parts.criticalPath = false;
        report.setParts(parts);
        report.showStep(i);
        QVERIFY(stream2 != UINT32_MAX);
        QCOMPARE(countColor(report.toImage(QSize(1400, 0), 1.0), QColor(QStringLiteral("#1a7f37"))), 0);
        report.setAnnotations(back);
        const QImage img = report.toImage(QSize(1400, 0), 1.0);
        QVERIFY(countColor(img, QColor(QStringLiteral("#1a7f37"))) > 20); // note pin and box border
        QVERIFY(countColor(img, QColor(QStringLiteral("#0057b8"))) > 50); // range edges
        QVERIFY(countColor(img, QColor(QStringLiteral("#7a00cc"))) > 20); // arrow
        parts.annotations = false;
        report.setParts(parts);
        QCOMPARE(countColor(report.toImage(QSize(1400, 0), 1.0), QColor(QStringLiteral("#7a00cc"))), 0);
    }

    void annotationsAreSavedPerProfileAndComeBack()
    {
        AnnotationOverlay overlay;
        AnnotationSession session(&overlay);
        QCOMPARE(session.open(m_profile.get()), QString());
        QFile::remove(session.path());
        QCOMPARE(session.open(m_profile.get()), QString());
        QCOMPARE(overlay.count(), 0);
        QVERIFY(!session.path().startsWith(m_demo.dir)); // never inside the profile folder
        Annotation a;
        a.kind = Annotation::Kind::Range;
        a.startNs = m_profile->firstNs() + 1000;
        a.endNs = m_profile->firstNs() + 5000;
        a.text = QStringLiteral("saved");
        overlay.add(a);
        QVERIFY(QFile::exists(session.path()));

        AnnotationOverlay reopened;
        AnnotationSession again(&reopened);
        QCOMPARE(again.open(m_profile.get()), QString());
        QCOMPARE(reopened.count(), 1);
        QCOMPARE(reopened.at(0), a);
        // Save next to a report and load back.
        QCOMPARE(again.saveAs(out("notes.json")), QString());
        reopened.remove(0);
        QCOMPARE(reopened.count(), 0);
        QCOMPARE(again.loadFrom(out("notes.json")), QString());
        QCOMPARE(reopened.count(), 1);
        // A broken session file is reported and left untouched.
        QFile broken(session.path());
        QVERIFY(broken.open(QIODevice::WriteOnly | QIODevice::Truncate));
        broken.write("{not json");
        broken.close();
        AnnotationOverlay third;
        AnnotationSession bad(&third);
        const QString error = bad.open(m_profile.get());
        QVERIFY(error.startsWith(session.path()));
        third.add(a);
        QCOMPARE(readFile(session.path()), QByteArray("{not json"));
        QFile::remove(session.path());
    }

    void theMouseAndKeyboardPlaceEditMoveAndDeleteAnnotations()
    {
        TimelineWidget w;
        w.resize(1300, 800);
        w.setProfile(m_profile);
        auto* overlay = new AnnotationOverlay(&w);
        overlay->setProfile(m_profile.get());
        w.addOverlay(overlay);
        AnnotationTool tool(&w, overlay);
        QString nextText = QStringLiteral("hello");
        tool.setTextPrompt([&](QWidget*, const QString&, const QString&, const QString&) -> std::optional<QString> {
            return nextText;
        });
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const StepWindow& sw = m_analyses->step(stepOf(1204)).window;
        w.zoom()->setRange(sw.startNs, sw.endNs);
        QApplication::processEvents();

        QWidget* vp = w.view()->viewport();
        const uint32_t stream2 = laneNamed(*m_profile, "Ascend Hardware", "Stream 2");
        const uint32_t python = laneNamed(*m_profile, "Python", "Thread 2837461");
        w.ensureLaneVisible(stream2);
        QApplication::processEvents();
        auto rowY = [&](uint32_t lane) {
            const LaneLayout::Row& r = w.layout()->rows()[w.layout()->rowOfLane(lane)];
            return int(r.y - w.scrollY() + 9);
        };
        const int x = w.labelWidth() + 300;
        const QPoint onStream(x, rowY(stream2));
        QVERIFY(onStream.y() > 0 && onStream.y() < vp->height());

        // A note: one click, then its text.
        tool.setMode(AnnotationTool::Mode::Note);
        QTest::mouseClick(vp, Qt::LeftButton, {}, onStream);
        QCOMPARE(overlay->count(), 1);
        QCOMPARE(overlay->at(0).kind, Annotation::Kind::Note);
        QCOMPARE(overlay->at(0).text, QStringLiteral("hello"));
        QCOMPARE(overlay->at(0).laneKey, overlay->keyOf(stream2));
        QCOMPARE(overlay->at(0).startNs, w.scale().timeAt(x));
        QCOMPARE(tool.mode(), AnnotationTool::Mode::Off);

        // Clicking it selects it; dragging moves it by the dragged time.
        vp->repaint();
        QTest::mouseClick(vp, Qt::LeftButton, {}, onStream + QPoint(200, 0));
        QCOMPARE(overlay->selected(), -1);
        QTest::mousePress(vp, Qt::LeftButton, {}, onStream);
        QCOMPARE(overlay->selected(), 0);
        QTest::mouseMove(vp, onStream + QPoint(60, 0));
        QTest::mouseRelease(vp, Qt::LeftButton, {}, onStream + QPoint(120, 0));
        QCOMPARE(overlay->at(0).startNs, w.scale().timeAt(x) + (w.scale().timeAt(x + 120) - w.scale().timeAt(x)));

        // Double-click edits the text.
        vp->repaint();
        nextText = QStringLiteral("edited");
        QTest::mouseDClick(vp, Qt::LeftButton, {}, onStream + QPoint(120, 0));
        QCOMPARE(overlay->at(0).text, QStringLiteral("edited"));

        // An arrow from the Python thread to stream 2.
        nextText = QStringLiteral("launch");
        tool.setMode(AnnotationTool::Mode::Arrow);
        w.ensureLaneVisible(python);
        QApplication::processEvents();
        const QPoint tail(x + 400, rowY(python)), head(x + 600, rowY(stream2));
        QTest::mousePress(vp, Qt::LeftButton, {}, tail);
        QTest::mouseMove(vp, (tail + head) / 2);
        QTest::mouseMove(vp, head);
        QTest::mouseRelease(vp, Qt::LeftButton, {}, head);
        QCOMPARE(overlay->count(), 2);
        QCOMPARE(overlay->at(1).kind, Annotation::Kind::Arrow);
        QCOMPARE(overlay->at(1).laneKey, overlay->keyOf(python));
        QCOMPARE(overlay->at(1).endLaneKey, overlay->keyOf(stream2));
        QCOMPARE(overlay->at(1).startNs, w.scale().timeAt(tail.x()));
        QCOMPARE(overlay->at(1).endNs, w.scale().timeAt(head.x()));

        // A range, dragged right to left, across every lane; Esc cancels a mode.
        nextText = QString();
        tool.setMode(AnnotationTool::Mode::Range);
        QTest::mousePress(vp, Qt::LeftButton, {}, QPoint(x + 500, 40));
        QTest::mouseMove(vp, QPoint(x + 300, 40));
        QTest::mouseRelease(vp, Qt::LeftButton, {}, QPoint(x + 200, 40));
        QCOMPARE(overlay->count(), 3);
        QCOMPARE(overlay->at(2).kind, Annotation::Kind::Range);
        QCOMPARE(overlay->at(2).laneKey, QString());
        QCOMPARE(overlay->at(2).startNs, w.scale().timeAt(x + 200));
        QCOMPARE(overlay->at(2).endNs, w.scale().timeAt(x + 500));
        tool.setMode(AnnotationTool::Mode::Note);
        QTest::keyClick(w.view(), Qt::Key_Escape);
        QCOMPARE(tool.mode(), AnnotationTool::Mode::Off);

        // Select the range by its edge, Delete removes it.
        vp->repaint();
        QTest::mouseClick(vp, Qt::LeftButton, {}, QPoint(x + 200, 60));
        QCOMPARE(overlay->selected(), 2);
        QTest::keyClick(w.view(), Qt::Key_Delete);
        QCOMPARE(overlay->count(), 2);
        QCOMPARE(overlay->selected(), -1);
    }

    void theExportDialogWritesTheViewAndAStep()
    {
        TimelineWidget w;
        w.resize(1200, 700);
        w.setProfile(m_profile);
        auto* bands = new StageBandOverlay(m_analyses.get(), &w);
        w.addOverlay(bands);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const StepWindow& sw = m_analyses->step(stepOf(1215)).window;
        w.zoom()->setRange(sw.startNs, sw.endNs);
        QApplication::processEvents();

        ExportDialog dialog(&w, m_analyses.get(), nullptr);
        dialog.setSource(ExportDialog::Source::CurrentView);
        dialog.setImageSize(1000, 600);
        dialog.setScale(1.0);
        dialog.setPath(out("view.png"));
        QPushButton* exportButton = nullptr;
        for (QPushButton* b : dialog.findChildren<QPushButton*>())
            if (b->text() == QStringLiteral("Export"))
                exportButton = b;
        QVERIFY(exportButton);
        QTest::mouseClick(exportButton, Qt::LeftButton);
        QCOMPARE(QImage(out("view.png")).size(), QSize(1000, 600));
        QCOMPARE(dialog.result(), int(QDialog::Accepted));

        // The view is on step 1215: its header is the step's.
        const ViewReport view(w, m_analyses.get(), ReportParts{}, false);
        QVERIFY2(view.header().title.contains(QStringLiteral("forward_ct 1215")), qPrintable(view.header().title));

        dialog.setStep(stepOf(1219));
        dialog.setImageSize(1100, 0);
        dialog.setScale(2.0);
        dialog.setPath(out("dialog-step.svg"));
        QCOMPARE(dialog.exportNow(), QString());
        QSvgRenderer svg(out("dialog-step.svg"));
        QVERIFY(svg.isValid());
        TimelineReport expected(m_analyses.get());
        expected.showStep(stepOf(1219));
        QCOMPARE(svg.defaultSize(), expected.preferredSize(1100));

        dialog.setPath(out("no-suffix"));
        QVERIFY(dialog.exportNow().contains(QStringLiteral(".png, .svg or .pdf")));
    }

    void copyImagePutsTheViewOnTheClipboard()
    {
        TimelineWidget w;
        w.resize(900, 500);
        w.setProfile(m_profile);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QGuiApplication::clipboard()->clear();
        ExportDialog::copyViewToClipboard(w, m_analyses.get(), 2.0);
        const QImage img = QGuiApplication::clipboard()->image();
        QVERIFY(!img.isNull());
        const ViewReport view(w, m_analyses.get(), ReportParts{}, false);
        QCOMPARE(img.size(), view.preferredSize() * 2);
    }

    void aProfileWithoutStepsExportsItsRange()
    {
        const auto synthetic = makeSyntheticProfile({});
        StepAnalyses analyses;
        analyses.setProfile(synthetic);
        QCOMPARE(analyses.stepCount(), size_t(0));
        TimelineReport report(&analyses);
        report.showRange(synthetic->firstNs(), synthetic->lastNs());
        // Stream 2, Stream 3, Python, CANN, HCCL; the counter only when asked for.
        QCOMPARE(report.shownLaneCount(), size_t(5));
        QCOMPARE(report.setLanePattern(QStringLiteral("HBM")), QString());
        QCOMPARE(report.shownLaneCount(), size_t(1));
        QCOMPARE(report.exportTo(out("synthetic.svg"), ImageFormat::Svg, QSize(900, 400), 1.0), QString());
        QVERIFY(QSvgRenderer(out("synthetic.svg")).isValid());
    }
};

QTEST_MAIN(TestExport)
#include "tst_export.moc"
