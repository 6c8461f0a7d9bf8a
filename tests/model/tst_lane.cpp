// The lane model: sorted columns, nesting depth, range look-ups, and link remapping in a profile.
#include "model/Profile.h"

#include <QTest>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <vector>

using namespace dspark;

class TestLane : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void sortsEventsAndComputesNesting()
    {
        Lane lane;
        lane.append(50, 10, 3, EventKind::Kernel);  // child of the 0..100 span
        lane.append(0, 100, 1, EventKind::TorchOp); // outer
        lane.append(120, 5, 4, EventKind::Kernel);
        lane.append(10, 20, 2, EventKind::TorchOp); // child
        lane.append(15, 5, 5, EventKind::TorchOp);  // grandchild
        const LargeVector<uint32_t> map = lane.finalize();
        QCOMPARE(lane.startNs, (LargeVector<TimeNs>{0, 10, 15, 50, 120}));
        QCOMPARE(lane.depth, (LargeVector<uint16_t>{0, 1, 2, 1, 0}));
        QCOMPARE(lane.maxDepth, uint16_t(2));
        QCOMPARE(map[0], 3u); // the event appended first now sits at row 3
        QCOMPARE(map[1], 0u);
        QCOMPARE(lane.nameId[3], 3u);
    }

    void flatLanesKeepNoDepthColumn()
    {
        // No event nests: the column stays empty (never touched) and every depth reads 0.
        Lane flat;
        for (int i = 0; i < 1000; ++i)
            flat.append(i * 10, 10, 1, EventKind::Kernel); // end == next start: not nested
        flat.append(20000, 0, 2, EventKind::Kernel);
        flat.append(20000, 0, 3, EventKind::Kernel); // zero durations open nothing
        flat.finalize();
        QVERIFY(flat.depth.empty());
        QCOMPARE(flat.maxDepth, uint16_t(0));
        QCOMPARE(flat.depthOf(0), 0);
        QCOMPARE(flat.depthOf(1001), 0);
        size_t visited = 0;
        flat.forEachAtDepth(0, 0, 30000, [&](size_t) { ++visited; });
        QCOMPARE(visited, size_t(1002));
        // Nesting that starts late: the events before the first nested one read 0, the rest as computed.
        Lane late;
        for (int i = 0; i < 500; ++i)
            late.append(i * 10, 10, 1, EventKind::Kernel);
        late.append(10000, 100, 2, EventKind::TorchOp);
        late.append(10010, 50, 3, EventKind::TorchOp);
        late.append(10020, 10, 4, EventKind::TorchOp);
        late.append(10200, 10, 5, EventKind::TorchOp);
        late.finalize();
        QCOMPARE(late.depth.size(), size_t(504));
        QCOMPARE(late.maxDepth, uint16_t(2));
        for (size_t i = 0; i < 500; ++i)
            QCOMPARE(late.depthOf(i), 0);
        QCOMPARE(late.depthOf(500), 0);
        QCOMPARE(late.depthOf(501), 1);
        QCOMPARE(late.depthOf(502), 2);
        QCOMPARE(late.depthOf(503), 0);
        QCOMPARE(late.byDepth[1].size(), size_t(1));
        QCOMPARE(late.byDepth[0].size(), size_t(502));
    }

    void sortingKeepsTiesInRowOrder()
    {
        // 60 events with one start and duration (names 0..59, appended in order) behind an outer
        // span appended last: the outer span moves first, the ties keep their order.
        Lane lane;
        for (uint32_t i = 0; i < 60; ++i)
            lane.append(100, 10, i, EventKind::Kernel);
        lane.append(50, 200, 1000, EventKind::TorchOp);
        const LargeVector<uint32_t> map = lane.finalize();
        QCOMPARE(lane.nameId[0], 1000u);
        for (uint32_t i = 0; i < 60; ++i) {
            QCOMPARE(lane.nameId[i + 1], i);
            QCOMPARE(map[i], i + 1);
        }
    }

    void rangeLookupFindsEveryOverlappingEventEvenUnderALongSpan()
    {
        Lane lane;
        lane.append(0, 1'000'000, 1, EventKind::Annotation); // covers everything
        for (int i = 0; i < 1000; ++i)
            lane.append(1000 + i * 100, 50, 2, EventKind::TorchOp);
        lane.finalize();
        int seenDepth1 = 0;
        lane.forEachAtDepth(1, 50'000, 50'300, [&](size_t i) {
            QVERIFY(lane.startNs[i] < 50'300 && lane.endNs(i) >= 50'000);
            ++seenDepth1;
        });
        QCOMPARE(seenDepth1, 3); // starts 50000, 50100, 50200 (49900 ends at 49950)
        int seenDepth0 = 0;
        lane.forEachAtDepth(0, 50'000, 50'300, [&](size_t) { ++seenDepth0; });
        QCOMPARE(seenDepth0, 1);
        QCOMPARE(lane.eventAt(50'120), size_t(1 + (50'100 - 1000) / 100));
    }

    void overlappingStartsAtTheFirstEventThatReachesPastT0()
    {
        // Block maxima of ends must give exactly the first index whose running maximum of ends
        // passes t0: checked against that running maximum, with block edges and a lane end in between.
        for (const int n : {1, 63, 64, 65, 1000, 4097}) {
            Lane lane;
            uint64_t x = 88172645463325252ull + uint64_t(n);
            for (int i = 0; i < n; ++i) {
                x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                lane.append(TimeNs(i) * 10, TimeNs(x % (i % 97 == 5 ? 5000 : 40)), 1, EventKind::Kernel);
            }
            lane.finalize();
            std::vector<TimeNs> runningMax(lane.size());
            for (size_t i = 0; i < lane.size(); ++i)
                runningMax[i] = std::max(i ? runningMax[i - 1] : INT64_MIN, lane.endNs(i));
            QCOMPARE(lane.lastNs(), runningMax.back());
            for (TimeNs t0 = -5; t0 <= TimeNs(n) * 10 + 5000; t0 += 7) {
                const size_t expected = std::upper_bound(runningMax.begin(), runningMax.end(), t0) - runningMax.begin();
                const auto [first, last] = lane.overlapping(t0, t0 + 100);
                QCOMPARE(first, expected);
                QVERIFY(last >= first && last <= lane.size());
            }
        }
    }

    void correlationIdsKeepEveryValueThroughSortingAndRollback()
    {
        // 4 bytes a row; values outside int32 (and INT32_MIN itself) are kept beside, by row.
        const int64_t values[] = {-1,
                                  0,
                                  7,
                                  INT32_MAX,
                                  int64_t(INT32_MAX) + 1,
                                  INT32_MIN,
                                  int64_t(INT32_MIN) + 1,
                                  INT64_MAX,
                                  INT64_MIN,
                                  5'000'000'000LL};
        const size_t kinds = std::size(values);
        Lane lane;
        for (size_t i = 0; i < 300; ++i) // appended in reverse time order: finalize moves every row
            lane.append(TimeNs(10'000 - i * 10), 5, 1, EventKind::Kernel, values[i % kinds]);
        // Rolled back to 200 rows, then grown again with other values.
        lane.resize(200);
        QCOMPARE(lane.corrId.size(), size_t(200));
        for (size_t i = 200; i < 250; ++i)
            lane.append(TimeNs(10'000 - i * 10), 5, 1, EventKind::Kernel, values[(i + 3) % kinds]);
        // Set in place after a resize without values (as the JSON loader places rows).
        lane.resize(260);
        for (size_t i = 250; i < 260; ++i)
            lane.corrId.set(i, values[(i + 5) % kinds]);
        lane.corrId.set(255, 12345); // set twice: the last value counts
        const auto expected = [&](size_t row) -> int64_t {
            if (row == 255)
                return 12345;
            return values[(row < 200 ? row : row < 250 ? row + 3 : row + 5) % kinds];
        };
        for (size_t i = 0; i < 260; ++i)
            QCOMPARE(lane.corrId[i], expected(i));
        const LargeVector<uint32_t> moved = lane.finalize();
        QCOMPARE(moved.size(), size_t(260));
        for (size_t i = 0; i < 260; ++i)
            QCOMPARE(lane.corrId[moved[i]], expected(i));
    }

    void durationsKeepEveryValueThroughSortingAndRollback()
    {
        // 4 bytes a row; durations of ~4.3 s and longer (UINT32_MAX ns and up) are kept beside, by row.
        const int64_t values[] = {0,
                                  1,
                                  int64_t(UINT32_MAX) - 1,
                                  int64_t(UINT32_MAX),
                                  int64_t(UINT32_MAX) + 1,
                                  5'000'000'000LL,
                                  1'000'000'000'000'000LL,
                                  7};
        const size_t kinds = std::size(values);
        Lane lane;
        for (size_t i = 0; i < 300; ++i) // two events per start, in reverse time order: every row moves
            lane.append(TimeNs(10'000 - (i / 2) * 10), values[i % kinds], 1, EventKind::Kernel);
        lane.resize(200);
        QCOMPARE(lane.durationNs.size(), size_t(200));
        for (size_t i = 200; i < 250; ++i)
            lane.append(TimeNs(10'000 - (i / 2) * 10), values[(i + 3) % kinds], 1, EventKind::Kernel);
        lane.resize(260);
        for (size_t i = 250; i < 260; ++i) {
            lane.startNs[i] = TimeNs(10'000 - (i / 2) * 10);
            lane.durationNs.set(i, values[(i + 5) % kinds]);
        }
        lane.durationNs.set(255, 12345); // set twice: the last value counts
        const auto expected = [&](size_t row) -> int64_t {
            if (row == 255)
                return 12345;
            return values[(row < 200 ? row : row < 250 ? row + 3 : row + 5) % kinds];
        };
        for (size_t i = 0; i < 260; ++i)
            QCOMPARE(lane.durationNs[i], expected(i));
        const LargeVector<uint32_t> moved = lane.finalize();
        QCOMPARE(moved.size(), size_t(260));
        for (size_t i = 0; i < 260; ++i)
            QCOMPARE(lane.durationNs[moved[i]], expected(i));
        // Of two events with one start, the longer sorts first (wide values compared as values).
        for (size_t i = 1; i < 260; ++i)
            if (lane.startNs[i] == lane.startNs[i - 1])
                QVERIFY(lane.durationNs[i - 1] >= lane.durationNs[i]);
        QCOMPARE(lane.lastNs(), TimeNs(9'970 + 1'000'000'000'000'000LL)); // row 6 ends last
        // Only the rows whose duration does not fit are kept beside, once each.
        size_t wide = 0;
        for (size_t i = 0; i < 260; ++i)
            wide += expected(i) >= int64_t(UINT32_MAX) ? 1 : 0;
        QCOMPARE(lane.durationNs.wideCount(), wide);
    }

    void manyLongEventsAtOneStartSortWithoutScanningTheValuesBeside()
    {
        // 100,000 events of one start, every duration beyond 4.3 s (kept beside): the order compares
        // durations, and a look-up that scanned the values beside made it quadratic (hours, not ms).
        constexpr uint32_t n = 100'000;
        constexpr int64_t base = 5'000'000'000LL;
        Lane appended, setBackwards;
        for (uint32_t i = 0; i < n; ++i)
            appended.append(TimeNs(1'000), base + i, 1, EventKind::Kernel);
        setBackwards.resize(n);
        for (uint32_t i = n; i-- > 0;) { // rows set from the last: the values beside arrive unordered
            setBackwards.startNs[i] = TimeNs(1'000);
            setBackwards.durationNs.set(i, base + i);
        }
        for (Lane* lane : {&appended, &setBackwards}) {
            const LargeVector<uint32_t> moved = lane->finalize();
            QCOMPARE(moved.size(), size_t(n));
            QCOMPARE(moved[0], n - 1); // the longest (last) row first
            QCOMPARE(lane->durationNs[0], base + n - 1);
            QCOMPARE(lane->durationNs[n - 1], base);
            QCOMPARE(lane->durationNs.wideCount(), size_t(n));
            QCOMPARE(lane->lastNs(), TimeNs(1'000) + base + n - 1);
        }
    }

    void aMillionWideValuesSetOutOfOrderReadBackWithoutScanning()
    {
        // Two loader threads set rows of one column at once, so the values kept beside arrive unordered:
        // each read scanned them all (a 25 MB trace of 400,000 events of 5 s at one start did not load in
        // 5 minutes). Rows k and n/2 + k alternate; rows 0..99 are set again (the last value counts).
        constexpr size_t n = 1'000'000;
        constexpr int64_t base = 5'000'000'000LL;
        DurationColumn column;
        column.resize(n);
        for (size_t k = 0; k < n / 2; ++k) {
            column.set(k, base + int64_t(k));
            column.set(n / 2 + k, base + int64_t(n / 2 + k));
        }
        for (size_t k = 0; k < 100; ++k)
            column.set(k, k % 2 ? int64_t(k) : base - int64_t(k)); // odd rows narrow again
        int64_t sum = 0;
        for (size_t i = 0; i < n; ++i)
            sum += column[i] - base;
        // Rows 100..n-1: sum of i; rows 0..99: odd k gives k - base, even k gives -k.
        int64_t expected = 0;
        for (size_t i = 100; i < n; ++i)
            expected += int64_t(i);
        for (size_t k = 0; k < 100; ++k)
            expected += k % 2 ? int64_t(k) - base : -int64_t(k);
        QCOMPARE(sum, expected);
        column.finish(); // once ordered, only the rows still wide are kept
        QCOMPARE(column.wideCount(), n - 50);
        QCOMPARE(column[1], int64_t(1));
        QCOMPARE(column[2], base - 2);
        QCOMPARE(column[n - 1], base + int64_t(n - 1));
    }

    void argsReferencesKeepEveryValueThroughSortingAndRollback()
    {
        // 4 bytes a row: a reference of the column's source within 4 GB of its base; others beside.
        const uint64_t values[] = {
            0,
            Profile::makeArgsRef(3, 1),
            Profile::makeArgsRef(3, 123456789),
            Profile::makeArgsRef(3, uint64_t(UINT32_MAX) - 1),
            Profile::makeArgsRef(3, uint64_t(UINT32_MAX)),
            Profile::makeArgsRef(3, uint64_t(1) << 40),
            Profile::makeArgsRef(2, 77),
            Profile::makeArgsRef(kMaxArgsSources, (uint64_t(1) << ArgsColumn::kSourceShift) - 1)};
        const size_t kinds = std::size(values);
        Lane lane;
        lane.append(TimeNs(20'000), 1, 1, EventKind::Kernel, -1, 0); // no args first: the base comes later
        for (size_t i = 1; i < 300; ++i)
            lane.append(TimeNs(20'000 - i * 10), 1, 1, EventKind::Kernel, -1, values[i % kinds]);
        lane.resize(200);
        lane.resize(260);
        for (size_t i = 200; i < 260; ++i) {
            lane.startNs[i] = TimeNs(20'000 - i * 10);
            lane.argsRef.set(i, values[(i + 3) % kinds]);
        }
        lane.argsRef.set(205, Profile::makeArgsRef(3, 42)); // set twice: the last value counts
        const auto expected = [&](size_t row) -> uint64_t {
            if (row == 205)
                return Profile::makeArgsRef(3, 42);
            return values[(row < 200 ? row : row + 3) % kinds];
        };
        for (size_t i = 0; i < 260; ++i)
            QCOMPARE(lane.argsRef[i], expected(i));
        const LargeVector<uint32_t> moved = lane.finalize();
        QCOMPARE(moved.size(), size_t(260));
        size_t wide = 0;
        for (size_t i = 0; i < 260; ++i) {
            QCOMPARE(lane.argsRef[moved[i]], expected(i));
            const uint64_t v = expected(i);
            constexpr int shift = ArgsColumn::kSourceShift;
            wide += v != 0 && (v >> shift != 3 || (v & ((uint64_t(1) << shift) - 1)) >= UINT32_MAX) ? 1 : 0;
        }
        QCOMPARE(lane.argsRef.wideCount(), wide); // the base is source 3's: the first non-zero pushed

        // Set in parallel after setBase(), as the JSON loader does: its source's references are narrow.
        Lane placed;
        placed.argsRef.setBase(Profile::makeArgsRef(9, 0));
        placed.resize(4);
        placed.argsRef.set(0, Profile::makeArgsRef(9, 5));
        placed.argsRef.set(1, 0);
        placed.argsRef.set(2, Profile::makeArgsRef(9, 1'000'000'000));
        placed.argsRef.set(3, Profile::makeArgsRef(1, 5));
        QCOMPARE(placed.argsRef[0], Profile::makeArgsRef(9, 5));
        QCOMPARE(placed.argsRef[1], uint64_t(0));
        QCOMPARE(placed.argsRef[2], Profile::makeArgsRef(9, 1'000'000'000));
        QCOMPARE(placed.argsRef[3], Profile::makeArgsRef(1, 5));
        placed.finalize();
        QCOMPARE(placed.argsRef.wideCount(), size_t(1));
    }

    void profileHoldsManyEndlessEventsWithoutSortingTheValuesBesideForEach()
    {
        // 200,000 events of a damaged file that end past 2^62 - 1 ns, their durations set from the last row
        // (kept beside, unordered). finalize holds each to end at that limit; setting one between the reads
        // of the next made every read sort the values beside again: 50,000 took 114 s, these would take half
        // an hour (a 130-byte fuzz input took 26 s).
        constexpr uint32_t n = 200'000;
        constexpr TimeNs limit = (TimeNs(1) << 62) - 1;
        Profile p;
        const int rank = p.ensureRank(0, 0);
        const uint32_t l = p.laneFor({LaneKind::NpuStream, rank, 0, 2, -1, "Ascend Hardware", "Stream 2", 0});
        Lane& lane = p.lanes[l];
        lane.resize(n);
        const uint32_t name = p.strings.intern("MatMul");
        for (uint32_t i = n; i-- > 0;) {
            lane.startNs[i] = TimeNs(1'000) * i;
            lane.durationNs.set(i, INT64_MAX - i); // end = start + duration overflows
            lane.nameId[i] = name;
            lane.kind[i] = EventKind::Kernel;
        }
        p.finalize();
        QCOMPARE(p.lanes[0].size(), size_t(n));
        for (uint32_t i : {0u, 1u, n / 2, n - 1}) {
            QCOMPARE(p.lanes[0].startNs[i], TimeNs(1'000) * i);
            QCOMPARE(p.lanes[0].durationNs[i], limit - TimeNs(1'000) * i); // ends at the limit exactly
        }
        QCOMPARE(p.lanes[0].durationNs.wideCount(), size_t(n));
        QCOMPARE(p.lastNs(), limit);
        QCOMPARE(p.warnings.size(), qsizetype(1));
        QVERIFY2(p.warnings[0].startsWith(QStringLiteral("200000 event(s) have times beyond 146 years")),
                 qPrintable(p.warnings[0]));
    }

    void profileRemapsLinksAfterSorting()
    {
        Profile p;
        const int rank = p.ensureRank(0, 0);
        LaneInfo host{LaneKind::Host, rank, -1, -1, 1, "CANN", "Thread 1", 0};
        LaneInfo dev{LaneKind::NpuStream, rank, 0, 2, -1, "Ascend Hardware", "Stream 2", 0};
        const uint32_t h = p.laneFor(host);
        const uint32_t d = p.laneFor(dev);
        QCOMPARE(p.laneFor(host), h);
        const uint32_t late = p.lanes[h].append(500, 10, p.strings.intern("launch"), EventKind::HostApi, 7);
        const uint32_t early = p.lanes[h].append(100, 10, p.strings.intern("launch"), EventKind::HostApi, 8);
        const uint32_t k1 = p.lanes[d].append(900, 30, p.strings.intern("MatMul"), EventKind::Kernel, 7);
        const uint32_t k0 = p.lanes[d].append(300, 30, p.strings.intern("Add"), EventKind::Kernel, 8);
        p.addLink({h, late}, {d, k1}, LinkKind::HostToDevice);
        p.addLink({h, early}, {d, k0}, LinkKind::HostToDevice);
        p.finalize();
        QCOMPARE(p.lanes[0].info.kind, LaneKind::Host);
        const auto out = p.linksFrom({0, 0});
        QCOMPARE(out.size(), size_t(1));
        QCOMPARE(p.name(out[0]->to), std::string_view("Add"));
        const auto in = p.linksTo({1, 1});
        QCOMPARE(in.size(), size_t(1));
        QCOMPARE(p.startNs(in[0]->from), TimeNs(500));
        QCOMPARE(p.stats().hostToDevice, uint64_t(2));
        QCOMPARE(p.firstNs(), TimeNs(100));
        QCOMPARE(p.lastNs(), TimeNs(930));
    }
};

QTEST_GUILESS_MAIN(TestLane)
#include "tst_lane.moc"
