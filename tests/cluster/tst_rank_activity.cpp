// The folded row's figures (RankActivity): estimated from a summary written by the test, and measured
// (activity bins) from a rank written by the test; each share worked out by hand.
#include "ActivityRank.h"

#include "analysis/AnalysisRules.h"
#include "cluster/RankActivity.h"
#include "io/ProfileLoader.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using namespace dspark;

namespace {
constexpr TimeNs us = 1000;
}

class TestRankActivity : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void sharesOfBusyCommunicatingAndIdle()
    {
        RankSummary s;
        s.firstNs = 0;
        s.lastNs = 3000;
        RankStep a; // [0, 1000): idle 200 of it → busy weight 0.8
        a.stepId = 1;
        a.startNs = 0;
        a.endNs = 1000;
        a.pathNs[static_cast<size_t>(PathCategory::Idle)] = 200;
        RankStep b; // [2000, 2500): never idle
        b.stepId = 2;
        b.startNs = 2000;
        b.endNs = 2500;
        s.steps = {a, b};
        // Two overlapping collectives (one run [100, 400)) and one at [2100, 2200).
        s.collectives = {{"g", "x", "x", 1, 250, 400}, {"g", "y", "y", 1, 100, 300}, {"g", "z", "z", 1, 2100, 2200}};
        const RankActivity act(s);

        RankActivity::Share all = act.share(0, 1000);
        QCOMPARE(all.comm, 0.3);       // 300 of 1000
        QCOMPARE(all.busy, 0.8 - 0.3); // 800 weighted, less the communication
        all = act.share(0, 100);
        QCOMPARE(all.comm, 0.0);
        QCOMPARE(all.busy, 0.8);
        all = act.share(1000, 2000); // between the steps: idle
        QCOMPARE(all.comm, 0.0);
        QCOMPARE(all.busy, 0.0);
        all = act.share(1500, 2500); // 500 of step b (100 of it communicating)
        QCOMPARE(all.comm, 0.1);
        QCOMPARE(all.busy, 0.4);
        all = act.share(2500, 2500); // empty
        QCOMPARE(all.busy + all.comm, 0.0);
        all = act.share(350, 360); // inside the merged run: all communicating
        QCOMPARE(all.comm, 1.0);
        QCOMPARE(all.busy, 0.0);
    }

    void aSummaryWithoutStepsIsBusyOverItsRange()
    {
        RankSummary s;
        s.firstNs = 1000;
        s.lastNs = 2000;
        s.collectives = {{"g", "x", "x", 1, 1500, 1750}};
        const RankActivity act(s);
        const RankActivity::Share sh = act.share(0, 2000);
        QCOMPARE(sh.comm, 250.0 / 2000);
        QCOMPARE(sh.busy, 750.0 / 2000);
    }

    // Measured bins from a rank written by the test (ActivityStory): each bin's shares worked out by hand,
    // then the folded row's shares read from them.
    void binsMeasuredFromTheDeviceLanes()
    {
        QTemporaryDir dir;
        QCOMPARE(test::ActivityStory::write(dir.filePath(QStringLiteral("r_ascend_pt")), 3, 0), QString());
        const LoadOutcome loaded = loadProfile(dir.path().toStdString());
        QVERIFY2(loaded.profile, qPrintable(loaded.error));
        const RankSummary s = summarizeRank(*loaded.profile, 0, AnalysisRules::defaults(), dir.path().toStdString());
        const RankActivityBins& bins = s.activity;
        QCOMPARE(bins.size(), size_t(2000));
        QCOMPARE(bins.endNs - bins.startNs, 2000 * us);
        const auto at = [&](size_t i) {
            return std::pair(bins.busy[i] / double(RankActivityBins::kUnit),
                             bins.comm[i] / double(RankActivityBins::kUnit));
        };
        const auto expect = [&](size_t from, size_t to, double busy, double comm) {
            for (size_t i = from; i < to; ++i)
                if (at(i) != std::pair(busy, comm))
                    return QStringLiteral("bin %1: busy %2 comm %3, expected %4 %5")
                        .arg(i)
                        .arg(at(i).first)
                        .arg(at(i).second)
                        .arg(busy)
                        .arg(comm);
            return QString();
        };
        QCOMPARE(expect(0, 500, 1.0, 0.0), QString());     // computing (the all-reduce under it is hidden)
        QCOMPARE(expect(500, 900, 0.0, 1.0), QString());   // communicating, not overlapped
        QCOMPARE(expect(900, 1200, 0.0, 0.0), QString());  // idle
        QCOMPARE(expect(1200, 1201, 0.5, 0.0), QString()); // the 500 ns kernel in a 1 µs bin
        QCOMPARE(expect(1201, 1700, 0.0, 0.0), QString());
        QCOMPARE(expect(1700, 1800, 1.0, 0.0), QString());
        QCOMPARE(expect(1800, 1900, 0.0, 0.0), QString());
        QCOMPARE(expect(1900, 1950, 0.0, 1.0), QString());
        QCOMPARE(expect(1950, 1951, 0.0, 0.5), QString());
        QCOMPARE(expect(1951, 2000, 0.0, 0.0), QString());

        const RankActivity act(s);
        QVERIFY(!act.estimated());
        const TimeNs t0 = bins.startNs;
        RankActivity::Share sh = act.share(t0, t0 + 1000 * us); // 500 busy, 400 communicating
        QCOMPARE(sh.busy, 0.5);
        QCOMPARE(sh.comm, 0.4);
        sh = act.share(t0 + 1200 * us, t0 + 1200 * us + 500); // half of bin 1200: its share spread evenly
        QCOMPARE(sh.busy, 0.5);
        sh = act.share(t0 - 1000 * us, t0); // before the rank's range: idle
        QCOMPARE(sh.busy + sh.comm, 0.0);

        // The bins travel in the summary (version 3) and read back as they were.
        const std::string path = dir.filePath(QStringLiteral("rank3.json")).toStdString();
        std::ofstream(path) << rankSummaryJson(s);
        RankSummary back;
        QString error;
        QVERIFY2(readRankSummary(path, back, error), qPrintable(error));
        QCOMPARE(back.activity.busy, bins.busy);
        QCOMPARE(back.activity.comm, bins.comm);
        QCOMPARE(back.activity.startNs, bins.startNs);
        QCOMPARE(rankSummaryJson(back), rankSummaryJson(s));
    }

    // A version-2 summary (no bins) still opens; its row is the estimate and says so.
    void anOlderSummaryFallsBackToTheEstimate()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("old.json")).toStdString();
        std::ofstream(path) << R"({"format":"dspark-rank-summary","version":2,"rank":4,"time_range_ns":[0,1000],)"
                               R"("steps":[],"collectives":[{"group":"g","name":"a","kind":"a","count":1,)"
                               R"("issue_ns":500,"end_ns":750}],"lanes":[],"links":[]})";
        RankSummary s;
        QString error;
        QVERIFY2(readRankSummary(path, s, error), qPrintable(error));
        QVERIFY(s.activity.empty());
        const RankActivity act(s);
        QVERIFY(act.estimated());
        QCOMPARE(act.share(0, 1000).comm, 0.25);
        QCOMPARE(act.share(0, 1000).busy, 0.75);

        // Bins that do not agree with each other are refused, naming the file.
        std::ofstream(path) << R"({"format":"dspark-rank-summary","version":3,"rank":4,"time_range_ns":[0,1000],)"
                               R"("steps":[],"collectives":[],"lanes":[],"links":[],)"
                               R"("activity":{"range_ns":[0,1000],"unit":10000,"busy":[1,2],"comm":[0]}})";
        QVERIFY(!readRankSummary(path, s, error));
        QVERIFY2(error.startsWith(QString::fromStdString(path) + QStringLiteral(": not a rank summary (")),
                 qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestRankActivity)
#include "tst_rank_activity.moc"
