// `dspark-timeline steps`: the JSON contract scripts rely on, CSV, the human table, and clear errors.
#include "StepTestFiles.h"
#include "TestSupport.h"

#include <QTemporaryDir>

#include <set>

using namespace dspark::test;

namespace {

// Two DP ranks; rank 0 has a full record and one with omitted / null values.
const char* kServerInfo = R"({"internal_states": [
  {"dspark_info_record": {"mode": "static", "gamma": 3, "verify_num_draft_tokens": 4, "components": ["core"],
   "records": [
    {"forward_ct": 41, "bs": 3, "mode": "static", "num_verify_tokens": 12, "verify_tokens_local": 12,
     "verify_tokens_dp_synced": 16, "verify_tokens_graph_key": 16, "step_cpu_ms": 24.0, "step_gpu_ms": 20.5,
     "draft_gpu_ms": 6.25, "target_verify_gpu_ms": 10.125,
     "reqs": [{"req_pool_index": 0, "prefix_len": 1, "verify_len": 4, "acc_len": 3, "correct_drafts": 2, "cap_trim": 0, "bonus_token": 1, "draft_tokens": [1,2,3]},
              {"req_pool_index": 1, "prefix_len": 1, "verify_len": 4, "acc_len": 1, "correct_drafts": 0, "cap_trim": 0, "bonus_token": 1, "draft_tokens": [1,2,3]},
              {"req_pool_index": 2, "prefix_len": 1, "verify_len": 4, "acc_len": 4, "correct_drafts": 3, "cap_trim": 0, "bonus_token": 1, "draft_tokens": [1,2,3]}]},
    {"forward_ct": 43, "bs": 3, "step_gpu_ms": 19.0, "draft_gpu_ms": null}]}},
  {"dspark_info_record": {"mode": "static", "records": [{"forward_ct": 41, "bs": 2, "step_gpu_ms": 18.0}]}}
]})";

} // namespace

