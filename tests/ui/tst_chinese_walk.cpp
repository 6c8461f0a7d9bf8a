// Issue 27 item 3: in Chinese, nothing a user sees is left in English. The window is switched to
// zh_CN at run time (the strictest case: every pane must retranslate itself), a step is opened, a
// kernel and a range are selected, and then every widget, menu, dialog, chart and exported figure
// (SVG text) is walked. A Latin word fails unless it is a name (from the profile, an identifier, an
// acronym, CamelCase), a unit or a number.
#include "../demo/DemoTestSupport.h"
#include "MainWindowTestSupport.h"
#include "TestSupport.h"

#include "MainWindow.h"
#include "charts/StepChartsPanel.h"
#include "io/ProfileLoader.h"
#include "overlays/AnnotationOverlay.h"
#include "overlays/MarkerActions.h"
#include "panels/EventTablePanel.h"
#include "panels/MarkersPanel.h"
#include "panels/StepTablePanel.h"
#include "report/ExportDialog.h"
#include "report/ReportActions.h"
#include "report/TimelineReport.h"
#include "session/StepAnalyses.h"
#include "steps/StepRecords.h"
#include "timeline/LaneFilter.h"
#include "timeline/MeasureOverlay.h"
#include "timeline/TimelineSelection.h"
#include "timeline/TimelineView.h"
#include "timeline/TimelineWidget.h"

#include <QAbstractButton>
#include <QAbstractItemModel>
#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QGroupBox>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLegendMarker>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QRegularExpression>
#include <QSet>
#include <QTabBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QXmlStreamReader>

#include <functional>

using namespace dspark;
using namespace dspark::test;
using namespace dspark::ui;

// Words that stay Latin in Chinese text: units, formats, products, keys.
static const QSet<QString>& fixedWords()
{
    static const QSet<QString> words = {
        // units and number formats
        QStringLiteral("ms"), QStringLiteral("µs"), QStringLiteral("ns"), QStringLiteral("px"), QStringLiteral("MB"),
        QStringLiteral("KB"), QStringLiteral("GB"), QStringLiteral("s"),
        // file formats, products, people's names of things
        QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("pdf"), QStringLiteral("csv"),
        QStringLiteral("md"), QStringLiteral("json"), QStringLiteral("jsonl"), QStringLiteral("db"),
        QStringLiteral("gz"), QStringLiteral("Markdown"), QStringLiteral("Kineto"), QStringLiteral("msprof"),
        QStringLiteral("Ascend"), QStringLiteral("English"), QStringLiteral("Qt"), QStringLiteral("Timeline"),
        QStringLiteral("trace"), QStringLiteral("view"), QStringLiteral("Python"), QStringLiteral("Stream"),
        QStringLiteral("server"), QStringLiteral("info"), QStringLiteral("rank"),
        // terms Chinese ML writing keeps in English
        QStringLiteral("token"), QStringLiteral("tokens"), QStringLiteral("prefill"), QStringLiteral("decode"),
        QStringLiteral("eager"),
        // the lane filter's syntax (kind:comm): typed as is in every language
        QStringLiteral("kind"), QStringLiteral("comm"),
        // keys
        QStringLiteral("Ctrl"), QStringLiteral("Shift"), QStringLiteral("Alt"), QStringLiteral("Esc"),
        QStringLiteral("Home"), QStringLiteral("Left"), QStringLiteral("Right"), QStringLiteral("Del"),
        QStringLiteral("Delete"), QStringLiteral("Backspace"), QStringLiteral("Enter"), QStringLiteral("Return"),
        QStringLiteral("Tab"), QStringLiteral("Space"), QStringLiteral("PgUp"), QStringLiteral("PgDown"),
        QStringLiteral("Up"), QStringLiteral("Down"), QStringLiteral("Ins")};
    return words;
}

// A word that is a name rather than prose: an identifier (digit, underscore, dot), an acronym, CamelCase.
static bool looksLikeName(const QString& w)
{
    static const QRegularExpression identifier(QStringLiteral("[0-9_./:\\\\-]"));
    static const QRegularExpression acronym(QStringLiteral("^[A-Z]{2,}s?$"));
    static const QRegularExpression camel(QStringLiteral("^[A-Za-z][a-z]*[A-Z]"));
    return w.contains(identifier) || acronym.match(w).hasMatch() || camel.match(w).hasMatch();
}

