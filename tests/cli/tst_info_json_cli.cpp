// `dspark-timeline info --json` on every Chrome-trace JSON fixture: the lane kinds contract, and the
// totals (events, counters, resolved flows, device tasks) counted independently with python3 json/gzip.
#include "TestSupport.h"

#include <QTest>

#include <set>

using namespace dspark;

namespace {

const std::set<std::string> kLaneKinds{"host", "npu_stream", "gpu_stream", "comm", "overlap", "counter"};

std::set<std::string> kindsOf(const nlohmann::json& doc)
{
    std::set<std::string> kinds;
    for (const auto& lane : doc["lanes"])
        kinds.insert(lane["kind"].get<std::string>());
    return kinds;
}

} // namespace

class TestInfoJsonCli : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyJsonFixtureReportsItsContent_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<qulonglong>("events");
        QTest::addColumn<qulonglong>("counters");
        QTest::addColumn<qulonglong>("flows");
        QTest::addColumn<qulonglong>("deviceTasks");
        QTest::addColumn<qulonglong>("kernels");
        QTest::addColumn<qulonglong>("lanes");
        QTest::addColumn<QString>("kinds"); // the lane kinds present, sorted, comma-separated
        // events = X + i/I slices + C samples; flows = "f" whose (cat, id) has an "s" (both on slices).
        QTest::newRow("trace_view.json")
            << "ascend/torch_npu_text_rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json" << 8815ull << 4431ull
            << 611ull << 535ull << 187ull << 50ull << "comm,counter,host,npu_stream,overlap";
        QTest::newRow("a100_2rank_nccl") << "kineto/a100_2rank_nccl_rank0.pt.trace.json.gz" << 26935ull << 0ull
                                         << 4317ull << 3804ull << 2679ull << 8ull << "gpu_stream,host";
        QTest::newRow("a100_event_sync") << "kineto/a100_event_sync_multi_stream.pt.trace.json.gz" << 59ull << 0ull
                                         << 8ull << 11ull << 3ull << 8ull << "gpu_stream,host";
        QTest::newRow("a100_simple_add") << "kineto/a100_simple_add.pt.trace.json.gz" << 840ull << 0ull << 139ull
                                         << 139ull << 79ull << 7ull << "gpu_stream,host";
        QTest::newRow("b200_eager") << "kineto/b200_eager_rank0.trace.json.gz" << 22355ull << 0ull << 929ull << 932ull
                                    << 767ull << 3ull << "gpu_stream,host";
        QTest::newRow("mi300x_decode") << "kineto/mi300x_sglang_qwen3_decode.trace.json.gz" << 1471ull << 0ull << 14ull
                                       << 558ull << 555ull << 3ull << "gpu_stream,host";
        QTest::newRow("uint64_overflow") << "negative/uint64_overflow.pt.trace.json.gz" << 2ull << 0ull << 0ull << 1ull
                                         << 0ull << 2ull << "gpu_stream,host";
        // Its one Ascend Hardware task has no "Task Type" but a kernel's name: a named kernel.
        QTest::newRow("tiny_fragment") << "negative/tiny_fragment_trace_view.json" << 4ull << 0ull << 0ull << 1ull
                                       << 1ull << 4ull << "host,npu_stream";
    }

    void everyJsonFixtureReportsItsContent()
    {
        DSPARK_REQUIRE_REAL_DATA();
        QFETCH(QString, file);
        QFETCH(qulonglong, events);
        QFETCH(qulonglong, counters);
        QFETCH(qulonglong, flows);
        QFETCH(qulonglong, deviceTasks);
        QFETCH(qulonglong, kernels);
        QFETCH(qulonglong, lanes);
        QFETCH(QString, kinds);
        const test::CliResult r =
            test::runCli({QStringLiteral("info"), test::realData(file), QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const nlohmann::json doc = r.json();
        QVERIFY(doc.is_object());
        QCOMPARE(doc["events"].get<qulonglong>(), events);
        QCOMPARE(doc["counters"].get<qulonglong>(), counters);
        QCOMPARE(doc["flows"].get<qulonglong>(), flows);
        QCOMPARE(doc["device_tasks"].get<qulonglong>(), deviceTasks);
        QCOMPARE(doc["named_kernels"].get<qulonglong>(), kernels);
        QCOMPARE(doc["lanes"].size(), size_t(lanes));
        qulonglong perLane = 0;
        for (const auto& lane : doc["lanes"]) {
            QVERIFY(kLaneKinds.count(lane["kind"].get<std::string>()));
            perLane += lane["events"].get<qulonglong>();
        }
        QCOMPARE(perLane, events);
        QString got;
        for (const std::string& k : kindsOf(doc))
            got += (got.isEmpty() ? "" : ",") + QString::fromStdString(k);
        QCOMPARE(got, kinds);
        QCOMPARE(doc["files"].size(), size_t(1));
        QVERIFY(doc["files"][0]["loaded"].get<bool>());
        QVERIFY(doc["start_ns"].get<int64_t>() > 0);
        QVERIFY(doc["end_ns"].get<int64_t>() >= doc["start_ns"].get<int64_t>());
    }

    void laneDetailsOfTheAscendTrace()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const test::CliResult r = test::runCli({QStringLiteral("info"),
                                                test::realData(QStringLiteral("ascend/torch_npu_text_rank0_ascend_pt")),
                                                QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const nlohmann::json doc = r.json();
        bool sawStream2 = false, sawPlane3 = false;
        for (const auto& lane : doc["lanes"]) {
            if (lane["process"] == "Ascend Hardware" && lane["name"] == "Stream 2") {
                sawStream2 = true;
                QCOMPARE(lane["kind"].get<std::string>(), std::string("npu_stream"));
                QCOMPARE(lane["stream"].get<int>(), 2);
                QCOMPARE(lane["device"].get<int>(), 0);
                QCOMPARE(lane["events"].get<int>(), 219);
            }
            if (lane["process"] == "HCCL" && lane["name"] == "Plane 3") {
                sawPlane3 = true;
                QCOMPARE(lane["kind"].get<std::string>(), std::string("comm"));
                QCOMPARE(lane["stream"].get<int>(), 3);
            }
        }
        QVERIFY(sawStream2 && sawPlane3);
        QCOMPARE(doc["host_to_device_links"].get<int>(), 215);
        QCOMPARE(doc["comm_ops"].get<int>(), 4);
        QCOMPARE(doc["comm_tasks"].get<int>(), 296);
        QCOMPARE(doc["host_events"].get<int>(), 3167);
        // The folder's trace_view.json is the loaded timeline; profiler_metadata.json is metadata.
        bool traceLoaded = false;
        for (const auto& f : doc["files"])
            if (f["format"] == "trace_view_json")
                traceLoaded = f["loaded"].get<bool>();
        QVERIFY(traceLoaded);
    }

    void metadataOnlyTraceFailsCleanly()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const test::CliResult r = test::runCli(
            {QStringLiteral("info"), test::realData(QStringLiteral("negative/metadata_only_trace_view.json")),
             QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("no timed events"), r.err.constData());
        QCOMPARE(r.err.count('\n'), 1); // one line
    }
};

QTEST_GUILESS_MAIN(TestInfoJsonCli)
#include "tst_info_json_cli.moc"
