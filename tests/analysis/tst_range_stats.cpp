// Range statistics: a hand-built profile worked out on paper, and the demo's database summed by SQL.
#include "analysis/RangeStats.h"
#include "io/ProfileLoader.h"

#include "../demo/DemoTestSupport.h"
#include "DbTestSupport.h"
#include "TestSupport.h"

#include <QTest>

#include <map>

using namespace dspark;
using namespace dspark::test;

namespace {

const RangeNameStats* rowOf(const Profile& p, const RangeStats& s, const std::string& name, StatsGroup group)
{
    for (const RangeNameStats& r : s.rows)
        if (r.group == group && p.strings.view(r.nameId) == name)
            return &r;
    return nullptr;
}

// Host lane (ns):  A [0,100) ⊃ B [10,40) ⊃ C [20,30);  A ⊃ D [50,60);  A ⊃ instant E at 70.
// Device lane:     k1 [0,30), k1 [40,100).      Counter: 10 at 0, 20 at 40, 5 at 90.
struct Nested {
    std::shared_ptr<Profile> profile = std::make_shared<Profile>();
    uint32_t host = 0, device = 0, counter = 0;
    Nested()
    {
        Profile& p = *profile;
        const int rank = p.ensureRank(0, 0);
        host = p.laneFor({LaneKind::Host, rank, -1, -1, 1, "Python", "Thread 1", 0});
        device = p.laneFor({LaneKind::NpuStream, rank, 0, 2, -1, "Ascend Hardware", "Stream 2", 0});
        counter = p.laneFor({LaneKind::Counter, rank, 0, -1, -1, "Freq", "Freq", 0});
        auto add = [&](uint32_t lane, const char* name, TimeNs s, TimeNs e, EventKind k) {
            p.lanes[lane].append(s, e - s, p.strings.intern(name), k);
        };
        // Appended out of order: finalize() sorts.
        add(host, "C", 20, 30, EventKind::TorchOp);
        add(host, "A", 0, 100, EventKind::TorchOp);
        add(host, "B", 10, 40, EventKind::TorchOp);
        add(host, "D", 50, 60, EventKind::TorchOp);
        add(host, "E", 70, 70, EventKind::Instant);
        add(device, "k1", 40, 100, EventKind::Kernel);
        add(device, "k1", 0, 30, EventKind::Kernel);
        const uint32_t freq = p.strings.intern("freq");
        p.lanes[counter].appendSample(0, 10.0, freq);
        p.lanes[counter].appendSample(40, 20.0, freq);
        p.lanes[counter].appendSample(90, 5.0, freq);
        p.finalize();
    }
};

} // namespace

