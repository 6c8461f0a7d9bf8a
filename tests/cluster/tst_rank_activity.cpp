// The folded row's figures (RankActivity) from a summary written by the test, each share worked out by hand.
#include "cluster/RankActivity.h"

#include <QTest>

using namespace dspark;

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
};

QTEST_GUILESS_MAIN(TestRankActivity)
#include "tst_rank_activity.moc"
