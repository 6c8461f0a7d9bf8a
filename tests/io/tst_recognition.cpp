// Files are recognised by what they hold, not by their names, and times keep their true unit: the
// real Kineto traces copied under other names and rewritten with "displayTimeUnit": "ns" load with the
// same counts and durations; expected durations are read from the JSON by the test itself.
#include "io/ProfileLoader.h"
#include "io/ProfileScanner.h"
#include "steps/StepRecords.h"
#include "util/Gzip.h"

#include "GzipSupport.h"
#include "TestSupport.h"

#include "../demo/DemoTestSupport.h"
#include "DbTestSupport.h"

#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <map>

using namespace dspark;

namespace {

QByteArray readAll(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

void writeBytes(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    QVERIFY2(f.open(QIODevice::WriteOnly), qPrintable(path));
    QCOMPARE(f.write(bytes), qint64(bytes.size()));
}

std::string inflated(const QString& gzPath)
{
    const QByteArray gz = readAll(gzPath);
    HeapBytes out;
    std::string error;
    if (gunzip(gz.constData(), size_t(gz.size()), 0, out, error) != GunzipResult::Ok)
        return {};
    return std::string(out.data(), out.size());
}

QStringList kinetoTraces()
{
    QStringList out;
    QDirIterator it(test::realData(QStringLiteral("kineto")), {QStringLiteral("*.json.gz")}, QDir::Files);
    while (it.hasNext())
        out << it.next();
    out.sort();
    return out;
}

// What a load produced, compared between two loads of the same content: every lane's size, summed
// duration and first start, and the info counts.
struct Digest {
    std::map<std::string, std::tuple<size_t, TimeNs, TimeNs>> lanes;
    ProfileStats stats;
    bool operator==(const Digest& o) const
    {
        return lanes == o.lanes && stats.events == o.stats.events && stats.deviceTasks == o.stats.deviceTasks &&
               stats.namedKernels == o.stats.namedKernels && stats.flows == o.stats.flows &&
               stats.hostEvents == o.stats.hostEvents && stats.counters == o.stats.counters;
    }
};

Digest digestOf(const Profile& p)
{
    Digest d;
    for (const Lane& lane : p.lanes) {
        TimeNs sum = 0;
        for (size_t i = 0; i < lane.size(); ++i)
            sum += lane.durationNs[i];
        d.lanes[std::to_string(lane.info.rankIndex) + "/" + lane.info.process + "/" + lane.info.name] = {
            lane.size(), sum, lane.empty() ? TimeNs(0) : lane.startNs[0]};
    }
    d.stats = p.stats();
    return d;
}

std::shared_ptr<const Profile> load(const QString& path, QString* error = nullptr)
{
    const LoadOutcome out = loadProfile(path.toStdString());
    if (error)
        *error = out.error;
    return out.profile;
}

// The longest complete event of the JSON document and its duration in ns (Kineto writes dur in µs
// with up to 3 fractional digits; rounding the double to ns is exact at these magnitudes).
std::pair<std::string, TimeNs> longestEvent(const std::string& text)
{
    const nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
    std::pair<std::string, TimeNs> best{"", -1};
    for (const auto& e : doc["traceEvents"])
        if (e.value("ph", "") == "X" && e.contains("dur") && e["dur"].is_number()) {
            const TimeNs dur = TimeNs(std::llround(e["dur"].get<double>() * 1000.0));
            if (dur > best.second)
                best = {e.value("name", ""), dur};
        }
    return best;
}

TimeNs longestDuration(const Profile& p, const std::string& name)
{
    TimeNs best = -1;
    for (const Lane& lane : p.lanes)
        for (size_t i = 0; i < lane.size(); ++i)
            if (p.strings.view(lane.nameId[i]) == name)
                best = std::max(best, lane.durationNs[i]);
    return best;
}

const SourceFile* fileNamed(const Profile& p, const QString& name)
{
    for (const SourceFile& f : p.files)
        if (QString::fromStdString(f.path).endsWith(QLatin1Char('/') + name))
            return &f;
    return nullptr;
}

bool anyWarning(const Profile& p, const QString& text)
{
    return std::any_of(p.warnings.begin(), p.warnings.end(), [&](const QString& w) { return w.contains(text); });
}

// An Ascend trace_view.json whose `events` (JSON objects, comma-separated) are on pid 9's Stream 2.
QByteArray onAscendStream2(const char* events)
{
    return QByteArray(R"([{"ph":"M","name":"process_name","pid":9,"args":{"name":"Ascend Hardware"}},
        {"ph":"M","name":"thread_name","pid":9,"tid":2,"args":{"name":"Stream 2"}},)") +
           events + "]";
}

QString mkdir(const QTemporaryDir& dir, const QString& relative)
{
    const QString path = dir.filePath(relative);
    QDir().mkpath(path);
    return path;
}

} // namespace

class TestRecognition : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // displayTimeUnit says how to label times; ts and dur stay µs (formats.md §3).
    void displayTimeUnitNsKeepsMicroseconds()
    {
        DSPARK_REQUIRE_REAL_DATA();
        for (const QString& trace : kinetoTraces()) {
            const std::string text = inflated(trace);
            QVERIFY2(!text.empty(), qPrintable(trace));
            const auto [name, trueDur] = longestEvent(text);
            QVERIFY(trueDur > 0);
            const auto original = load(trace);
            QVERIFY2(original, qPrintable(trace));
            QCOMPARE(longestDuration(*original, name), trueDur);

            // Rewritten with "ns" and "ms": declared before the events and (replacing Kineto's own key)
            // after them.
            for (const std::string unit : {"ns", "ms"}) {
                std::string rewritten = text;
                const size_t key = rewritten.find("\"displayTimeUnit\"");
                if (key != std::string::npos) {
                    const size_t value = rewritten.find('"', rewritten.find(':', key));
                    const size_t valueEnd = rewritten.find('"', value + 1);
                    rewritten.replace(value, valueEnd - value + 1, '"' + unit + '"');
                } else {
                    rewritten.insert(rewritten.find('{') + 1, "\"displayTimeUnit\": \"" + unit + "\", ");
                }
                QVERIFY(rewritten.find("\"displayTimeUnit\": \"" + unit + '"') != std::string::npos);
                QTemporaryDir dir;
                const QString copy = dir.filePath(QStringLiteral("unit.pt.trace.json.gz"));
                writeBytes(copy, QByteArray::fromStdString(test::gzipped(rewritten)));
                const auto rewrittenLoad = load(copy);
                QVERIFY2(rewrittenLoad, qPrintable(trace));
                QCOMPARE(longestDuration(*rewrittenLoad, name), trueDur);
                QCOMPARE(rewrittenLoad->metadata.at("trace.displayTimeUnit"), unit); // for the ruler only
                QVERIFY2(digestOf(*rewrittenLoad) == digestOf(*original),
                         qPrintable(trace + QString::fromStdString(unit)));
            }
        }
    }

