// Step records of another run opened with a real profile: the window says they do not match in a
// banner, draws no step analysis for them, and places them when the user clicks "Attach anyway". The
// file list shows every file the scan saw, loaded or not and why.
#include "MainWindowTestSupport.h"
#include "TestSupport.h"

#include "../demo/DemoTestSupport.h"
#include "DbTestSupport.h"

#include "MainWindow.h"
#include "panels/FileListPanel.h"
#include "panels/StepTablePanel.h"
#include "report/ReportActions.h"
#include "session/StepAnalyses.h"
#include "steps/StepRecords.h"
#include "steps/StepTableModel.h"

#include <QFrame>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTreeWidget>

using namespace dspark;
using namespace dspark::ui;

class TestStepRefusal : public QObject {
    Q_OBJECT

    QTreeWidgetItem* fileRow(FileListPanel* panel, const QString& name)
    {
        QTreeWidget* tree = panel->tree();
        for (int i = 0; i < tree->topLevelItemCount(); ++i)
            if (tree->topLevelItem(i)->text(2).endsWith(name))
                return tree->topLevelItem(i);
        return nullptr;
    }

private Q_SLOTS:
    void initTestCase() { test::useTestSettings(QStringLiteral("tst_step_refusal")); }

    void recordsOfAnotherRunShowABannerAndAttachOnRequest()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const test::WrittenDemo demo = test::writeTestDemo();
        QVERIFY2(demo.result.error.isEmpty(), qPrintable(demo.result.error));
        QTemporaryDir dir;
        QVERIFY(QFile::copy(test::torchDbFixture(), dir.filePath(QStringLiteral("rank0.db"))));
        QVERIFY(QFile::copy(demo.path(QStringLiteral("server_info.json")),
                            dir.filePath(QStringLiteral("server_info.json"))));
        QFile notes(dir.filePath(QStringLiteral("notes.txt")));
        QVERIFY(notes.open(QIODevice::WriteOnly));
        notes.write("collected by hand\n");
        notes.close();

        auto w = test::openMainWindow();
        QVERIFY(w);
        w->openPath(dir.path());
        QVERIFY(test::waitLoaded(w.get(), 60000));
        auto* banner = w->stepPanel()->findChild<QFrame*>(QStringLiteral("stepsNotMatchedBanner"));
        auto* attach = w->stepPanel()->findChild<QPushButton*>(QStringLiteral("attachStepsAnyway"));
        QVERIFY(banner && attach);
        QVERIFY(banner->isVisible());
        QCOMPARE(w->reports()->analyses()->stepCount(), size_t(0)); // no bands, critical path or analysis
        const StepTableModel* model = w->stepPanel()->model();
        QVERIFY(model->rowCount() > 0);
        const int timeline = StepTableModel::TimelineColumn;
        QCOMPARE(model->index(0, timeline).data().toString(), QStringLiteral("not matched to this profile"));

        FileListPanel* files = w->fileListPanel();
        QCOMPARE(files->tree()->topLevelItemCount(), 3);
        QCOMPARE(fileRow(files, QStringLiteral("rank0.db"))->text(0), QStringLiteral("loaded"));
        QCOMPARE(fileRow(files, QStringLiteral("server_info.json"))->text(0), QStringLiteral("loaded"));
        QCOMPARE(fileRow(files, QStringLiteral("notes.txt"))->text(0), QStringLiteral("not loaded"));
        QVERIFY(fileRow(files, QStringLiteral("notes.txt"))->text(3).contains(QStringLiteral("not a profiler file")));

        if (qEnvironmentVariableIsSet("DSPARK_SCREENSHOTS"))
            w->grab().save(QString::fromLocal8Bit(qgetenv("DSPARK_SCREENSHOTS")) + QStringLiteral("/refused.png"));
        QTest::mouseClick(attach, Qt::LeftButton);
        QTRY_VERIFY(!banner->isVisible());
        QVERIFY(w->profile()->stepRecords->alignment.attachedByHand);
        QVERIFY(w->reports()->analyses()->stepCount() > 0);
        QVERIFY(model->index(0, timeline).data().toString() != QStringLiteral("not matched to this profile"));
    }
};

QTEST_MAIN(TestStepRefusal)
#include "tst_step_refusal.moc"
