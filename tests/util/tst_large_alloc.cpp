// Large arrays in mappings of whole 2 MB pages (core/util/LargeAlloc.h), and the packed streams of a
// trace part's slices and flow points built on them (core/io/trace/TraceRecords.h).
#include "io/trace/TraceRecords.h"
#include "util/LargeAlloc.h"

#include <QTest>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace dspark;
using dspark::trace::FlowRecord;
using dspark::trace::FlowStream;
using dspark::trace::RawId;
using dspark::trace::SliceRecord;
using dspark::trace::SliceStream;

namespace {

bool sameSlice(const SliceRecord& a, const SliceRecord& b)
{
    return a.startNs == b.startNs && a.durationNs == b.durationNs && a.offset == b.offset && a.corr == b.corr &&
           a.track == b.track && a.name == b.name && a.hint == b.hint;
}

// Slices with every field's extremes mixed in among ordinary ones.
std::vector<SliceRecord> randomSlices(size_t n, unsigned seed)
{
    std::mt19937_64 random(seed);
    const int64_t i64max = std::numeric_limits<int64_t>::max(), i64min = std::numeric_limits<int64_t>::min();
    std::vector<SliceRecord> out(n);
    int64_t ts = 1736408883010945452;
    uint64_t offset = 1;
    for (size_t i = 0; i < n; ++i) {
        SliceRecord& s = out[i];
        const unsigned pick = random() % 16;
        ts += int64_t(random() % 2000000) - 500000;
        s.startNs = pick == 0 ? i64min : pick == 1 ? i64max : pick == 2 ? 0 : ts;
        s.durationNs = pick == 3 ? i64max : int64_t(random() % 100000);
        offset += random() % 400;
        s.offset = pick == 4 ? 0 : pick == 5 ? std::numeric_limits<uint64_t>::max() : offset;
        s.corr = pick == 6   ? SliceRecord::kCorrNone
                 : pick == 7 ? i64max
                 : pick == 8 ? i64min + 1
                 : pick == 9 ? -1
                             : int64_t(random() % 5000000);
        s.track = pick == 10 ? std::numeric_limits<uint32_t>::max() : uint32_t(random() % 16);
        s.name = pick == 11 ? std::numeric_limits<uint32_t>::max() : uint32_t(random() % 3000);
        s.hint = uint8_t(random() % 0x80);
    }
    return out;
}

bool same(const SliceRecord& a, const SliceRecord& b)
{
    return sameSlice(a, b);
}

bool same(const FlowRecord& a, const FlowRecord& b)
{
    return a.tsNs == b.tsNs && a.id == b.id && a.track == b.track && a.category == b.category && a.idKind == b.idKind &&
           a.ph == b.ph && a.enclosing == b.enclosing;
}

// Flow points of every id kind, categories past the codec's 16 id slots (they share one), integer ids
// that jump between the int64 extremes (deltas that wrap), and the extremes of every other field.
std::vector<FlowRecord> randomFlows(size_t n, unsigned seed)
{
    std::mt19937_64 random(seed);
    const uint64_t u64max = std::numeric_limits<uint64_t>::max();
    std::vector<FlowRecord> out(n);
    int64_t ts = 1736408883010945452;
    uint64_t counter = 92907;
    for (size_t i = 0; i < n; ++i) {
        FlowRecord& f = out[i];
        const unsigned pick = random() % 16;
        ts += int64_t(random() % 2000000) - 500000;
        f.tsNs = pick == 0 ? std::numeric_limits<int64_t>::min() : pick == 1 ? std::numeric_limits<int64_t>::max() : ts;
        f.track = pick == 2 ? std::numeric_limits<uint32_t>::max() : uint32_t(random() % 16);
        f.category = pick == 3 ? std::numeric_limits<uint32_t>::max() : uint32_t(random() % 40);
        f.idKind = static_cast<RawId::Kind>(random() % 5);
        counter += random() % 3;
        f.id = pick == 4   ? u64max
               : pick == 5 ? uint64_t(std::numeric_limits<int64_t>::min())
               : pick == 6 ? 0
               : pick == 7 ? uint64_t(ts) // an async_npu id: a timestamp
                           : counter;
        f.ph = "stf"[random() % 3];
        f.enclosing = random() % 2 != 0;
    }
    return out;
}

template <typename Stream, typename Record = typename Stream::Record>
void push(Stream& stream, const std::vector<Record>& records, size_t from = 0, size_t to = SIZE_MAX)
{
    for (size_t i = from; i < std::min(to, records.size()); ++i)
        stream.push(records[i]);
}

// Drains the stream; true when it gave back exactly `expected` (the records from `skip` on).
template <typename Stream, typename Record = typename Stream::Record>
bool drainsTo(Stream& stream, const std::vector<Record>& expected)
{
    size_t i = 0;
    bool equal = true;
    stream.drain([&](const Record& r) { equal = equal && i < expected.size() && same(r, expected[i++]); });
    return equal && i == expected.size() && stream.empty();
}

template <typename Stream, typename Record = typename Stream::Record>
void checkRoundTrip(const std::vector<Record>& records)
{
    Stream stream;
    push(stream, records);
    QCOMPARE(stream.size(), records.size());
    QVERIFY(stream.bytesUsed() >= 2 * kHugePage); // several 2 MB blocks
    size_t i = 0;
    bool equal = true;
    stream.forEach([&](const Record& r) { equal = equal && i < records.size() && same(r, records[i++]); });
    QVERIFY(equal);
    QCOMPARE(i, records.size());
    QVERIFY(drainsTo(stream, records));
}

template <typename Stream, typename Record = typename Stream::Record>
void checkRollback(const std::vector<Record>& records, const std::vector<Record>& more)
{
    for (const size_t keep : {size_t(0), size_t(1), size_t(77777), records.size() - 1}) {
        Stream stream;
        push(stream, records, 0, keep);
        const typename Stream::Position mark = stream.end();
        push(stream, records, keep);
        // What came after the mark, in order.
        size_t seen = keep;
        bool equal = true;
        stream.forEachSince(mark, [&](const Record& r) { equal = equal && same(r, records[seen++]); });
        QVERIFY(equal);
        QCOMPARE(seen, records.size());
        // Dropped, then different records pushed after the kept ones.
        stream.rollback(mark);
        QCOMPARE(stream.size(), keep);
        push(stream, more);
        std::vector<Record> expected(records.begin(), records.begin() + ptrdiff_t(keep));
        expected.insert(expected.end(), more.begin(), more.end());
        QVERIFY(drainsTo(stream, expected));
    }
}

// Parts parsed one after another on a thread share the block where one ends and the next begins.
template <typename Stream, typename Record = typename Stream::Record>
void checkContinued(const std::vector<Record>& first, const std::vector<Record>& second)
{
    Stream a;
    push(a, first);
    Stream b;
    b.continueAfter(a);
    const typename Stream::Position empty = b.end();
    QVERIFY(empty.used > 0); // b starts in the middle of a's last block
    push(b, second);
    // A rollback of b to its start keeps a whole, and b can grow again.
    b.rollback(empty);
    QCOMPARE(b.size(), size_t(0));
    push(b, second);
    // Drained in either order (b first here), each gives back its own records.
    QVERIFY(drainsTo(b, second));
    QVERIFY(drainsTo(a, first));
}

} // namespace

