// `dspark-timeline compare` as a user runs it: the real torch_npu database against itself (every delta
// zero, every interval containing zero, every kernel matched), two different real Kineto traces (runs
// cleanly and says what cannot be compared), the demo pair in every output format, bad arguments.

#include "TestSupport.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace dspark::test;
using json = nlohmann::json;

namespace {

bool containsZero(const json& ci)
{
    return ci.is_array() && ci[0].get<double>() <= 0.0 && ci[1].get<double>() >= 0.0;
}

} // namespace

class TestCompareCli : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;

private Q_SLOTS:
    // The same database twice, under two other names: a comparison of a run with itself.
    void realDatabaseAgainstItself()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const QString db = realData(
            QStringLiteral("ascend/torch_npu_db_rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db"));
        const QString a = m_tmp.filePath(QStringLiteral("left.db")), b = m_tmp.filePath(QStringLiteral("right.db"));
        QVERIFY(QFile::copy(db, a) && QFile::copy(db, b));
        const CliResult r = runCli({QStringLiteral("compare"), a, b, QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const json j = r.json();
        QVERIFY(j["schema"] == "dspark-compare/1");
        QVERIFY(j["config"]["warning"].is_null());
        QCOMPARE(j["config"]["differing_groups"].get<int>(), 0);
        // No step records: said plainly, and the comparison is of the device tasks.
        QVERIFY(!j["not_comparable"].empty());
        QVERIFY(j["classes"].empty());
        const json& cats = j["device_tasks"]["categories"];
        QVERIFY(cats.size() >= 2);
        size_t groups = 0;
        for (const json* list : {&cats, &j["device_tasks"]["names"]})
            for (const json& g : *list) {
                QCOMPARE(g["delta"].get<double>(), 0.0);
                QVERIFY2(containsZero(g["ci"]), g["name"].get<std::string>().c_str());
                QVERIFY(g["baseline"]["n"] == g["changed"]["n"]);
                QVERIFY(g["baseline_total_ms"] == g["changed_total_ms"]);
                ++groups;
            }
        QVERIFY(groups > 10);
        // The profiles aligned whole: every task matched with itself.
        QCOMPARE(j["kernels"].size(), size_t(1));
        const json& k = j["kernels"][0];
        QVERIFY(k["pair"].is_null());
        QCOMPARE(k["matched_delta_ns"].get<int64_t>(), int64_t(0));
        QVERIFY(k["only_baseline"].empty() && k["only_changed"].empty());
        QVERIFY(k["top_regressions"].empty());
        size_t matched = 0;
        for (const json& s : k["streams"]) {
            QVERIFY(s["baseline_stream"] == s["changed_stream"]);
            matched += s["matched"].get<size_t>();
        }
        QCOMPARE(matched, size_t(552)); // TASK has 552 rows (SOURCES.md)
        // The readable report and the table exports run too.
        const CliResult text = runCli({QStringLiteral("compare"), a, b});
        QVERIFY2(text.exitCode == 0, text.err.constData());
        QVERIFY(text.out.contains("Not comparable"));
    }

    void twoRealKinetoTraces()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const CliResult r =
            runCli({QStringLiteral("compare"), realData(QStringLiteral("kineto/a100_simple_add.pt.trace.json.gz")),
                    realData(QStringLiteral("kineto/a100_event_sync_multi_stream.pt.trace.json.gz")),
                    QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const json j = r.json();
        QVERIFY(j.is_object());
        QVERIFY(j["baseline"]["platform"] == "gpu");
        QVERIFY(j["changed"]["platform"] == "gpu");
        QVERIFY(!j["not_comparable"].empty());
        QVERIFY(!j["device_tasks"]["categories"].empty());
        bool compute = false;
        for (const json& g : j["device_tasks"]["categories"])
            compute = compute || g["name"] == "compute";
        QVERIFY(compute);
        QCOMPARE(j["kernels"].size(), size_t(1));
        const CliResult text =
            runCli({QStringLiteral("compare"), realData(QStringLiteral("kineto/a100_simple_add.pt.trace.json.gz")),
                    realData(QStringLiteral("kineto/a100_event_sync_multi_stream.pt.trace.json.gz"))});
        QCOMPARE(text.exitCode, 0);
    }

    // An Ascend database against a Kineto GPU trace: compared by task category, and said plainly.
    void npuAgainstGpu()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const CliResult r =
            runCli({QStringLiteral("compare"),
                    realData(QStringLiteral(
                        "ascend/torch_npu_db_rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db")),
                    realData(QStringLiteral("kineto/a100_simple_add.pt.trace.json.gz")), QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const json j = r.json();
        QVERIFY(j["baseline"]["platform"] == "npu" && j["changed"]["platform"] == "gpu");
        QVERIFY(j["config"]["groups"]["device"] == "different");
        bool said = false;
        for (const json& line : j["not_comparable"])
            said = said || line.get<std::string>().find("different platforms (NPU, GPU)") != std::string::npos;
        QVERIFY(said);
        QVERIFY(!j["device_tasks"]["categories"].empty());
    }

    // demo --compare, then compare in each format; --class picks one class.
    void demoPairInEveryFormat()
    {
        const QString out = m_tmp.filePath(QStringLiteral("pair"));
        const CliResult d = runCli({QStringLiteral("demo"), out, QStringLiteral("--compare")});
        QVERIFY2(d.exitCode == 0, d.err.constData());
        const QString a = out + QStringLiteral("/baseline"), b = out + QStringLiteral("/changed");
        const CliResult j = runCli({QStringLiteral("compare"), a, b, QStringLiteral("--json")});
        QVERIFY2(j.exitCode == 0, j.err.constData());
        const json doc = j.json();
        QCOMPARE(doc["config"]["differing_groups"].get<int>(), 2);
        QCOMPARE(doc["pairs"].size(), size_t(1));
        QVERIFY(doc["pairs"][0]["class"] == "compact:8:?");
        QVERIFY(doc["whole"]["quantities"]["mean_commit_len"]["significant"].get<bool>());
        QVERIFY(doc["whole"]["quantities"]["mean_commit_len"]["delta"].get<double>() > 0);
        bool treeMask = false;
        for (const json& t : doc["kernels"][0]["only_changed"])
            treeMask = treeMask || t["name"] == "DsparkTreeMask";
        QVERIFY(treeMask);
        QCOMPARE(doc["kernels"][0]["only_baseline"].size(), size_t(1));
        QVERIFY(doc["kernels"][0]["only_baseline"][0]["name"] == "ArgMaxWithValue");

        const CliResult csv = runCli({QStringLiteral("compare"), a, b, QStringLiteral("--csv")});
        QCOMPARE(csv.exitCode, 0);
        const QList<QByteArray> lines = csv.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 2); // header + the one pair
        QVERIFY(lines[0].startsWith("class,baseline_dp_rank,baseline_forward_ct"));
        QVERIFY(lines[0].contains(",delta_effective_tpot_ms"));
        QCOMPARE(lines[0].count(','), lines[1].count(','));
        const CliResult md = runCli({QStringLiteral("compare"), a, b, QStringLiteral("--md")});
        QCOMPARE(md.exitCode, 0);
        QVERIFY(md.out.startsWith("| class |"));
        const CliResult text = runCli({QStringLiteral("compare"), a, b});
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.contains("Not a controlled experiment"));
        QVERIFY(text.out.contains("DsparkTreeMask"));

        const CliResult one = runCli({QStringLiteral("compare"), a, b, QStringLiteral("--class"),
                                      QStringLiteral("compact:8:?"), QStringLiteral("--json")});
        QCOMPARE(one.exitCode, 0);
        QCOMPARE(one.json()["classes"].size(), size_t(1));
        const CliResult none = runCli({QStringLiteral("compare"), a, b, QStringLiteral("--class"),
                                       QStringLiteral("compact:99:?"), QStringLiteral("--json")});
        QCOMPARE(none.exitCode, 0);
        QVERIFY(none.json()["classes"].empty());
    }

    void badArguments()
    {
        QCOMPARE(runCli({QStringLiteral("compare"), QStringLiteral("only-one")}).exitCode, 2);
        const CliResult cls = runCli({QStringLiteral("compare"), QStringLiteral("a"), QStringLiteral("b"),
                                      QStringLiteral("--class"), QStringLiteral("8:16")});
        QCOMPARE(cls.exitCode, 2);
        QVERIFY(cls.err.contains("--class 8:16"));
        const CliResult missing = runCli({QStringLiteral("compare"), m_tmp.filePath(QStringLiteral("nothing-here")),
                                          m_tmp.filePath(QStringLiteral("nor-here"))});
        QCOMPARE(missing.exitCode, 1);
        QVERIFY(missing.err.contains("nothing-here") || missing.err.contains("nor-here"));
        QCOMPARE(missing.err.count('\n'), 1); // one line
    }
};

QTEST_GUILESS_MAIN(TestCompareCli)
#include "tst_compare_cli.moc"