class TestChineseWalk : public QObject {
    Q_OBJECT
    WrittenDemo m_demo;
    std::shared_ptr<const Profile> m_profile;
    std::unique_ptr<MainWindow> w;
    InstalledTranslator m_zh;
    QSet<QString> m_names;  // words of the profile's own names (lanes, events, files)
    QStringList m_failures; // "where: text"
    QSet<QString> m_reported;

    void collectNames()
    {
        static const QRegularExpression split(QStringLiteral("[^A-Za-z0-9_]+"));
        auto add = [this](const QString& s) {
            for (const QString& part : s.split(split, Qt::SkipEmptyParts))
                m_names.insert(part);
        };
        for (const Lane& lane : m_profile->lanes) {
            add(QString::fromStdString(lane.info.process));
            add(QString::fromStdString(lane.info.name));
        }
        for (uint32_t l = 0; l < m_profile->lanes.size(); ++l)
            for (size_t i = 0; i < m_profile->lanes[l].size(); i += 1 + m_profile->lanes[l].size() / 400) {
                const std::string_view n = m_profile->name({l, uint32_t(i)});
                add(QString::fromUtf8(n.data(), qsizetype(n.size())));
            }
        add(m_demo.dir);
        // The Files list quotes a JSON file's own top-level keys when it is not profiler output.
        for (const QFileInfo& f : QDir(m_demo.dir).entryInfoList({QStringLiteral("*.json")}, QDir::Files)) {
            QFile file(f.filePath());
            if (file.open(QIODevice::ReadOnly))
                for (const QString& key : QJsonDocument::fromJson(file.readAll()).object().keys())
                    add(key);
        }
        if (const StepRecordSet* set = m_profile->stepRecords.get())
            for (size_t i = 0; i < set->size(); ++i)
                add(QString::fromStdString(set->record(i).mode)); // DSpark's mode names
        add(QCoreApplication::applicationVersion());
    }

    // Latin prose words of `text` (those not allowed as a name, unit or number).
    QStringList untranslatedWords(QString text) const
    {
        text.remove(QLatin1Char('&'));                                  // mnemonics
        text.remove(QRegularExpression(QStringLiteral("<[^>]*>")));     // rich text tags
        text.remove(QRegularExpression(QStringLiteral("(/[^\\s]+)+"))); // paths
        text.remove(QStringLiteral("batch size"));
        // An elided name ("Communicat…verlapped)"): its fragments are not words.
        text.remove(QRegularExpression(QStringLiteral("[A-Za-z]*…[A-Za-z]*")));
        static const QRegularExpression word(QStringLiteral("[A-Za-zµ][A-Za-z0-9_.\\-]*"));
        QStringList out;
        for (auto it = word.globalMatch(text); it.hasNext();) {
            QString w = it.next().captured();
            while (w.endsWith(QLatin1Char('.')) || w.endsWith(QLatin1Char('-')))
                w.chop(1);
            if (w.size() < 2 || fixedWords().contains(w) || fixedWords().contains(w.toLower()) || looksLikeName(w) ||
                m_names.contains(w))
                continue;
            out << w;
        }
        return out;
    }

    void check(const QString& where, const QString& text)
    {
        if (text.trimmed().isEmpty())
            return;
        const QStringList words = untranslatedWords(text);
        if (words.isEmpty())
            return;
        const QString line = where + QStringLiteral(": \"") + text.left(120) + QStringLiteral("\" [") +
                             words.join(QLatin1Char(' ')) + QLatin1Char(']');
        if (!m_reported.contains(line)) {
            m_reported.insert(line);
            m_failures << line;
        }
    }

    void walkMenu(QMenu* menu, const QString& where)
    {
        const QString here = where + QLatin1Char('/') + menu->title();
        check(here, menu->title());
        Q_EMIT menu->aboutToShow(); // menus filled on demand
        for (QAction* a : menu->actions()) {
            if (a->isSeparator() || !a->isVisible())
                continue;
            if (a->menu())
                walkMenu(a->menu(), here);
            else {
                check(here, a->text());
                check(here + QStringLiteral(" (tip)"), a->toolTip());
            }
        }
    }