class TestStepsCli : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void jsonIsTheContract()
    {
        QTemporaryDir dir;
        writeFile(dir.filePath("server_info.json"), kServerInfo);
        const CliResult r = runCli({"steps", dir.path(), "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const nlohmann::json doc = r.json();
        QVERIFY(doc.is_object());
        const auto& steps = doc["steps"];
        QCOMPARE(steps.size(), size_t(3));
        for (const auto& s : steps) {
            std::set<std::string> keys;
            for (auto it = s.begin(); it != s.end(); ++it)
                keys.insert(it.key());
            for (const std::string& k : stepsJsonContract())
                QVERIFY2(keys.count(k), k.c_str());
            // No trace: no window keys. Only documented extras.
            QVERIFY(!keys.count("window_start_ns"));
            keys.erase("in_stable_window");
            QCOMPARE(keys.size(), stepsJsonContract().size());
            QVERIFY(s["anomaly"].is_null());
        }
        QVERIFY(!doc.contains("alignment"));
        const auto& s41 = steps[0];
        QCOMPARE(s41["rank"].get<int>(), 0);
        QCOMPARE(s41["forward_ct"].get<int>(), 41);
        QVERIFY(s41["bs"].is_number_integer());
        QCOMPARE(s41["bs"].get<int>(), 3);
        QCOMPARE(s41["mode"].get<std::string>(), std::string("static"));
        QCOMPARE(s41["verify_tokens_dp_synced"].get<int>(), 16);
        QCOMPARE(s41["step_cpu_ms"].get<double>(), 24.0);
        QCOMPARE(s41["unattributed_ms"].get<double>(), 4.125);
        QCOMPARE(s41["mean_commit_len"].get<double>(), 8.0 / 3.0);
        QVERIFY(s41["total_commit_len"].is_number_integer());
        QCOMPARE(s41["total_commit_len"].get<int>(), 8);
        QCOMPARE(s41["mean_correct_drafts"].get<double>(), 5.0 / 3.0);
        QCOMPARE(s41["acceptance_rate"].get<double>(), 5.0 / 9.0);
        QCOMPARE(s41["effective_tpot_ms"].get<double>(), 7.6875);
        QCOMPARE(s41["effective_tpot_cpu_ms"].get<double>(), 9.0);
        const auto& s43 = steps[1];
        QCOMPARE(s43["forward_ct"].get<int>(), 43);
        for (const char* k :
             {"mode", "num_verify_tokens", "step_cpu_ms", "draft_gpu_ms", "target_verify_gpu_ms", "unattributed_ms",
              "mean_commit_len", "total_commit_len", "acceptance_rate", "effective_tpot_ms", "effective_tpot_cpu_ms"})
            QVERIFY2(s43[k].is_null(), k);
        QCOMPARE(steps[2]["rank"].get<int>(), 1);
        QCOMPARE(doc["ranks"][0]["gamma"].get<int>(), 3);
        QCOMPARE(doc["ranks"][1]["records"].get<int>(), 1);
        QVERIFY(doc["warnings"].empty());
    }

    void rankFilterCsvAndTable()
    {
        QTemporaryDir dir;
        writeFile(dir.filePath("server_info.json"), kServerInfo);
        CliResult r = runCli({"steps", dir.path(), "--json", "--rank", "1"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.json()["steps"].size(), size_t(1));
        QCOMPARE(r.json()["steps"][0]["step_gpu_ms"].get<double>(), 18.0);

        r = runCli({"steps", dir.filePath("server_info.json"), "--csv"});
        QCOMPARE(r.exitCode, 0);
        const QList<QByteArray> lines = r.out.split('\n');
        QCOMPARE(lines[0], QByteArray("rank,forward_ct,bs,mode,num_verify_tokens,verify_tokens_local,"
                                      "verify_tokens_dp_synced,verify_tokens_graph_key,step_cpu_ms,step_gpu_ms,"
                                      "draft_gpu_ms,target_verify_gpu_ms,unattributed_ms,mean_commit_len,"
                                      "total_commit_len,mean_correct_drafts,acceptance_rate,effective_tpot_ms,"
                                      "effective_tpot_cpu_ms,anomaly,in_stable_window"));
        QCOMPARE(lines[1], QByteArray("0,41,3,static,12,12,16,16,24,20.5,6.25,10.125,4.125,2.6666666666666665,8,"
                                      "1.6666666666666667,0.5555555555555556,7.6875,9,,false"));
        QCOMPARE(lines[2], QByteArray("0,43,3,,,,,,,19,,,,,,,,,,,false"));

        r = runCli({"steps", dir.path()});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("Step GPU (ms)") && r.out.contains("Unattributed (ms)"), r.out.constData());
        QVERIFY2(r.out.contains("3 steps, 0 anomalous"), r.out.constData());
        QVERIFY(r.out.contains("4.125"));
    }

    void badInputGivesOneClearLine()
    {
        QTemporaryDir dir;
        writeFile(dir.filePath("server_info.json"), kServerInfo);
        CliResult r = runCli({"steps", dir.path(), "--rank", "7"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("no step records for rank 7 (ranks: 0, 1)"), r.err.constData());
        r = runCli({"steps", dir.path(), "--json", "--csv"});
        QCOMPARE(r.exitCode, 2);
        r = runCli({"steps"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("usage: dspark-timeline steps PATH"));
        r = runCli({"steps", dir.path(), "--rank", "x"});
        QCOMPARE(r.exitCode, 2);

        QTemporaryDir empty;
        r = runCli({"steps", empty.path()});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(empty.path().toUtf8()), r.err.constData());

        const QString broken = empty.filePath("steps.jsonl");
        writeFile(broken, "{\"forward_ct\": 1, \"bs\": 2}\n{not json\n{\"forward_ct\": 2}\n");
        r = runCli({"steps", broken, "--json"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.json()["steps"].size(), size_t(2));
        QCOMPARE(r.json()["warnings"][0].get<std::string>(),
                 broken.toStdString() + ": line 2: not valid JSON; line skipped");
        QVERIFY(r.err.isEmpty());
    }

    void anomalyThresholdIsAnOption()
    {
        QTemporaryDir dir;
        QByteArray lines;
        for (int i = 0; i < 8; ++i)
            lines += QStringLiteral(R"({"forward_ct": %1, "bs": 4, "num_verify_tokens": 16, "step_gpu_ms": %2})")
                         .arg(i)
                         .arg(i == 3 ? 12.0 : 10.0 + 0.01 * i)
                         .toUtf8() +
                     "\n";
        writeFile(dir.filePath("a.jsonl"), lines);
        CliResult r = runCli({"steps", dir.filePath("a.jsonl"), "--json"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.json()["steps"][3]["anomaly"].is_string());
        QVERIFY(r.json()["steps"][2]["anomaly"].is_null());
        r = runCli({"steps", dir.filePath("a.jsonl"), "--json", "--anomaly-threshold", "1000"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.json()["steps"][3]["anomaly"].is_null());
        QCOMPARE(r.json()["anomaly_options"]["robust_z"].get<double>(), 1000.0);
    }
};

QTEST_GUILESS_MAIN(TestStepsCli)
#include "tst_stepscli.moc"
