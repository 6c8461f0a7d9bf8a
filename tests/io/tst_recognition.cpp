// Files are recognised by what they hold, not by their names, and times keep their true unit: the
// real Kineto traces copied under other names and rewritten with "displayTimeUnit": "ns" load with the
// same counts and durations; expected durations are read from the JSON by the test itself.
#include "io/ProfileLoader.h"
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
        d.lanes[std::to_string(lane.info.rank) + "/" + lane.info.process + "/" + lane.info.name] = {
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

            // Rewritten with "ns": declared before the events and (replacing Kineto's own key) after them.
            std::string rewritten = text;
            const size_t key = rewritten.find("\"displayTimeUnit\"");
            if (key != std::string::npos) {
                const size_t value = rewritten.find('"', rewritten.find(':', key));
                const size_t valueEnd = rewritten.find('"', value + 1);
                rewritten.replace(value, valueEnd - value + 1, "\"ns\"");
            } else {
                rewritten.insert(rewritten.find('{') + 1, "\"displayTimeUnit\": \"ns\", ");
            }
            QVERIFY(rewritten.find("\"displayTimeUnit\": \"ns\"") != std::string::npos);
            QTemporaryDir dir;
            const QString copy = dir.filePath(QStringLiteral("ns.pt.trace.json.gz"));
            writeBytes(copy, QByteArray::fromStdString(test::gzipped(rewritten)));
            const auto ns = load(copy);
            QVERIFY2(ns, qPrintable(trace));
            QCOMPARE(longestDuration(*ns, name), trueDur);
            QVERIFY2(digestOf(*ns) == digestOf(*original), qPrintable(trace));
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
    }

    // "Kernels with a name": a compute task named only by its task type (KERNEL_AICORE, as loaders name
    // a task without a kernel name) has no name.
    void namedKernelsMeanKernelNames()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("old_trace_view.json"));
        writeBytes(path, R"([
            {"ph":"M","name":"process_name","pid":9,"args":{"name":"Ascend Hardware"}},
            {"ph":"M","name":"thread_name","pid":9,"tid":2,"args":{"name":"Stream 2"}},
            {"ph":"X","name":"MatMulV2","pid":9,"tid":2,"ts":"1.000","dur":1,"args":{"Task Type":"AI_CORE"}},
            {"ph":"X","name":"EVENT_RECORD","pid":9,"tid":2,"ts":"5.000","dur":1,"args":{"Task Type":"EVENT_RECORD"}},
            {"ph":"X","name":"aclnnAdd_AddAiCore_Add","pid":9,"tid":2,"ts":"9.000","dur":1,"args":{"Task Type":"AI_CORE"}},
            {"ph":"X","name":"KERNEL_AICORE","pid":9,"tid":2,"ts":"11.000","dur":1,"args":{"Task Type":"AI_CORE"}}
        ])");
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
