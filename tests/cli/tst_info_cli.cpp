// `dspark-timeline info [--json]` on the real database fixtures and on bad input: the JSON document
// is a contract (files, ranks, lanes, totals, warnings); failures are one stderr line and exit 1.
#include "TestSupport.h"

#include "DbTestSupport.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <map>
#include <set>

using namespace dspark::test;
using nlohmann::json;

namespace {

// Sum of `events` over the lanes of one kind (and process, when given).
uint64_t laneSum(const json& doc, const std::string& kind, const std::string& process = {})
{
    uint64_t n = 0;
    for (const json& l : doc["lanes"])
        if (l["kind"] == kind && (process.empty() || l["process"] == process))
            n += l["events"].get<uint64_t>();
    return n;
}

const json* lane(const json& doc, const std::string& process, const std::string& name)
{
    for (const json& l : doc["lanes"])
        if (l["process"] == process && l["name"] == name)
            return &l;
    return nullptr;
}

} // namespace

class TestInfoCli : public QObject {
    Q_OBJECT

    // The JSON of a successful run, with its schema checked.
    json infoJson(const QString& path)
    {
        const CliResult r = runCli({QStringLiteral("info"), path, QStringLiteral("--json")});
        [&] {
            QCOMPARE(r.exitCode, 0);
            QVERIFY2(r.err.isEmpty(), r.err.constData());
        }();
        const json doc = r.json();
        [&] { checkSchema(doc); }();
        return doc;
    }

    static void checkSchema(const json& doc)
    {
        QVERIFY(doc.is_object());
        QVERIFY(doc["path"].is_string());
        QVERIFY(doc["files"].is_array() && !doc["files"].empty());
        for (const json& f : doc["files"]) {
            QVERIFY(f["path"].is_string());
            QVERIFY(f["format"].is_string());
            QVERIFY(f["loaded"].is_boolean());
        }
        QVERIFY(doc["ranks"].is_array() && !doc["ranks"].empty());
        for (const json& r : doc["ranks"]) {
            QVERIFY(r["rank"].is_number_integer());
            QVERIFY(r["device"].is_number_integer());
            QVERIFY(r["label"].is_string());
        }
        QVERIFY(doc["lanes"].is_array() && !doc["lanes"].empty());
        const std::set<std::string> kinds = {"host", "npu_stream", "gpu_stream", "comm", "overlap", "counter"};
        uint64_t events = 0;
        for (const json& l : doc["lanes"]) {
            QVERIFY(l["rank"].is_number_integer());
            QVERIFY(l["process"].is_string());
            QVERIFY(l["name"].is_string());
            QVERIFY(kinds.count(l["kind"].get<std::string>()));
            QVERIFY(l["events"].is_number_unsigned());
            events += l["events"].get<uint64_t>();
        }
        for (const char* key :
             {"events", "device_tasks", "named_kernels", "comm_ops", "host_events", "flows", "counters"})
            QVERIFY2(doc[key].is_number_unsigned(), key);
        QVERIFY(doc["warnings"].is_array());
        QCOMPARE(doc["events"].get<uint64_t>(), events);
        QCOMPARE(doc["device_tasks"].get<uint64_t>(),
                 laneSum(doc, "npu_stream") + laneSum(doc, "gpu_stream")); // totals agree with the lanes
        QCOMPARE(doc["host_events"].get<uint64_t>(), laneSum(doc, "host"));
        QCOMPARE(doc["counters"].get<uint64_t>(), laneSum(doc, "counter"));
    }