    // Every other place a unit is read (formats.md §2-§3): Ascend's string ts and a number ts are both
    // µs; the database's ns columns agree with the ns clock fields of its profiler_info.
    void unitsAreTheFormatsOwn()
    {
        QTemporaryDir dir;
        const QString strings = dir.filePath(QStringLiteral("strings.json"));
        const QString numbers = dir.filePath(QStringLiteral("numbers.json"));
        writeBytes(strings, R"([{"ph":"X","name":"k","pid":1,"tid":2,"ts":"1736408883700059.821","dur":53.741}])");
        writeBytes(numbers, R"([{"ph":"X","name":"k","pid":1,"tid":2,"ts":1736408883700059.821,"dur":"53.741"}])");
        for (const QString& path : {strings, numbers}) {
            const auto p = load(path);
            QVERIFY2(p, qPrintable(path));
            QCOMPARE(p->lanes[0].startNs[0], TimeNs(1736408883700059821));
            QCOMPARE(p->lanes[0].durationNs[0], TimeNs(53741));
        }

        DSPARK_REQUIRE_REAL_DATA();
        const auto db = load(test::realData(QStringLiteral("ascend/torch_npu_db_rank0_ascend_pt")));
        QVERIFY(db);
        // profiler_info_0.json end_info.collectionTimeEnd = 1736410576713429440 ns: the last event ends
        // before it and within a second of it (read as µs it would be 1000x off).
        const TimeNs collectionEnd = std::stoll(db->metadata.at("profiler_info.end_info.collectionTimeEnd"));
        QCOMPARE(collectionEnd, TimeNs(1736410576713429440));
        QVERIFY(db->lastNs() <= collectionEnd);
        QVERIFY(collectionEnd - db->lastNs() < TimeNs(1'000'000'000));
        // The last collective ends at 1736410576533750986 ns (SOURCES.md, from the project's own tests).
        TimeNs lastCollectiveEnd = 0;
        for (const Lane& lane : db->lanes)
            for (size_t i = 0; i < lane.size(); ++i)
                if (lane.kind[i] == EventKind::CommOp)
                    lastCollectiveEnd = std::max(lastCollectiveEnd, lane.endNs(i));
        QCOMPARE(lastCollectiveEnd, TimeNs(1736410576533750986));

        // The database's ns columns, set to known values in a copy: the earliest TASK made 1,234,567 ns
        // long, the earliest PYTORCH_API op (its times stored as TEXT) 7,654 ns long.
        const QString copy = test::copyTorchDb(dir.path(), QStringLiteral("known"));
        const qint64 taskStart = test::queryInt(copy, QStringLiteral("SELECT min(startNs) FROM TASK"));
        QVERIFY(test::execSql(copy, QStringLiteral("UPDATE TASK SET endNs = startNs + 1234567 WHERE rowid = (SELECT "
                                                   "rowid FROM TASK ORDER BY startNs LIMIT 1)")));
        const qint64 opStart =
            test::queryInt(copy, QStringLiteral("SELECT min(CAST(startNs AS INTEGER)) FROM PYTORCH_API"));
        QVERIFY(test::execSql(copy, QStringLiteral("UPDATE PYTORCH_API SET endNs = CAST(CAST(startNs AS INTEGER) + "
                                                   "7654 AS TEXT) WHERE rowid = (SELECT rowid FROM PYTORCH_API ORDER "
                                                   "BY CAST(startNs AS INTEGER) LIMIT 1)")));
        const auto known = load(copy);
        QVERIFY(known);
        const auto durationAt = [&](LaneKind kind, TimeNs start) {
            for (const Lane& lane : known->lanes)
                if (lane.info.kind == kind)
                    for (size_t i = 0; i < lane.size(); ++i)
                        if (lane.startNs[i] == start)
                            return lane.durationNs[i];
            return TimeNs(-1);
        };
        QCOMPARE(durationAt(LaneKind::NpuStream, taskStart), TimeNs(1234567));
        QCOMPARE(durationAt(LaneKind::Host, opStart), TimeNs(7654));
    }

    // "Kernels with a name": a compute task named only by its task type (KERNEL_AICORE, as loaders name
    // a task without a kernel name) has no name.
    void namedKernelsMeanKernelNames()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("old_trace_view.json"));
        writeBytes(path, onAscendStream2(R"(
            {"ph":"X","name":"MatMulV2","pid":9,"tid":2,"ts":"1.000","dur":1,"args":{"Task Type":"AI_CORE"}},
            {"ph":"X","name":"EVENT_RECORD","pid":9,"tid":2,"ts":"5.000","dur":1,"args":{"Task Type":"EVENT_RECORD"}},
            {"ph":"X","name":"aclnnAdd_AddAiCore_Add","pid":9,"tid":2,"ts":"9.000","dur":1,"args":{"Task Type":"AI_CORE"}},
            {"ph":"X","name":"KERNEL_AICORE","pid":9,"tid":2,"ts":"11.000","dur":1,"args":{"Task Type":"AI_CORE"}}
        )"));
        const auto p = load(path);
        QVERIFY(p);
        const ProfileStats s = p->stats();
        QCOMPARE(s.deviceTasks, uint64_t(4));
        QCOMPARE(s.namedKernels, uint64_t(2)); // MatMulV2, aclnnAdd_AddAiCore_Add
        const test::CliResult info = test::runCli({QStringLiteral("info"), path});
        QVERIFY2(QRegularExpression(QStringLiteral("Kernels with a name +2\\n"))
                     .match(QString::fromUtf8(info.out))
                     .hasMatch(),
                 info.out.constData());
    }

    // An older export writes no "Task Type" (or "Other"): a task with a kernel's name is a kernel, one
    // named by its type keeps that kind.
    void untypedTasksOfOlderExportsAreKernelsByName()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("older"));
        writeBytes(path, onAscendStream2(R"(
            {"ph":"X","name":"MatMulV2","pid":9,"tid":2,"ts":"1.000","dur":1},
            {"ph":"X","name":"trans_TransData_0","pid":9,"tid":2,"ts":"3.000","dur":1,"args":{"Stream Id":2}},
            {"ph":"X","name":"aclnnAdd_AddAiCore_Add","pid":9,"tid":2,"ts":"5.000","dur":1,"args":{"Task Type":"Other"}},
            {"ph":"X","name":"EVENT_RECORD","pid":9,"tid":2,"ts":"7.000","dur":1},
            {"ph":"X","name":"EVENT_WAIT","pid":9,"tid":2,"ts":"9.000","dur":1},
            {"ph":"X","name":"MEMCPY_ASYNC","pid":9,"tid":2,"ts":"11.000","dur":1},
            {"ph":"X","name":"Notify Wait","pid":9,"tid":2,"ts":"13.000","dur":1},
            {"ph":"X","name":"KERNEL_AICORE","pid":9,"tid":2,"ts":"15.000","dur":1}
        )"));
        const auto p = load(path);
        QVERIFY(p);
        const ProfileStats s = p->stats();
        QCOMPARE(s.deviceTasks, uint64_t(8));
        QCOMPARE(s.namedKernels, uint64_t(3)); // MatMulV2, trans_TransData_0, aclnnAdd_AddAiCore_Add
        std::map<std::string, EventKind> kinds;
        for (const Lane& lane : p->lanes)
            for (size_t i = 0; i < lane.size(); ++i)
                kinds[std::string(p->strings.view(lane.nameId[i]))] = lane.kind[i];
        QCOMPARE(kinds.at("MatMulV2"), EventKind::Kernel);
        QCOMPARE(kinds.at("aclnnAdd_AddAiCore_Add"), EventKind::Kernel);
        QCOMPARE(kinds.at("EVENT_RECORD"), EventKind::EventRecord);
        QCOMPARE(kinds.at("EVENT_WAIT"), EventKind::EventWait);
        QCOMPARE(kinds.at("MEMCPY_ASYNC"), EventKind::Memcpy);
        QCOMPARE(kinds.at("Notify Wait"), EventKind::Other);
        QCOMPARE(kinds.at("KERNEL_AICORE"), EventKind::Other);

        // The real 6-event fragment: its one device task has no "Task Type" and a kernel's name.
        DSPARK_REQUIRE_REAL_DATA();
        const auto fragment = load(test::realData(QStringLiteral("negative/tiny_fragment_trace_view.json")));
        QVERIFY(fragment);
        QCOMPARE(fragment->stats().deviceTasks, uint64_t(1));
        QCOMPARE(fragment->stats().namedKernels, uint64_t(1)); // aclnnGroupedMatmulV4_GroupedMatmul_GroupedMatmul
    }