class TestLargeAlloc : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void largeAllocationsStartOnA2MbBoundary()
    {
        for (const size_t bytes : {kLargeAllocation, kHugePage, kHugePage + 1, size_t(7) << 20}) {
            void* p = allocateLarge(bytes);
            QCOMPARE(reinterpret_cast<uintptr_t>(p) % kHugePage, uintptr_t(0));
            static_cast<char*>(p)[0] = 1;
            static_cast<char*>(p)[bytes - 1] = 2; // the whole request is writable
            freeLarge(p, bytes);
        }
        void* small = allocateLarge(100);
        QVERIFY(small != nullptr);
        freeLarge(small, 100);
    }
    void onlyPagesMostlyAskedForAreAdvisedHuge()
    {
#if defined(__linux__)
        // Whole 2 MB pages are advised for transparent huge pages; the last one only when at least
        // 3/8 of it is asked for (a shorter end is cheaper in 4 KB pages).
        const auto advisedHuge = [](const void* at) -> int { // 1, 0, or -1: not found
            std::ifstream smaps("/proc/self/smaps");
            const auto a = reinterpret_cast<uintptr_t>(at);
            std::string line;
            bool inside = false;
            while (std::getline(smaps, line)) {
                unsigned long lo = 0, hi = 0;
                if (std::sscanf(line.c_str(), "%lx-%lx ", &lo, &hi) == 2 && line.find(':') > line.find('-'))
                    inside = lo <= a && a < hi;
                else if (inside && line.rfind("VmFlags:", 0) == 0)
                    return line.find(" hg") != std::string::npos ? 1 : 0;
            }
            return -1;
        };
        const size_t shortEnd = 2 * kHugePage + (kHugePage / 8 * 3 - 4096);
        const size_t longEnd = 2 * kHugePage + kHugePage / 8 * 3;
        auto* a = static_cast<char*>(allocateLarge(shortEnd));
        auto* b = static_cast<char*>(allocateLarge(longEnd));
        if (advisedHuge(a) != 1) {
            freeLarge(a, shortEnd);
            freeLarge(b, longEnd);
            QSKIP("transparent huge pages are not available here");
        }
        QCOMPARE(advisedHuge(a + kHugePage), 1);
        QCOMPARE(advisedHuge(a + 2 * kHugePage), 0);
        QCOMPARE(advisedHuge(b + 2 * kHugePage), 1);
        a[shortEnd - 1] = b[longEnd - 1] = 1; // (still writable)
        freeLarge(a, shortEnd);
        freeLarge(b, longEnd);
#endif
    }
    void unusedPagesGoBackAndUsedOnesKeepTheirBytes()
    {
        const size_t bytes = size_t(5) << 20, used = (size_t(1) << 20) + 5;
        auto* p = static_cast<unsigned char*>(allocateLarge(bytes));
        std::fill(p, p + bytes, 0xAB);
        releaseUnusedPages(p, bytes, used);
        QVERIFY(std::all_of(p, p + used, [](unsigned char c) { return c == 0xAB; }));
        const size_t from = (used + 4095) & ~size_t(4095); // the rest of the used 4 KB page stays
        QVERIFY(std::all_of(p + used, p + from, [](unsigned char c) { return c == 0xAB; }));
        QVERIFY(std::all_of(p + from, p + bytes, [](unsigned char c) { return c == 0; })); // handed back
        freeLarge(p, bytes);
        // Small allocations are left alone.
        auto* small = static_cast<unsigned char*>(allocateLarge(1000));
        std::fill(small, small + 1000, 0xCD);
        releaseUnusedPages(small, 1000, 10);
        QVERIFY(std::all_of(small, small + 1000, [](unsigned char c) { return c == 0xCD; }));
        freeLarge(small, 1000);
    }
    void vectorsKeepTheirValuesAcrossGrowth()
    {
        // Growth moves values from malloc'd storage into mappings and between mappings.
        LargeVector<int64_t> v;
        for (int64_t i = 0; i < 600000; ++i)
            v.push_back(i * 3 - 7);
        QVERIFY(v.capacity() * sizeof(int64_t) >= kLargeAllocation);
        QCOMPARE(reinterpret_cast<uintptr_t>(v.data()) % kHugePage, uintptr_t(0));
        for (int64_t i = 0; i < 600000; ++i)
            QCOMPARE(v[size_t(i)], i * 3 - 7);
        LargeVector<int64_t> copy = v;
        v.clear();
        v.shrink_to_fit();
        QCOMPARE(copy.size(), size_t(600000));
        QCOMPARE(copy.back(), int64_t(599999 * 3 - 7));
    }
    void resizeWithAValueFillsIt()
    {
        LargeVector<uint32_t> v(10, 5);
        v.assign(300000, 9);
        v.resize(400000, 4);
        QCOMPARE(v[0], 9u);
        QCOMPARE(v[299999], 9u);
        QCOMPARE(v[300000], 4u);
        QCOMPARE(v[399999], 4u);
    }

    void sliceStreamGivesBackWhatWentIn()
    {
        checkRoundTrip<SliceStream>(randomSlices(300000, 1));
    }
    void sliceStreamRollsBackToAPosition()
    {
        checkRollback<SliceStream>(randomSlices(250000, 2), randomSlices(1000, 3));
    }
    void continuedSliceStreamsShareABlockAndKeepTheirOwn()
    {
        checkContinued<SliceStream>(randomSlices(150000, 4), randomSlices(90000, 5));
    }
    void flowStreamGivesBackWhatWentIn()
    {
        checkRoundTrip<FlowStream>(randomFlows(400000, 6));
    }
    void flowStreamRollsBackToAPosition()
    {
        checkRollback<FlowStream>(randomFlows(250000, 7), randomFlows(1000, 8));
    }
    void continuedFlowStreamsShareABlockAndKeepTheirOwn()
    {
        checkContinued<FlowStream>(randomFlows(300000, 9), randomFlows(90000, 10));
    }
    void continuedBlockVectorsIndexFromTheirOwnStart()
    {
        using Vec = trace::BlockVector<uint64_t>;
        Vec a, b, c;
        const size_t na = Vec::BlockSize + 1000, nb = Vec::BlockSize + 77; // b crosses into a block of its own
        for (size_t i = 0; i < na; ++i)
            a.push_back(i);
        b.continueAfter(a);
        for (size_t i = 0; i < nb; ++i)
            b.push_back(1000000 + i);
        c.continueAfter(b);
        for (size_t i = 0; i < 100; ++i)
            c.push_back(7);
        QCOMPARE(a.size(), na);
        QCOMPARE(b.size(), nb);
        QCOMPARE(a[na - 1], uint64_t(na - 1));
        QCOMPARE(b[0], uint64_t(1000000));
        QCOMPARE(b.at(nb - 1), uint64_t(1000000 + nb - 1));
        QCOMPARE(c[99], uint64_t(7));
        // The last one rolls back (a chunk that failed) and grows again; the others keep theirs.
        c.truncate(10);
        QCOMPARE(c.size(), size_t(10));
        c.truncate(0);
        QCOMPARE(c.size(), size_t(0));
        c.push_back(42);
        QCOMPARE(c[0], uint64_t(42));
        QCOMPARE(b.at(nb - 1), uint64_t(1000000 + nb - 1));
        // Drained in any order, each gives back its own elements.
        std::vector<uint64_t> rest;
        c.drain([&](uint64_t v) { rest.push_back(v); });
        QCOMPARE(rest, std::vector<uint64_t>{42});
        uint64_t sum = 0;
        size_t n = 0;
        a.drain([&](uint64_t v) {
            sum += v;
            ++n;
        });
        QCOMPARE(n, na);
        QCOMPARE(sum, uint64_t(na) * (na - 1) / 2);
        n = 0;
        bool same = true;
        b.forEach([&](uint64_t v) { same = same && v == 1000000 + n++; });
        QVERIFY(same);
        QCOMPARE(n, nb);
    }
};

QTEST_GUILESS_MAIN(TestLargeAlloc)
#include "tst_large_alloc.moc"
