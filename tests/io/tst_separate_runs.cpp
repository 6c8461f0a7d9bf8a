// Kineto traces of the same rank number in one folder: the same run (one process, several captures)
// share a rank; other runs (other processes, unrelated clocks) get a rank each and a warning.
#include "KinetoRunsBuilder.h"
#include "TestSupport.h"
#include "analysis/OverlapAnalysis.h"
#include "io/ProfileLoader.h"
#include "model/Profile.h"

#include <QTemporaryDir>
#include <QTest>

using namespace dspark;

namespace {

std::vector<std::string> kernelsOfRank(const Profile& p, int rankIndex)
{
    std::vector<std::string> names;
    for (const Lane& lane : p.lanes)
        if (lane.info.rankIndex == rankIndex && lane.info.kind == LaneKind::GpuStream)
            for (size_t i = 0; i < lane.size(); ++i)
                names.push_back(std::string(p.strings.view(lane.nameId[i])));
    return names;
}

} // namespace

class TestSeparateRuns : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void otherProcessesAreAnotherRunAndSameProcessMerges()
    {
        QTemporaryDir dir;
        // x1.json and x3.json: process 4242, two captures 1 s apart; x2.json: process 77, another clock.
        test::writeSeparateRuns(dir);
        const LoadOutcome out = loadProfile(dir.path().toStdString(), {});
        QVERIFY2(out.profile, qPrintable(out.error));
        const Profile& p = *out.profile;
        QCOMPARE(p.ranks.size(), size_t(2));
        QCOMPARE(p.ranks[0].rankNumber, 0);
        QCOMPARE(p.ranks[1].rankNumber, 0);
        QCOMPARE(p.ranks[0].label, std::string("rank 0"));
        QCOMPARE(p.ranks[1].label, std::string("rank 0 (x2.json)"));
        QCOMPARE(kernelsOfRank(p, 0), (std::vector<std::string>{"kernA", "kernC"}));
        QCOMPARE(kernelsOfRank(p, 1), (std::vector<std::string>{"kernB"}));
        bool warned = false;
        for (const QString& w : p.warnings)
            warned = warned || (w.contains(QStringLiteral("x2.json")) && w.contains(QStringLiteral("x1.json")) &&
                                w.contains(QStringLiteral("another run")));
        QVERIFY2(warned, qPrintable(p.warnings.join(QLatin1Char('\n'))));
        // Rank 1's span is its own 25 µs, not 1.7e15 µs stretched over two clocks.
        for (const DeviceOverlap& d : computeOverlap(p))
            QVERIFY2(d.freeNs() < 2'000'000'000, qPrintable(QString::number(d.freeNs())));
    }

    void theRealKinetoFolderDoesNotStackUnrelatedRunsOnOneClock()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const LoadOutcome out = loadProfile(test::realData(QStringLiteral("kineto")).toStdString(), {});
        QVERIFY2(out.profile, qPrintable(out.error));
        // Five captures from five machines: every device's window is seconds at most, not decades.
        for (const DeviceOverlap& d : computeOverlap(*out.profile))
            QVERIFY2(d.freeNs() < 60'000'000'000, qPrintable(QString::number(d.freeNs())));
        QVERIFY(out.profile->ranks.size() >= 4);
    }
};

QTEST_GUILESS_MAIN(TestSeparateRuns)
#include "tst_separate_runs.moc"