    void walkModel(const QAbstractItemModel* model, const QString& where)
    {
        if (!model)
            return;
        for (int c = 0; c < model->columnCount(); ++c) {
            check(where + QStringLiteral(" header"), model->headerData(c, Qt::Horizontal).toString());
            check(where + QStringLiteral(" header tip"),
                  model->headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString());
        }
        for (int r = 0; r < std::min(model->rowCount(), 40); ++r)
            for (int c = 0; c < model->columnCount(); ++c) {
                const QVariant v = model->data(model->index(r, c));
                if (v.typeId() == QMetaType::QString)
                    check(where + QStringLiteral(" cell"), v.toString());
            }
    }

    void walkChart(QChart* chart, const QString& where)
    {
        check(where + QStringLiteral(" title"), chart->title());
        for (QAbstractAxis* axis : chart->axes()) {
            check(where + QStringLiteral(" axis"), axis->titleText());
            if (auto* cat = qobject_cast<QBarCategoryAxis*>(axis))
                for (const QString& s : cat->categories())
                    check(where + QStringLiteral(" category"), s);
            if (auto* cat = qobject_cast<QCategoryAxis*>(axis))
                for (const QString& s : cat->categoriesLabels())
                    check(where + QStringLiteral(" category"), s);
        }
        for (QAbstractSeries* s : chart->series())
            for (QLegendMarker* m : chart->legend()->markers(s))
                if (m->isVisible())
                    check(where + QStringLiteral(" legend"), m->label());
    }

    void walkWidgets(QWidget* root, const QString& where)
    {
        QList<QWidget*> all = root->findChildren<QWidget*>();
        all.prepend(root);
        for (QWidget* widget : all) {
            if (!widget->isVisibleTo(root) && widget != root)
                continue;
            const QString here =
                where + QLatin1Char('/') +
                (widget->objectName().isEmpty() ? QString::fromLatin1(widget->metaObject()->className())
                                                : widget->objectName());
            if (widget->isWindow() || qobject_cast<QDockWidget*>(widget))
                check(here + QStringLiteral(" title"), widget->windowTitle());
            check(here + QStringLiteral(" tip"), widget->toolTip());
            if (auto* l = qobject_cast<QLabel*>(widget))
                check(here, l->text());
            else if (auto* b = qobject_cast<QAbstractButton*>(widget))
                check(here, b->text());
            else if (auto* g = qobject_cast<QGroupBox*>(widget))
                check(here, g->title());
            else if (auto* e = qobject_cast<QLineEdit*>(widget))
                check(here + QStringLiteral(" placeholder"), e->placeholderText());
            else if (auto* box = qobject_cast<QComboBox*>(widget)) {
                for (int i = 0; i < box->count(); ++i)
                    check(here + QStringLiteral(" item"), box->itemText(i));
            } else if (auto* tabs = qobject_cast<QTabBar*>(widget)) {
                for (int i = 0; i < tabs->count(); ++i)
                    check(here + QStringLiteral(" tab"), tabs->tabText(i));
            } else if (auto* view = qobject_cast<QAbstractItemView*>(widget)) {
                walkModel(view->model(), here);
            } else if (auto* chart = qobject_cast<QChartView*>(widget)) {
                walkChart(chart->chart(), here);
            }
        }
    }

    void checkSvg(const QString& path, const QString& where)
    {
        QFile f(path);
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(path));
        QXmlStreamReader xml(&f);
        int texts = 0;
        while (!xml.atEnd()) {
            if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == QLatin1String("text")) {
                check(where, xml.readElementText(QXmlStreamReader::IncludeChildElements));
                ++texts;
            }
        }
        QVERIFY2(texts > 3, qPrintable(where + QStringLiteral(": no text in the figure")));
    }

    // Walks a modal dialog opened by `open` (it runs its own event loop), then closes it.
    void walkModal(const std::function<void()>& open, const QString& where)
    {
        bool seen = false;
        QTimer::singleShot(0, this, [&]() {
            QWidget* dialog = QApplication::activeModalWidget();
            if (!dialog)
                return;
            seen = true;
            walkWidgets(dialog, where);
            dialog->close();
        });
        open();
        QVERIFY2(seen, qPrintable(where));
    }