    // `info` counts of the real profiler files, each copied under a name that says nothing; expected
    // figures from SQL (TASK, TASK JOIN COMPUTE_TASK_INFO) and from the JSON (Ascend Hardware "X" events,
    // those with a compute Task Type or an untyped kernel name).
    void infoCountsOfTheRealFilesUnderOtherNames_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<qulonglong>("deviceTasks");
        QTest::addColumn<qulonglong>("kernels");
        QTest::addColumn<qulonglong>("commOps");
        QTest::newRow("torch_npu db rank 0")
            << "ascend/torch_npu_db_rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db" << 552ull
            << 187ull << 4ull;
        QTest::newRow("torch_npu db rank 1")
            << "ascend/torch_npu_db_rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_1.db" << 552ull
            << 187ull << 4ull;
        QTest::newRow("msprof db") << "ascend/msprof_edited_db/msprof_0.db" << 24ull << 11ull << 0ull;
        QTest::newRow("trace_view") << "ascend/torch_npu_text_rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json"
                                    << 535ull << 187ull << 4ull;
        QTest::newRow("tiny_fragment") << "negative/tiny_fragment_trace_view.json" << 1ull << 1ull << 0ull;
    }
    void infoCountsOfTheRealFilesUnderOtherNames()
    {
        DSPARK_REQUIRE_REAL_DATA();
        QFETCH(QString, file);
        QFETCH(qulonglong, deviceTasks);
        QFETCH(qulonglong, kernels);
        QFETCH(qulonglong, commOps);
        QTemporaryDir dir;
        const QString copy = dir.filePath(QStringLiteral("data"));
        QVERIFY(QFile::copy(test::realData(file), copy));
        for (const QString& opened : {copy, dir.path()}) {
            const test::CliResult r = test::runCli({QStringLiteral("info"), opened, QStringLiteral("--json")});
            QVERIFY2(r.exitCode == 0, r.err.constData());
            const nlohmann::json doc = r.json();
            QCOMPARE(doc["device_tasks"].get<qulonglong>(), deviceTasks);
            QCOMPARE(doc["named_kernels"].get<qulonglong>(), kernels);
            QCOMPARE(doc["comm_ops"].get<qulonglong>(), commOps);
        }
    }

    // Each real Kineto trace copied under names that say nothing (or the wrong thing): same model.
    void kinetoTracesLoadWhateverTheirNames()
    {
        DSPARK_REQUIRE_REAL_DATA();
        for (const QString& trace : kinetoTraces()) {
            const auto original = load(trace);
            QVERIFY2(original, qPrintable(trace));
            const Digest expected = digestOf(*original);
            QVERIFY(expected.stats.deviceTasks > 0);
            const QByteArray gz = readAll(trace);
            const QByteArray plain = QByteArray::fromStdString(inflated(trace));
            QTemporaryDir dir;
            const QString folder = mkdir(dir, QStringLiteral("collected/run"));
            const std::pair<QString, QByteArray> copies[] = {
                {dir.filePath(QStringLiteral("rank-0.json.gz")), gz}, {dir.filePath(QStringLiteral("a.json")), plain},
                {dir.filePath(QStringLiteral("trace")), gz},          {dir.filePath(QStringLiteral("x.JSON.GZ")), gz},
                {folder + QStringLiteral("/control.json.gz"), gz},
            };
            for (const auto& [path, bytes] : copies)
                writeBytes(path, bytes);
            // Unrelated files beside the one in a folder: text, JSON, CSV, an SQLite file.
            writeBytes(folder + QStringLiteral("/README.md"), "# my run\n");
            writeBytes(folder + QStringLiteral("/config.json"), R"({"model": "llama", "tp": 8})");
            writeBytes(folder + QStringLiteral("/losses.csv"), "step,loss\n1,0.5\n");
            QVERIFY(test::execSql(folder + QStringLiteral("/cache.db"), QStringLiteral("CREATE TABLE kv(k, v);")));
            for (const auto& [path, bytes] : copies) {
                const QString opened = path.startsWith(folder) ? dir.filePath(QStringLiteral("collected")) : path;
                QString error;
                const auto p = load(opened, &error);
                QVERIFY2(p, qPrintable(opened + QStringLiteral(": ") + error));
                QVERIFY2(digestOf(*p) == expected, qPrintable(opened));
            }
            // The folder lists every file: the trace loaded, the others not, each saying why.
            const auto p = load(dir.filePath(QStringLiteral("collected")));
            QCOMPARE(p->files.size(), size_t(5));
            QVERIFY(fileNamed(*p, QStringLiteral("control.json.gz"))->loaded);
            QCOMPARE(fileNamed(*p, QStringLiteral("control.json.gz"))->format, std::string("kineto_json"));
            for (const char* other : {"README.md", "config.json", "losses.csv", "cache.db"}) {
                const SourceFile* f = fileNamed(*p, QString::fromLatin1(other));
                QVERIFY2(f && !f->loaded && std::string(f->status()) == "not_loaded", other);
                QVERIFY2(!f->note.empty(), other);
            }
            QVERIFY(
                fileNamed(*p, QStringLiteral("cache.db"))->note.find("an SQLite database, but not profiler output") !=
                std::string::npos);
            QVERIFY(fileNamed(*p, QStringLiteral("config.json"))->note.find("JSON, but not profiler output") !=
                    std::string::npos);
        }
    }

    // The same trace as .json and .json.gz in one folder: loaded once, the other listed as its duplicate.
    void theSameTraceInTwoFormsLoadsOnce()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const QString trace = test::realData(QStringLiteral("kineto/a100_event_sync_multi_stream.pt.trace.json.gz"));
        const auto single = load(trace);
        QVERIFY(single);
        QTemporaryDir dir;
        writeBytes(dir.filePath(QStringLiteral("trace.json")), QByteArray::fromStdString(inflated(trace)));
        writeBytes(dir.filePath(QStringLiteral("trace.pt.trace.json.gz")), readAll(trace));
        // A different trace of the same size class stays: another real file.
        const auto p = load(dir.path());
        QVERIFY(p);
        QVERIFY2(digestOf(*p) == digestOf(*single), "every event once");
        const SourceFile* plain = fileNamed(*p, QStringLiteral("trace.json"));
        const SourceFile* gz = fileNamed(*p, QStringLiteral("trace.pt.trace.json.gz"));
        QVERIFY(plain && gz);
        QVERIFY(plain->loaded);
        QVERIFY(!gz->loaded);
        QCOMPARE(std::string(gz->status()), std::string("duplicate"));
        QCOMPARE(gz->duplicateOf, plain->path);
        QVERIFY(anyWarning(*p, QStringLiteral("the same trace as")));

        // Two different traces of one rank are both loaded.
        QTemporaryDir two;
        writeBytes(two.filePath(QStringLiteral("a.json.gz")), readAll(trace));
        writeBytes(two.filePath(QStringLiteral("b.json.gz")),
                   readAll(test::realData(QStringLiteral("kineto/a100_simple_add.pt.trace.json.gz"))));
        const auto both = load(two.path());
        QVERIFY(both);
        QVERIFY(fileNamed(*both, QStringLiteral("a.json.gz"))->loaded);
        QVERIFY(fileNamed(*both, QStringLiteral("b.json.gz"))->loaded);
    }

    // Two traces alike in size and in their first and last KB but not inside are two traces: both load.
    void tracesAlikeAtBothEndsAreNotDuplicates()
    {
        const auto event = [](const char* name, int ts) -> QByteArray { // not a QStringBuilder of temporaries
            // Plain literals: moc (Qt 6.4) loses its way in a raw string ending in a quote.
            return "{\"ph\":\"X\",\"name\":\"" + QByteArray(name) +
                   "\",\"pid\":1,\"tid\":1,\"ts\":" + QByteArray::number(ts) + ",\"dur\":1},\n";
        };
        const auto trace = [&](const char* middle) -> QByteArray {
            QByteArray json = "[\n";
            int ts = 0;
            for (int i = 0; i < 40; ++i) // ~2.4 KB before and after the middle event
                json += event("same_op", ts += 10);
            json += event(middle, ts += 10);
            for (int i = 0; i < 40; ++i)
                json += event("same_op", ts += 10);
            json.chop(2); // the last ",\n"
            return json + "\n]\n";
        };
        const QByteArray a = trace("kernel_a"), b = trace("kernel_b");
        QCOMPARE(a.size(), b.size());
        QCOMPARE(a.left(2048), b.left(2048));
        QCOMPARE(a.right(2048), b.right(2048));
        QTemporaryDir dir;
        writeBytes(dir.filePath(QStringLiteral("one.json")), a);
        writeBytes(dir.filePath(QStringLiteral("two.json")), b);
        const auto p = load(dir.path());
        QVERIFY(p);
        QVERIFY(fileNamed(*p, QStringLiteral("one.json"))->loaded);
        QVERIFY(fileNamed(*p, QStringLiteral("two.json"))->loaded);
        QVERIFY(!anyWarning(*p, QStringLiteral("the same trace as")));
        // A byte-for-byte copy is still one trace.
        QTemporaryDir copies;
        writeBytes(copies.filePath(QStringLiteral("one.json")), a);
        writeBytes(copies.filePath(QStringLiteral("copy.json")), a);
        const auto q = load(copies.path());
        QVERIFY(q);
        QCOMPARE(int(fileNamed(*q, QStringLiteral("one.json"))->loaded) +
                     int(fileNamed(*q, QStringLiteral("copy.json"))->loaded),
                 1);
    }

    // A torch_npu database renamed as people do when they collect ranks, alone and beside step records.
    void aRenamedDatabaseInAFolderLoads()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const auto original = load(test::torchDbFixture());
        QVERIFY(original);
        QTemporaryDir dir;
        const QString alone = mkdir(dir, QStringLiteral("alone"));
        QVERIFY(QFile::copy(test::torchDbFixture(), alone + QStringLiteral("/rank0_ascend_pytorch_profiler_0.db")));
        const QString noSuffix = mkdir(dir, QStringLiteral("nosuffix"));
        QVERIFY(QFile::copy(test::torchDbFixture(), noSuffix + QStringLiteral("/profile")));
        for (const QString& folder : {alone, noSuffix}) {
            QString error;
            const auto p = load(folder, &error);
            QVERIFY2(p, qPrintable(error));
            QCOMPARE(p->stats().deviceTasks, uint64_t(552));
            QVERIFY2(digestOf(*p) == digestOf(*original), qPrintable(folder));
            QCOMPARE(p->files.size(), size_t(1));
            QCOMPARE(p->files[0].format, std::string("torch_npu_db"));
        }
        // With a server_info.json beside it, both load.
        const test::WrittenDemo demo = test::writeTestDemo();
        QVERIFY2(demo.result.error.isEmpty(), qPrintable(demo.result.error));
        QVERIFY(
            QFile::copy(demo.path(QStringLiteral("server_info.json")), alone + QStringLiteral("/server_info.json")));
        const auto p = load(alone);
        QVERIFY(p);
        QCOMPARE(p->stats().deviceTasks, uint64_t(552));
        QVERIFY(p->stepRecords && !p->stepRecords->empty());
        QVERIFY(fileNamed(*p, QStringLiteral("rank0_ascend_pytorch_profiler_0.db"))->loaded);
        QVERIFY(fileNamed(*p, QStringLiteral("server_info.json"))->loaded);
    }

    // Companions of a torch_npu run are recognised by content and listed, not loaded.
    void companionsAreListedNotLoaded()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const auto db = load(test::realData(QStringLiteral("ascend/torch_npu_db_rank0_ascend_pt")));
        QVERIFY(db);
        const SourceFile* analysis = fileNamed(*db, QStringLiteral("analysis.db"));
        QVERIFY(analysis && !analysis->loaded);
        QCOMPARE(analysis->format, std::string("analysis_db"));
        QVERIFY(fileNamed(*db, QStringLiteral("ascend_pytorch_profiler_0.db"))->loaded);
        QVERIFY(fileNamed(*db, QStringLiteral("profiler_info_0.json"))->loaded);
        const auto text = load(test::realData(QStringLiteral("ascend/torch_npu_text_rank0_ascend_pt")));
        QVERIFY(text);
        for (const char* csv : {"kernel_details.csv", "step_trace_time.csv"}) {
            const SourceFile* f = fileNamed(*text, QString::fromLatin1(csv));
            QVERIFY2(f && !f->loaded, csv);
            QCOMPARE(f->format, std::string("profiler_csv"));
        }
        QCOMPARE(fileNamed(*text, QStringLiteral("profiler_metadata.json"))->format,
                 std::string("profiler_metadata_json"));
        QVERIFY(fileNamed(*text, QStringLiteral("trace_view.json"))->loaded);
        const auto comm = load(test::realData(QStringLiteral("ascend/communication")));
        QVERIFY(!comm); // a summary only: nothing to show
    }

    // The scan stops ten folder levels down and says so.
    void theScanStopsAtItsDepthAndSaysSo()
    {
        QTemporaryDir dir;
        const char* trace = R"([{"ph":"X","name":"a","pid":1,"tid":1,"ts":"1.000","dur":1}])";
        writeBytes(dir.filePath(QStringLiteral("top.json")), trace);
        QString deep = dir.path();
        for (int i = 0; i < 12; ++i)
            deep += QStringLiteral("/d%1").arg(i);
        QDir().mkpath(deep);
        writeBytes(deep + QStringLiteral("/deep.json"), trace);
        const auto p = load(dir.path());
        QVERIFY(p);
        QCOMPARE(p->files.size(), size_t(1));
        QVERIFY(p->scan.stoppedAtDepth);
        QCOMPARE(p->scan.maxDepth, 10);
        QVERIFY(anyWarning(*p, QStringLiteral("folders deeper than 10 levels were not scanned")));
    }

    // The scan looks at 10,000 files at most and says so, also when nothing it saw is profiler output;
    // exactly 10,000 files are all looked at. Folders nine levels down are scanned, ten are not.
    void theScanStopsAtItsCountAndSaysSo()
    {
        QTemporaryDir dir;
        const QString many = mkdir(dir, QStringLiteral("many"));
        mkdir(dir, QStringLiteral("many/a"));
        mkdir(dir, QStringLiteral("many/b"));
        for (int i = 0; i < 10000; ++i)
            writeBytes(many + QStringLiteral("/%1/n%2.txt").arg(i % 2 ? "b" : "a").arg(i), "x");
        const ScanResult full = scanProfilePath(many.toStdString());
        QCOMPARE(full.examined, size_t(10000));
        QCOMPARE(full.files.size(), size_t(10000));
        QVERIFY(!full.stoppedAtCount);
        QVERIFY(!full.error.contains(QStringLiteral("the scan stopped")));

        writeBytes(many + QStringLiteral("/a/one-more.txt"), "x");
        const ScanResult cut = scanProfilePath(many.toStdString());
        QCOMPARE(cut.examined, size_t(10000));
        QCOMPARE(cut.files.size(), size_t(10000));
        QVERIFY(cut.stoppedAtCount);
        QVERIFY2(cut.error.contains(QStringLiteral("no profiler output found")), qPrintable(cut.error));
        QVERIFY2(cut.error.contains(QStringLiteral("the scan stopped after 10000 files")), qPrintable(cut.error));

        // Depth: a trace nine folders down is found, one ten folders down is not (and the error says so).
        const char* trace = R"([{"ph":"X","name":"a","pid":1,"tid":1,"ts":"1.000","dur":1}])";
        QString nine = mkdir(dir, QStringLiteral("deep"));
        for (int i = 0; i < 9; ++i)
            nine += QStringLiteral("/d%1").arg(i);
        QDir().mkpath(nine);
        writeBytes(nine + QStringLiteral("/nine.json"), trace);
        const auto found = load(dir.filePath(QStringLiteral("deep")));
        QVERIFY(found);
        QCOMPARE(found->files.size(), size_t(1));
        QVERIFY(!found->scan.stoppedAtDepth);
        QDir().mkpath(nine + QStringLiteral("/d9"));
        QVERIFY(QFile::rename(nine + QStringLiteral("/nine.json"), nine + QStringLiteral("/d9/ten.json")));
        QString error;
        QVERIFY(!load(dir.filePath(QStringLiteral("deep")), &error));
        QVERIFY2(error.contains(QStringLiteral("folders deeper than 10 levels were not scanned")), qPrintable(error));
    }

    // The demo's records beside the real torch_npu database (another run): refused, said on stderr and in
    // the JSON; the demo's own records still align.
    void recordsOfAnotherRunAreRefusedByTheCli()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const test::WrittenDemo demo = test::writeTestDemo();
        QVERIFY2(demo.result.error.isEmpty(), qPrintable(demo.result.error));
        QTemporaryDir dir;
        QVERIFY(QFile::copy(test::torchDbFixture(), dir.filePath(QStringLiteral("ascend_pytorch_profiler_0.db"))));
        QVERIFY(QFile::copy(demo.path(QStringLiteral("server_info.json")),
                            dir.filePath(QStringLiteral("server_info.json"))));

        const test::CliResult steps = test::runCli({QStringLiteral("steps"), dir.path(), QStringLiteral("--json")});
        QCOMPARE(steps.exitCode, 0);
        const nlohmann::json doc = steps.json();
        QVERIFY(doc["alignment"]["aligned"] == false);
        QVERIFY(doc["alignment"]["agreement"].is_number());
        QVERIFY(doc["alignment"]["agreement"].get<double>() < 0.5);
        QCOMPARE(doc["alignment"]["agreement_threshold"].get<double>(), 0.5);
        for (const auto& step : doc["steps"]) {
            QCOMPARE(step["alignment"].get<std::string>(), std::string("not_matched"));
            QVERIFY(step["window_start_ns"].is_null());
        }
        QVERIFY2(steps.err.contains("do not match this profile"), steps.err.constData());

        const test::CliResult analyze = test::runCli({QStringLiteral("analyze"), dir.path(), QStringLiteral("--json")});
        QCOMPARE(analyze.exitCode, 0);
        const nlohmann::json a = analyze.json();
        QVERIFY(a["step_records"]["aligned"] == false);
        QVERIFY(a["steps"].empty()); // no per-step analysis or critical path for them
        QVERIFY2(analyze.err.contains("do not match this profile"), analyze.err.constData());
        const test::CliResult text = test::runCli({QStringLiteral("analyze"), dir.path()});
        QVERIFY(!text.out.contains("critical path"));

        const test::CliResult own = test::runCli({QStringLiteral("steps"), demo.dir, QStringLiteral("--json")});
        QCOMPARE(own.exitCode, 0);
        QVERIFY(own.json()["alignment"]["aligned"] == true);
        QCOMPARE(own.json()["alignment"]["agreement"].get<double>(), 1.0);
        QVERIFY(!own.err.contains("do not match"));
        const test::CliResult ownAnalysis =
            test::runCli({QStringLiteral("analyze"), demo.dir, QStringLiteral("--json")});
        QVERIFY(ownAnalysis.json()["step_records"]["aligned"] == true);
        QVERIFY(!ownAnalysis.json()["steps"].empty());
    }
};

QTEST_GUILESS_MAIN(TestRecognition)
#include "tst_recognition.moc"