class TestRangeStats : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void nestedSelfTimeByHand()
    {
        const Nested n;
        const Profile& p = *n.profile;
        const RangeStats s = computeRangeStats(p, {15, 95, {}, -1});
        QCOMPARE(s.rangeNs(), TimeNs(80));
        // A clipped to [15,95) = 80; its children inside it: B [15,40) = 25, D = 10, E = 0 → self 45.
        const RangeNameStats* a = rowOf(p, s, "A", StatsGroup::Host);
        QVERIFY(a);
        QCOMPARE(a->count, uint64_t(1));
        QCOMPARE(a->totalNs, TimeNs(80));
        QCOMPARE(a->selfNs, TimeNs(45));
        QCOMPARE(s.shareOf(*a), 1.0);
        // B [15,40) = 25 minus C [20,30) = 10 → self 15; C and D have no children.
        QCOMPARE(rowOf(p, s, "B", StatsGroup::Host)->selfNs, TimeNs(15));
        QCOMPARE(rowOf(p, s, "B", StatsGroup::Host)->totalNs, TimeNs(25));
        QCOMPARE(rowOf(p, s, "C", StatsGroup::Host)->selfNs, TimeNs(10));
        QCOMPARE(rowOf(p, s, "D", StatsGroup::Host)->selfNs, TimeNs(10));
        const RangeNameStats* e = rowOf(p, s, "E", StatsGroup::Host);
        QVERIFY(e);
        QCOMPARE(e->count, uint64_t(1));
        QCOMPARE(e->totalNs, TimeNs(0));
        // k1: [15,30) = 15 and [40,95) = 55.
        const RangeNameStats* k = rowOf(p, s, "k1", StatsGroup::Device);
        QVERIFY(k);
        QCOMPARE(k->count, uint64_t(2));
        QCOMPARE(k->totalNs, TimeNs(70));
        QCOMPARE(k->selfNs, TimeNs(70));
        QCOMPARE(k->minNs, TimeNs(15));
        QCOMPARE(k->maxNs, TimeNs(55));
        QCOMPARE(k->meanNs(), 35.0);
        QVERIFY(!rowOf(p, s, "k1", StatsGroup::Host));
        // Rows: device before host, then by total.
        QCOMPARE(s.rows.front().group, StatsGroup::Device);
        QCOMPARE(p.strings.view(s.rows[1].nameId), std::string_view("A"));

        // Counter: 10 over [15,40) = 25 ns, 20 over [40,90) = 50 ns, 5 over [90,95) = 5 ns.
        QCOMPARE(s.counters.size(), size_t(1));
        const RangeCounterStats& c = s.counters.front();
        QCOMPARE(c.samples, uint64_t(3));
        QCOMPARE(c.min, 5.0);
        QCOMPARE(c.max, 20.0);
        QCOMPARE(c.coveredNs, TimeNs(80));
        QCOMPARE(c.integral, (10.0 * 25 + 20.0 * 50 + 5.0 * 5) * 1e-9);
        QCOMPARE(c.mean, 1275.0 / 80.0);
    }

    void chosenLanesAndInstances()
    {
        const Nested n;
        const Profile& p = *n.profile;
        // Only the device lane: no host row; a range that misses the instant drops it.
        const RangeStats s = computeRangeStats(p, {0, 50, {n.device}, -1});
        QCOMPARE(s.rows.size(), size_t(1));
        QCOMPARE(s.rows.front().totalNs, TimeNs(30 + 10));
        QCOMPARE(computeRangeStats(p, {71, 95, {n.host}, -1}).rows.size(), size_t(1)); // A only: D and E end before
        const uint32_t k1 = *p.strings.find("k1");
        // Longest first (whole durations): [40,100) then [0,30).
        const std::vector<EventRef> inst = rangeInstances(p, {15, 95, {}, -1}, k1, StatsGroup::Device);
        QCOMPARE(inst.size(), size_t(2));
        QCOMPARE(p.startNs(inst[0]), TimeNs(40));
        QCOMPARE(p.startNs(inst[1]), TimeNs(0));
        QVERIFY(rangeInstances(p, {31, 39, {}, -1}, k1, StatsGroup::Device).empty());
        QVERIFY(rangeInstances(p, {15, 95, {}, -1}, k1, StatsGroup::Host).empty());
    }

    void twoThreadsAgreeWithOneLaneAtATime()
    {
        // 4 streams × 80,000 kernels (enough for the two-thread path) and a nested host lane; the
        // range cuts the lanes' middles. Summed lane by lane (one thread each), the figures must be equal.
        auto profile = std::make_shared<Profile>();
        Profile& p = *profile;
        const int rank = p.ensureRank(0, 0);
        std::vector<uint32_t> lanes;
        for (int s = 0; s < 4; ++s) {
            lanes.push_back(
                p.laneFor({LaneKind::NpuStream, rank, 0, s, -1, "Ascend Hardware", "S" + std::to_string(s), 0}));
            for (int k = 0; k < 80'000; ++k)
                p.lanes[lanes.back()].append(k * 100 + s, 50 + (k * 7 + s) % 45,
                                             p.strings.intern("k" + std::to_string((k + s) % 13)), EventKind::Kernel);
        }
        lanes.push_back(p.laneFor({LaneKind::Host, rank, -1, -1, 1, "Python", "T", 0}));
        for (int k = 0; k < 20'000; ++k) {
            p.lanes[lanes.back()].append(k * 400, 300, p.strings.intern("outer"), EventKind::TorchOp);
            p.lanes[lanes.back()].append(k * 400 + 100, 100, p.strings.intern("k1"), EventKind::TorchOp);
        }
        p.finalize();
        const TimeNs from = 1'000'037, to = 7'000'011;
        const RangeStats all = computeRangeStats(p, {from, to, {}, -1});
        std::map<std::pair<StatsGroup, uint32_t>, RangeNameStats> summed;
        for (uint32_t l : lanes)
            for (const RangeNameStats& r : computeRangeStats(p, {from, to, {l}, -1}).rows) {
                auto [it, added] = summed.try_emplace({r.group, r.nameId}, r);
                if (added)
                    continue;
                RangeNameStats& x = it->second;
                x.count += r.count;
                x.totalNs += r.totalNs;
                x.selfNs += r.selfNs;
                x.minNs = std::min(x.minNs, r.minNs);
                x.maxNs = std::max(x.maxNs, r.maxNs);
            }
        QCOMPARE(all.rows.size(), summed.size());
        uint64_t events = 0;
        for (const RangeNameStats& r : all.rows) {
            const RangeNameStats& x = summed.at({r.group, r.nameId});
            QCOMPARE(r.count, x.count);
            QCOMPARE(r.totalNs, x.totalNs);
            QCOMPARE(r.selfNs, x.selfNs);
            QCOMPARE(r.minNs, x.minNs);
            QCOMPARE(r.maxNs, x.maxNs);
            events += r.count;
        }
        QVERIFY(events > 200'000);
        // "outer" holds one k1 of 100 ns each: self = total − 100 × the k1s inside the range.
        const RangeNameStats* outer = rowOf(p, all, "outer", StatsGroup::Host);
        const RangeNameStats* inner = rowOf(p, all, "k1", StatsGroup::Host);
        QCOMPARE(outer->selfNs, outer->totalNs - inner->totalNs);
    }

    void demoAgainstItsDatabase()
    {
        const WrittenDemo demo = writeTestDemo(24, 7, 1, false);
        QVERIFY2(demo.result.error.isEmpty(), qPrintable(demo.result.error));
        // The database renamed: nothing may depend on its name.
        const QString db = demo.dbPath();
        const QString renamed = QFileInfo(db).dir().filePath(QStringLiteral("renamed_run.db"));
        QVERIFY(QFile::rename(db, renamed));
        const LoadOutcome loaded = loadProfile(demo.dir.toStdString());
        QVERIFY2(loaded.profile, qPrintable(loaded.error));
        const Profile& p = *loaded.profile;
        // A range cutting events at both ends: 30 % to 60 % of the device tasks' span.
        const qint64 t0 = queryInt(renamed, QStringLiteral("SELECT min(startNs) FROM TASK"));
        const qint64 t1 = queryInt(renamed, QStringLiteral("SELECT max(endNs) FROM TASK"));
        const TimeNs from = t0 + (t1 - t0) * 3 / 10, to = t0 + (t1 - t0) * 6 / 10;
        const RangeStats s = computeRangeStats(p, {from, to, {}, -1});

        // Per name: events overlapping [from, to) (instants inside it) and their parts inside it.
        const QString inRange =
            QStringLiteral("(x.startNs < %2 AND (x.endNs > %1 OR (x.endNs = x.startNs AND x.startNs >= %1)))")
                .arg(from)
                .arg(to);
        const QString clipped = QStringLiteral("max(0, min(x.endNs, %2) - max(x.startNs, %1))").arg(from).arg(to);
        // The demo writes times as text: compared as integers.
        const QString times = QStringLiteral("CAST(startNs AS INTEGER) AS startNs, CAST(endNs AS INTEGER) AS endNs");
        // `prefix`: what the loader puts before the table's name (CANN calls: "<API type>@").
        auto check = [&](const QString& sql, StatsGroup group, bool prefixed = false) {
            const auto rows = queryRows(renamed, sql.arg(inRange, clipped, times));
            QVERIFY(rows.size() > 3);
            for (const auto& r : rows) {
                const RangeNameStats* row = nullptr;
                for (const RangeNameStats& x : s.rows) {
                    const std::string_view n = p.strings.view(x.nameId);
                    const bool same = prefixed ? n.size() > r[0].size() && n.ends_with("@" + r[0]) : n == r[0];
                    if (x.group == group && same)
                        row = &x;
                }
                QVERIFY2(row, r[0].c_str());
                QCOMPARE(row->count, uint64_t(std::stoull(r[1])));
                QCOMPARE(row->totalNs, TimeNs(std::stoll(r[2])));
                QCOMPARE(row->maxNs, TimeNs(std::stoll(r[3])));
            }
        };
        // Host calls: PyTorch ops, and CANN calls (named "<API type>@<name>" by the loader).
        check(QStringLiteral("SELECT s.value, count(*), sum(%2), max(%2) FROM (SELECT name, %3 FROM PYTORCH_API) x "
                             "JOIN STRING_IDS s ON s.id = x.name WHERE %1 GROUP BY s.value"),
              StatsGroup::Host);
        check(QStringLiteral("SELECT s.value, count(*), sum(%2), max(%2) FROM (SELECT name, %3 FROM CANN_API) x "
                             "JOIN STRING_IDS s ON s.id = x.name WHERE %1 GROUP BY s.value"),
              StatsGroup::Host, true);
        // Compute kernels (named by COMPUTE_TASK_INFO): device tasks never nest, so self = total.
        check(QStringLiteral("SELECT s.value, count(*), sum(%2), max(%2) FROM (SELECT globalTaskId, %3 FROM TASK) "
                             "x JOIN COMPUTE_TASK_INFO c ON c.globalTaskId = x.globalTaskId JOIN STRING_IDS s ON s.id "
                             "= c.name WHERE %1 "
                             "GROUP BY s.value"),
              StatsGroup::Device);
        for (const RangeNameStats& r : s.rows)
            if (r.group == StatsGroup::Device)
                QCOMPARE(r.selfNs, r.totalNs);
        // Every device task of the range is in the device rows once.
        uint64_t deviceCount = 0;
        for (const RangeNameStats& r : s.rows)
            deviceCount += r.group == StatsGroup::Device ? r.count : 0;
        QCOMPARE(qint64(deviceCount),
                 queryInt(renamed,
                          QStringLiteral("SELECT count(*) FROM (SELECT %2 FROM TASK) x WHERE %1").arg(inRange, times)));
        // Communication operations.
        const auto comm = queryRows(
            renamed, QStringLiteral("SELECT count(*), sum(%2) FROM (SELECT %3 FROM COMMUNICATION_OP) x WHERE %1")
                         .arg(inRange, clipped, times));
        uint64_t commCount = 0;
        TimeNs commTotal = 0;
        for (const RangeNameStats& r : s.rows)
            if (r.group == StatsGroup::Comm) {
                commCount += r.count;
                commTotal += r.totalNs;
            }
        QVERIFY(commCount > 0);
        QCOMPARE(commCount, uint64_t(std::stoull(comm[0][0])));
        QCOMPARE(commTotal, TimeNs(std::stoll(comm[0][1])));
        // A host span's self time never exceeds its total, and some host names have children.
        bool someNested = false;
        for (const RangeNameStats& r : s.rows)
            if (r.group == StatsGroup::Host) {
                QVERIFY(r.selfNs <= r.totalNs && r.selfNs >= 0);
                someNested = someNested || r.selfNs < r.totalNs;
            }
        QVERIFY(someNested);
    }
};

QTEST_GUILESS_MAIN(TestRangeStats)
#include "tst_range_stats.moc"