private Q_SLOTS:
    void initTestCase()
    {
        useTestSettings(QStringLiteral("tst_chinese_walk"));
        m_demo = writeTestDemo(24, 7, 1, false);
        QVERIFY2(m_demo.result.error.isEmpty(), qPrintable(m_demo.result.error));
        w = openMainWindow(QSize(1440, 900));
        QVERIFY(w);
        // Test executables do not embed the .qm (the application does): install the built one, then
        // switch the window's language (Qt's own translation, LanguageChange to every widget).
        m_zh = installTranslation(QStringLiteral("zh_CN"));
        QVERIFY2(m_zh, "the compiled zh_CN translation (dspark-timeline_zh_CN.qm) is missing");
        w->setLanguage(QStringLiteral("zh_CN"));
        QVERIFY(w->language() == QStringLiteral("zh_CN"));
        // Opened in Chinese (the step table's anomaly texts are written when the records load).
        LoadOutcome loaded = loadProfile(m_demo.dir.toStdString());
        QVERIFY2(loaded.profile, qPrintable(loaded.error));
        m_profile = std::move(loaded.profile);
        collectNames();
        w->setProfile(m_profile, m_demo.dir);
        QVERIFY(QTest::qWaitFor([&]() { return w->reports()->analyses()->ready(); }, 60000));
        // The user's path: the anomalous step opened from the table, a kernel picked, a range selected.
        const StepRecordSet& set = *m_profile->stepRecords;
        int row = -1;
        for (int r = 0; r < w->stepPanel()->table()->model()->rowCount(); ++r)
            if (set.record(size_t(w->stepPanel()->sourceRow(r))).forwardCt == 1209)
                row = r;
        QVERIFY(row >= 0);
        clickRow(w->stepPanel()->table(), row, true);
        QVERIFY(w->eventTable()->table()->model()->rowCount() > 0);
        clickRow(w->eventTable()->table(), 0);
        QApplication::processEvents();
    }
    void cleanupTestCase()
    {
        w.reset();
        m_zh.reset();
    }

    void theWindowMenusAndDocksAreChinese()
    {
        m_failures.clear();
        walkWidgets(w.get(), QStringLiteral("window"));
        for (QAction* a : w->menuBar()->actions())
            if (a->menu() && a->isVisible())
                walkMenu(a->menu(), QStringLiteral("menu"));
        QVERIFY2(m_failures.isEmpty(), qPrintable(m_failures.join(QLatin1Char('\n'))));
    }

    void everyChartTabIsChinese()
    {
        m_failures.clear();
        StepChartsPanel* charts = w->reports()->charts();
        w->reports()->chartsDock()->show();
        w->reports()->chartsDock()->raise();
        auto* tabs = charts->findChild<QTabWidget*>();
        QVERIFY(tabs);
        QTemporaryDir out;
        for (int i = 0; i < tabs->count(); ++i) {
            tabs->setCurrentIndex(i);
            QApplication::processEvents();
            walkWidgets(charts, QStringLiteral("charts tab %1").arg(i));
            const QString file = out.filePath(QStringLiteral("chart%1.svg").arg(i));
            QCOMPARE(charts->exportCurrentChart(file), QString());
            checkSvg(file, QStringLiteral("exported chart %1").arg(i));
        }
        QVERIFY2(m_failures.isEmpty(), qPrintable(m_failures.join(QLatin1Char('\n'))));
    }

    void theDialogsAreChinese()
    {
        m_failures.clear();
        w->action(QStringLiteral("exportImage"))->trigger();
        ExportDialog* dialog = w->reports()->exportDialog();
        QVERIFY(dialog);
        QApplication::processEvents();
        walkWidgets(dialog, QStringLiteral("export dialog"));
        dialog->close();
        walkModal([&]() { w->action(QStringLiteral("shortcuts"))->trigger(); }, QStringLiteral("shortcuts"));
        walkModal([&]() { w->action(QStringLiteral("about"))->trigger(); }, QStringLiteral("about"));
        QVERIFY2(m_failures.isEmpty(), qPrintable(m_failures.join(QLatin1Char('\n'))));
    }

    void theLaneMenuAndTheErrorBoxAreChinese()
    {
        m_failures.clear();
        // Right-click on a lane of the timeline: the lane menu (with its Annotate submenu).
        TimelineView* view = w->timeline()->view();
        const QPoint at(w->timeline()->labelWidth() + 200, 120);
        bool seen = false;
        QTimer::singleShot(0, this, [&]() {
            if (auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget())) {
                seen = true;
                walkMenu(menu, QStringLiteral("lane menu"));
                menu->close();
            }
        });
        QTest::mousePress(view->viewport(), Qt::RightButton, {}, at);
        QTest::mouseRelease(view->viewport(), Qt::RightButton, {}, at);
        QVERIFY(seen);
        // A profile that cannot be opened: the error box.
        w->openPath(QStringLiteral("/nonexistent/profile"));
        QVERIFY(QTest::qWaitFor([&]() { return w->errorBox() != nullptr; }, 20000));
        walkWidgets(w->errorBox(), QStringLiteral("error box"));
        w->errorBox()->close();
        QVERIFY2(m_failures.isEmpty(), qPrintable(m_failures.join(QLatin1Char('\n'))));
    }

    void theMarkersDockAndTheLaneFilterAreChinese()
    {
        m_failures.clear();
        // A marker placed in Chinese (the dock opens), the lane filter in use, a measurement.
        QVERIFY(w->markers()->addMarkerAt(m_profile->firstNs() + 1000) >= 0);
        w->markers()->dock()->raise();
        w->action(QStringLiteral("filterLanes"))->trigger();
        QTest::keyClicks(w->timeline()->laneFilterBar()->edit(), QStringLiteral("Stream"));
        QApplication::processEvents();
        QVERIFY(w->timeline()->laneFilterBar()->isVisible());
        QCOMPARE(w->markers()->panel()->rowCount(), 1);
        walkWidgets(w->markers()->dock(), QStringLiteral("markers dock"));
        walkWidgets(w->timeline()->laneFilterBar(), QStringLiteral("lane filter"));
        check(QStringLiteral("undo action"), w->action(QStringLiteral("undo"))->text());
        check(QStringLiteral("measurement"), MeasureOverlay::label(123'456, 100.0, 0));
        w->timeline()->laneFilterBar()->dismiss();
        QVERIFY2(m_failures.isEmpty(), qPrintable(m_failures.join(QLatin1Char('\n'))));
    }

    void theExportedFiguresAreChinese()
    {
        m_failures.clear();
        QTemporaryDir out;
        // The step figure and the current view, as File › Export writes them.
        TimelineReport report(w->reports()->analyses());
        report.setAnnotations(w->reports()->annotations()->annotations());
        size_t step = 0;
        for (size_t i = 0; i < w->reports()->analyses()->stepCount(); ++i)
            if (w->reports()->analyses()->step(i).window.forwardCt == 1209)
                step = i;
        report.showStep(step);
        const QString stepFile = out.filePath(QStringLiteral("step.svg"));
        QCOMPARE(report.exportTo(stepFile, ImageFormat::Svg, QSize(1600, 0), 1.0), QString());
        checkSvg(stepFile, QStringLiteral("step figure"));
        w->action(QStringLiteral("exportImage"))->trigger();
        ExportDialog* dialog = w->reports()->exportDialog();
        QVERIFY(dialog);
        const QString viewFile = out.filePath(QStringLiteral("view.svg"));
        dialog->setPath(viewFile);
        dialog->setSource(ExportDialog::Source::CurrentView);
        QCOMPARE(dialog->exportNow(), QString());
        dialog->close();
        checkSvg(viewFile, QStringLiteral("view figure"));
        QVERIFY2(m_failures.isEmpty(), qPrintable(m_failures.join(QLatin1Char('\n'))));
    }
};

QTEST_MAIN(TestChineseWalk)
#include "tst_chinese_walk.moc"
