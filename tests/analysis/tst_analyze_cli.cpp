// `dspark-timeline analyze PATH [--json] [--rules FILE]`, run as the real executable: the JSON contract
// of issue 7 (keys and types), the overlap of a real profile without step records, and bad input.
#include "../demo/DemoTestSupport.h"
#include "TestSupport.h"

#include <QTemporaryDir>
#include <QTest>

#include <set>

using namespace dspark::test;

namespace {

std::set<std::string> keysOf(const nlohmann::json& object)
{
    std::set<std::string> keys;
    for (auto it = object.begin(); it != object.end(); ++it)
        keys.insert(it.key());
    return keys;
}

bool isPair(const nlohmann::json& v)
{
    return v.is_array() && v.size() == 2 && v[0].is_number_integer() && v[1].is_number_integer() &&
           v[0].get<int64_t>() <= v[1].get<int64_t>();
}

} // namespace

class TestAnalyzeCli : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void overlapOfARealProfileWithoutRecords()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const CliResult r =
            runCli({"analyze", realData(QStringLiteral("ascend/torch_npu_db_rank0_ascend_pt")), "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const nlohmann::json doc = r.json();
        QCOMPARE(keysOf(doc), (std::set<std::string>{"steps", "overlap", "profiler_steps"}));
        QVERIFY(doc["steps"].empty());
        // Without DSpark records, the profile's own step: ProfilerStep#50 (PYTORCH_API, 151 888 750 ns).
        QCOMPARE(doc["profiler_steps"]["source"].get<std::string>(), std::string("profiler_step"));
        QCOMPARE(doc["profiler_steps"]["steps"][0]["wall_ns"].get<int64_t>(), int64_t(151888750));
        QCOMPARE(doc["overlap"].size(), size_t(1));
        const auto& o = doc["overlap"][0];
        QCOMPARE(keysOf(o), (std::set<std::string>{"rank", "rank_label", "device", "computing_ns", "communication_ns",
                                                   "communication_not_overlapped_ns", "free_ns"}));
        QCOMPARE(o["rank_label"].get<std::string>(), std::string("rank 0"));
        // analysis.db StepTraceTime of the same run: 8903.431 / 98071.947 / 25258.144 µs.
        QCOMPARE(o["computing_ns"].get<int64_t>(), int64_t(8903431));
        QCOMPARE(o["communication_not_overlapped_ns"].get<int64_t>(), int64_t(98071947));
        QCOMPARE(o["free_ns"].get<int64_t>(), int64_t(25258144));

        const CliResult text = runCli({"analyze", realData(QStringLiteral("ascend/torch_npu_db_rank0_ascend_pt"))});
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.contains("computing 8.903"));
        QVERIFY(text.out.contains("No aligned DSpark step records"));
        QVERIFY(text.out.contains("No DSpark step records: the steps are ProfilerStep#N spans."));
    }

    void theDemoFollowsTheContract()
    {
        const WrittenDemo demo = writeTestDemo(24, 7, 1, false);
        QVERIFY2(demo.result.error.isEmpty(), qPrintable(demo.result.error));
        const CliResult r = runCli({"analyze", demo.dir, "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const nlohmann::json doc = r.json();
        QCOMPARE(doc["steps"].size(), size_t(23));
        for (const auto& s : doc["steps"]) {
            QCOMPARE(keysOf(s), (std::set<std::string>{"rank", "forward_ct", "window_ns", "bands", "comm",
                                                       "comm_total_ns", "comm_exposed_ns", "pre_replay_gap_ns",
                                                       "critical_path_ns", "anomaly", "anomaly_causes"}));
            QVERIFY(s["forward_ct"].is_number_integer());
            QVERIFY(isPair(s["window_ns"]));
            QCOMPARE(keysOf(s["bands"]),
                     (std::set<std::string>{"draft", "verify", "accept", "commit", "planner_gap_ns", "host_gap_ns"}));
            for (const char* band : {"draft", "verify", "accept", "commit"})
                QVERIFY(isPair(s["bands"][band]));
            QCOMPARE(keysOf(s["critical_path_ns"]),
                     (std::set<std::string>{"draft", "verify_compute", "exposed_comm", "accept_tp_sync", "commit",
                                            "host_gap", "idle"}));
            int64_t sum = 0;
            for (const auto& [k, v] : s["critical_path_ns"].items())
                sum += v.get<int64_t>();
            QCOMPARE(sum, s["window_ns"][1].get<int64_t>() - s["window_ns"][0].get<int64_t>());
            QVERIFY(!s["comm"].empty());
            int64_t total = 0;
            for (const auto& c : s["comm"]) {
                QCOMPARE(keysOf(c), (std::set<std::string>{"name", "stream", "issue_ns", "inflight_ns", "wait_ns",
                                                           "wait_stream", "exposed_ns", "hidden_ns", "inferred"}));
                QVERIFY(c["name"].is_string() && c["stream"].is_number_integer() && c["inferred"].is_boolean());
                QVERIFY(isPair(c["inflight_ns"]));
                QVERIFY(c["wait_ns"].is_null() || isPair(c["wait_ns"]));
                QVERIFY(c["wait_stream"].is_null() || c["wait_stream"].is_number_integer());
                total += c["inflight_ns"][1].get<int64_t>() - c["inflight_ns"][0].get<int64_t>();
            }
            QCOMPARE(s["comm_total_ns"].get<int64_t>(), total);
        }
        QCOMPARE(doc["overlap"].size(), size_t(1));
    }

    void badInputIsOneLine()
    {
        const CliResult usage = runCli({"analyze"});
        QCOMPARE(usage.exitCode, 2);
        QVERIFY(usage.err.startsWith("dspark-timeline: usage: dspark-timeline analyze PATH"));

        QTemporaryDir dir;
        const QString missing = dir.filePath(QStringLiteral("nothing-here"));
        const CliResult none = runCli({"analyze", missing, "--json"});
        QCOMPARE(none.exitCode, 1);
        QVERIFY(none.out.isEmpty());
        QVERIFY(none.err.contains(missing.toUtf8()));
        QCOMPARE(none.err.count('\n'), 1);

        const QString rules = dir.filePath(QStringLiteral("rules.json"));
        QFile f(rules);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"verify_span\": \"step\"}");
        f.close();
        const CliResult bad = runCli({"analyze", missing, "--rules", rules});
        QCOMPARE(bad.exitCode, 1);
        QCOMPARE(QString::fromUtf8(bad.err).trimmed(),
                 QStringLiteral("dspark-timeline: %1: rule \"verify_span\" must be a list of regular expressions")
                     .arg(rules));
    }
};

QTEST_GUILESS_MAIN(TestAnalyzeCli)
#include "tst_analyze_cli.moc"