    // Exit 1, nothing on stdout, one line on stderr naming `path` and saying `what`.
    static void expectFailure(const QStringList& args, const QString& path, const QString& what, int code = 1)
    {
        const CliResult r = runCli(args);
        QCOMPARE(r.exitCode, code);
        QVERIFY(r.out.isEmpty());
        const QList<QByteArray> lines = r.err.trimmed().split('\n');
        QCOMPARE(lines.size(), 1);
        const QString line = QString::fromUtf8(lines[0]);
        QVERIFY2(line.startsWith(QStringLiteral("dspark-timeline: ")), qPrintable(line));
        QVERIFY2(line.contains(path), qPrintable(line));
        QVERIFY2(line.contains(what), qPrintable(line));
    }

private Q_SLOTS:
    void torchDbFolder()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const QString folder = realData(QStringLiteral("ascend/torch_npu_db_rank0_ascend_pt"));
        const json doc = infoJson(folder);
        QCOMPARE(doc["device_tasks"].get<uint64_t>(), uint64_t(552));
        QCOMPARE(doc["named_kernels"].get<uint64_t>(), uint64_t(187));
        QCOMPARE(doc["comm_ops"].get<uint64_t>(), uint64_t(4));
        QCOMPARE(doc["comm_tasks"].get<uint64_t>(), uint64_t(296));
        QCOMPARE(doc["host_events"].get<uint64_t>(), uint64_t(3171)); // CANN 710 + PyTorch 2460 + 1 step
        QCOMPARE(laneSum(doc, "host", "CANN"), uint64_t(710));
        QCOMPARE(laneSum(doc, "host", "Python"), uint64_t(2460));
        QCOMPARE(doc["flows"].get<uint64_t>(), uint64_t(1236));
        QVERIFY(doc["host_to_device_links"].get<uint64_t>() >= 550);
        QCOMPARE(doc["host_to_device_links"].get<uint64_t>(), uint64_t(550));
        QCOMPARE(doc["counters"].get<uint64_t>(), uint64_t(5969));
        QCOMPARE(doc["warnings"].size(), size_t(0));
        QCOMPARE(doc["ranks"].size(), size_t(1));
        QCOMPARE(doc["ranks"][0]["rank"].get<int>(), 0);
        QCOMPARE(doc["ranks"][0]["device"].get<int>(), 0);
        // AICORE_FREQ has a sample at the session start and end (SESSION_TIME_INFO): the profile's range.
        QCOMPARE(doc["start_ns"].get<int64_t>(), int64_t(1736410576284680000));
        QCOMPARE(doc["end_ns"].get<int64_t>(), int64_t(1736410576677568000));
        // Files: the database and profiler_info_0.json loaded; analysis.db (summaries, not a timeline)
        // recognised and listed, not loaded.
        std::map<std::string, bool> files;
        for (const json& f : doc["files"])
            files[f["format"].get<std::string>()] = f["loaded"].get<bool>();
        QCOMPARE(files, (std::map<std::string, bool>{
                            {"analysis_db", false}, {"profiler_info_json", true}, {"torch_npu_db", true}}));
        int streams = 0;
        for (const json& l : doc["lanes"])
            if (l["kind"] == "npu_stream") {
                ++streams;
                QCOMPARE(l["process"].get<std::string>(), std::string("Ascend Hardware"));
                QCOMPARE(l["device"].get<int>(), 0);
            }
        QCOMPARE(streams, 4);
        QVERIFY(lane(doc, "Ascend Hardware", "Stream 4"));
        QCOMPARE((*lane(doc, "Ascend Hardware", "Stream 4"))["events"].get<uint64_t>(), uint64_t(312));
        QCOMPARE((*lane(doc, "Ascend Hardware", "Stream 4"))["stream"].get<int>(), 4);
        QCOMPARE((*lane(doc, "HCCL", "Group 0 Communication"))["kind"].get<std::string>(), std::string("comm"));
        QCOMPARE((*lane(doc, "Steps", "STEP_TIME"))["events"].get<uint64_t>(), uint64_t(1));
    }

    void torchDbFileAlone()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const json doc = infoJson(torchDbFixture());
        QCOMPARE(doc["files"].size(), size_t(1));
        QCOMPARE(doc["files"][0]["format"].get<std::string>(), std::string("torch_npu_db"));
        QCOMPARE(doc["device_tasks"].get<uint64_t>(), uint64_t(552));
        QCOMPARE(doc["flows"].get<uint64_t>(), uint64_t(1236));
        QCOMPARE(doc["ranks"][0]["rank"].get<int>(), 0); // from the file name ascend_pytorch_profiler_0.db
    }

    void editedMsprofDb()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const json doc = infoJson(realData(QStringLiteral("ascend/msprof_edited_db")));
        QCOMPARE(doc["files"][0]["format"].get<std::string>(), std::string("msprof_db"));
        QCOMPARE(doc["device_tasks"].get<uint64_t>(), uint64_t(24));
        QCOMPARE(doc["named_kernels"].get<uint64_t>(), uint64_t(11));
        QCOMPARE(doc["comm_ops"].get<uint64_t>(), uint64_t(0));
        QCOMPARE(doc["comm_tasks"].get<uint64_t>(), uint64_t(8));
        QCOMPARE(doc["host_events"].get<uint64_t>(), uint64_t(4 + 13)); // CANN_API 4 + MSTX_EVENTS 13
        QCOMPARE(doc["flows"].get<uint64_t>(), uint64_t(1));
        QCOMPARE(doc["counters"].get<uint64_t>(), uint64_t(22));
        QCOMPARE(laneSum(doc, "overlap"), uint64_t(22));
        QCOMPARE(doc["ranks"][0]["device"].get<int>(), 2);
        QCOMPARE(doc["warnings"].size(), size_t(1));
        QVERIFY(doc["warnings"][0].get<std::string>().find("opId 895") != std::string::npos);
    }

    void textOutputListsTheSameTotals()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const CliResult r = runCli({QStringLiteral("info"), realData(QStringLiteral("ascend/msprof_edited_db"))});
        QCOMPARE(r.exitCode, 0);
        const QString out = QString::fromUtf8(r.out);
        const auto has = [&](const char* pattern) {
            return QRegularExpression(QString::fromUtf8(pattern), QRegularExpression::MultilineOption)
                .match(out)
                .hasMatch();
        };
        // Readable words in aligned columns; the identifiers stay in --json.
        QVERIFY2(has("^  \\+  msprof database  .*msprof_0\\.db$"), qPrintable(out));
        QVERIFY2(has("^  Rank  Kind +Lane +Events$"), qPrintable(out));
        QVERIFY2(has("^ +0  NPU stream +Ascend Hardware / Stream 16 +14$"), qPrintable(out));
        QVERIFY2(has("^  Device tasks +24$"), qPrintable(out));
        QVERIFY2(has("^  Kernels with a name +11$"), qPrintable(out));
        QVERIFY2(has("^warning: "), qPrintable(out));
        QVERIFY2(!out.contains(QStringLiteral("npu_stream")) && !out.contains(QStringLiteral("msprof_db")) &&
                     !out.contains(QStringLiteral("device_tasks")),
                 qPrintable(out));
        // Every lane row ends in the same column.
        int laneRows = 0, endColumn = -1;
        bool aligned = true;
        for (const QString& line : out.split(QLatin1Char('\n')))
            if (QRegularExpression(QStringLiteral("^ +0  ")).match(line).hasMatch()) {
                ++laneRows;
                aligned = aligned && (endColumn < 0 || endColumn == int(line.size()));
                endColumn = int(line.size());
            }
        QCOMPARE(laneRows, 16);
        QVERIFY(aligned);
    }

    void textOutputIsTranslated()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const CliResult r =
            runCli({QStringLiteral("info"), realData(QStringLiteral("ascend/msprof_edited_db"))}, 120000, {},
                   {QStringLiteral("LC_ALL=zh_CN.UTF-8"), QStringLiteral("LANGUAGE=zh_CN")});
        QCOMPARE(r.exitCode, 0);
        const QString out = QString::fromUtf8(r.out);
        QVERIFY2(out.contains(QStringLiteral("msprof 数据库")), qPrintable(out));
        QVERIFY2(QRegularExpression(QStringLiteral("^  设备任务 +24$"), QRegularExpression::MultilineOption)
                     .match(out)
                     .hasMatch(),
                 qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("警告：")), qPrintable(out));
    }

    void negativeFixtureFails()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const QString fixture = realData(QStringLiteral("negative/empty_schema_ascend_pytorch_profiler.db"));
        expectFailure({QStringLiteral("info"), QStringLiteral("--json"), fixture}, fixture,
                      QStringLiteral("no profiler tables"));
        expectFailure({QStringLiteral("info"), fixture}, fixture, QStringLiteral("no profiler tables"));
    }

    void badPathsFail()
    {
        QTemporaryDir dir;
        const QString missing = dir.filePath(QStringLiteral("missing_ascend_pt"));
        expectFailure({QStringLiteral("info"), QStringLiteral("--json"), missing}, missing,
                      QStringLiteral("no such file or folder"));
        expectFailure({QStringLiteral("info"), QStringLiteral("--json"), dir.path()}, dir.path(),
                      QStringLiteral("no profiler output found"));
        const QString junk = dir.filePath(QStringLiteral("ascend_pytorch_profiler_3.db"));
        QFile f(junk);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("this is not a database, just text\n");
        f.close();
        expectFailure({QStringLiteral("info"), QStringLiteral("--json"), junk}, junk,
                      QStringLiteral("not an SQLite database"));
        // The same junk in a folder: still the loader's message, naming the file.
        expectFailure({QStringLiteral("info"), QStringLiteral("--json"), dir.path()}, junk,
                      QStringLiteral("not an SQLite database"));
    }

    void usageErrorsExitWithTwo()
    {
        expectFailure({QStringLiteral("info")}, QStringLiteral("usage: dspark-timeline info PATH"),
                      QStringLiteral("[--json]"), 2);
    }
};

QTEST_GUILESS_MAIN(TestInfoCli)
#include "tst_info_cli.moc"
