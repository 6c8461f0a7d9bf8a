// The demo simulator's own files, read back without the viewer's loaders: the database holds exactly
// what ground_truth.json counts, the record GPU times are the event-to-event times in the database,
// the ground truth is self-consistent, the injected situations show, and the same seed gives the
// same bytes.
#include "DemoTestSupport.h"
#include "TestSupport.h"

#include <QTest>

#include <sqlite3.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>

using namespace dspark;
using namespace dspark::test;
using nlohmann::json;

namespace {

// A read-only, immutable SQLite connection (never writes next to the file).
class ReadDb {
public:
    explicit ReadDb(const QString& path)
    {
        const QByteArray uri = "file:" + path.toUtf8() + "?immutable=1";
        if (sqlite3_open_v2(uri.constData(), &m_db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr) != SQLITE_OK) {
            sqlite3_close(m_db);
            m_db = nullptr;
        }
    }
    ~ReadDb() { sqlite3_close(m_db); }
    bool ok() const { return m_db != nullptr; }
    // Every row of a query, each value as text (NULL → "<null>").
    std::vector<std::vector<std::string>> rows(const std::string& sql) const
    {
        std::vector<std::vector<std::string>> out;
        sqlite3_stmt* s = nullptr;
        if (sqlite3_prepare_v2(m_db, sql.c_str(), -1, &s, nullptr) != SQLITE_OK)
            return out;
        while (sqlite3_step(s) == SQLITE_ROW) {
            std::vector<std::string> row;
            for (int c = 0; c < sqlite3_column_count(s); ++c) {
                const auto* t = reinterpret_cast<const char*>(sqlite3_column_text(s, c));
                row.emplace_back(t ? t : "<null>");
            }
            out.push_back(std::move(row));
        }
        sqlite3_finalize(s);
        return out;
    }
    int64_t count(const std::string& sql) const
    {
        const auto r = rows(sql);
        return r.empty() ? -1 : std::stoll(r[0][0]);
    }

private:
    sqlite3* m_db = nullptr;
};

double round4(double ms)
{
    return std::round(ms * 1e4) / 1e4;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

} // namespace

class TestDemoWriter : public QObject {
    Q_OBJECT
    WrittenDemo m_demo;

    const json& steps() const { return m_demo.truth["steps"]; }
    const json& stepAt(int index) const { return steps()[static_cast<size_t>(index)]; }

private Q_SLOTS:
    void initTestCase()
    {
        m_demo = writeTestDemo(24, 7, 1, true);
        QVERIFY2(m_demo.result.error.isEmpty(), qPrintable(m_demo.result.error));
        QVERIFY(m_demo.truth.is_object());
        QCOMPARE(steps().size(), size_t(24));
    }

    void writesTheTorchNpuFolderLayout()
    {
        const QStringList files = {m_demo.runFolder() + QStringLiteral("/profiler_info_0.json"),
                                   m_demo.runFolder() + QStringLiteral("/profiler_metadata.json"),
                                   m_demo.dbPath(),
                                   m_demo.tracePath(),
                                   m_demo.path(QStringLiteral("server_info.json")),
                                   m_demo.path(QStringLiteral("ground_truth.json"))};
        for (const QString& f : files)
            QVERIFY2(QFileInfo(f).isFile(), qPrintable(f));
        const json meta = readJsonFile(m_demo.runFolder() + "/profiler_metadata.json");
        QCOMPARE(meta["start_step"].get<int>(), 1200);
        QCOMPARE(meta["num_steps"].get<int>(), 24);
        QCOMPARE(meta["server_args"]["tp_size"].get<int>(), 16);
        QCOMPARE(meta["deepep"]["decode"].get<std::string>(), std::string("low_latency"));
        const json info = readJsonFile(m_demo.runFolder() + "/profiler_info_0.json");
        QCOMPARE(info["rank_id"].get<int>(), 0);
        QCOMPARE(info["end_info"]["collectionTimeEnd"].get<int64_t>(),
                 m_demo.truth["run"]["session_end_ns"].get<int64_t>());
    }

    void sameSeedGivesTheSameBytesAndAnotherSeedDiffers()
    {
        // 14 iterations cover a prefill and every kind of decode step; byte-compare every file.
        const WrittenDemo first = writeTestDemo(14, 7, 1, true);
        const WrittenDemo again = writeTestDemo(14, 7, 1, true);
        const WrittenDemo other = writeTestDemo(14, 8, 1, false);
        for (const WrittenDemo* d : {&first, &again, &other})
            QVERIFY2(d->result.error.isEmpty(), qPrintable(d->result.error));
        const QStringList files = {
            QStringLiteral("ground_truth.json"), QStringLiteral("server_info.json"),
            QString::fromLatin1(demo::names::RunFolder) + QStringLiteral("/profiler_info_0.json"),
            QString::fromLatin1(demo::names::RunFolder) + QStringLiteral("/profiler_metadata.json")};
        for (const QString& rel : files) {
            const QByteArray bytes = readBytes(first.path(rel));
            QVERIFY2(!bytes.isEmpty(), qPrintable(rel));
            QCOMPARE(readBytes(again.path(rel)), bytes);
            QVERIFY2(readBytes(other.path(rel)) != bytes, qPrintable(rel));
        }
        QCOMPARE(readBytes(again.dbPath()), readBytes(first.dbPath()));
        QCOMPARE(readBytes(again.tracePath()), readBytes(first.tracePath()));
        QVERIFY(readBytes(other.dbPath()) != readBytes(first.dbPath()));
        QVERIFY(!QFileInfo::exists(other.tracePath()));
    }

    void stepWindowsTileTheSessionAndCriticalPathsSumToTheWall()
    {
        const json& run = m_demo.truth["run"];
        int64_t previousEnd = -1;
        for (const json& s : steps()) {
            const int64_t start = s["window"]["start_ns"], end = s["window"]["end_ns"];
            QCOMPARE(s["window"]["wall_ns"].get<int64_t>(), end - start);
            if (previousEnd >= 0)
                QCOMPARE(start, previousEnd);
            previousEnd = end;
            int64_t sum = 0;
            for (const auto& [category, ns] : s["critical_path_ns"].items()) {
                QVERIFY2(ns.get<int64_t>() >= 0, category.c_str());
                sum += ns.get<int64_t>();
            }
            QCOMPARE(sum, end - start);
            QCOMPARE(s["critical_path_ns"].size(), size_t(8));
        }
        QCOMPARE(previousEnd, run["session_end_ns"].get<int64_t>());
        QVERIFY(run["session_start_ns"].get<int64_t>() < stepAt(0)["window"]["start_ns"].get<int64_t>());
    }

    void groundTruthStagesAgreeWithTheRecordGpuTimes()
    {
        const json server = readJsonFile(m_demo.path("server_info.json"));
        const json& records = server["internal_states"][0]["dspark_info_record"]["records"];
        std::map<int64_t, json> byCt;
        for (const json& r : records)
            byCt[r["forward_ct"].get<int64_t>()] = r;
        int decodes = 0;
        for (const json& s : steps()) {
            const int64_t ct = s["forward_ct"];
            if (s["mode"] == "EXTEND") {
                QVERIFY(!byCt.count(ct));
                continue;
            }
            ++decodes;
            QVERIFY(byCt.count(ct));
            const json& r = byCt[ct];
            const json& ev = s["events"];
            auto ms = [&](const char* seg) {
                return round4((ev[seg]["end_ns"].get<int64_t>() - ev[seg]["start_ns"].get<int64_t>()) / 1e6);
            };
            QCOMPARE(r["step_gpu_ms"].get<double>(), ms("STEP"));
            QCOMPARE(r["draft_gpu_ms"].get<double>(), ms("DRAFT"));
            QCOMPARE(r["target_verify_gpu_ms"].get<double>(), ms("TARGET_VERIFY"));
            QCOMPARE(s["gpu_ms"]["step"].get<double>(), ms("STEP"));
            // The stages sit inside the STEP segment in their order.
            const json& st = s["stages"];
            QCOMPARE(st["draft"]["start_ns"].get<int64_t>(), ev["DRAFT"]["start_ns"].get<int64_t>());
            QCOMPARE(st["verify"]["end_ns"].get<int64_t>(), ev["TARGET_VERIFY"]["end_ns"].get<int64_t>());
            QVERIFY(ev["STEP"]["start_ns"].get<int64_t>() < ev["DRAFT"]["start_ns"].get<int64_t>());
            QVERIFY(st["draft"]["end_ns"].get<int64_t>() <= st["planner"]["end_ns"].get<int64_t>());
            QVERIFY(st["planner"]["end_ns"].get<int64_t>() <= st["verify"]["start_ns"].get<int64_t>());
            QVERIFY(st["pre_replay"]["end_ns"].get<int64_t>() == st["replay"]["start_ns"].get<int64_t>());
            QVERIFY(st["replay"]["end_ns"].get<int64_t>() <= st["verify"]["end_ns"].get<int64_t>());
            QVERIFY(st["verify"]["end_ns"].get<int64_t>() < st["tp_sync"]["start_ns"].get<int64_t>());
            QVERIFY(st["tp_sync"]["end_ns"].get<int64_t>() <= st["accept"]["end_ns"].get<int64_t>());
            QVERIFY(st["accept"]["end_ns"].get<int64_t>() <= st["commit"]["start_ns"].get<int64_t>());
            QVERIFY(st["commit"]["end_ns"].get<int64_t>() <= ev["STEP"]["end_ns"].get<int64_t>());
            QVERIFY(st["host_tail"]["end_ns"].get<int64_t>() == s["window"]["end_ns"].get<int64_t>());
            // Accept/commit lie outside both segments: unattributed time covers them.
            const double outside =
                (st["commit"]["end_ns"].get<int64_t>() - ev["TARGET_VERIFY"]["end_ns"].get<int64_t>()) / 1e6;
            QVERIFY(s["unattributed_ms"].get<double>() > outside);
            // Mean commit length and TPOT from the record's requests.
            int commit = 0;
            for (const json& q : r["reqs"]) {
                QCOMPARE(q["acc_len"].get<int>(), q["correct_drafts"].get<int>() + 1);
                QVERIFY(q["acc_len"].get<int>() <= q["verify_len"].get<int>());
                commit += q["acc_len"].get<int>();
            }
            QCOMPARE(s["commit_tokens"].get<int>(), commit);
            QCOMPARE(r["bs"].get<int>(), s["bs"].get<int>());
            QCOMPARE(r["verify_tokens_graph_key"].get<int>(), s["verify_tokens_graph_key"].get<int>());
        }
        QCOMPARE(decodes, 23);
    }

    void recordsSkipThePrefillAndStartWithoutCpuTime()
    {
        const json server = readJsonFile(m_demo.path("server_info.json"));
        const json& rec = server["internal_states"][0]["dspark_info_record"];
        QCOMPARE(rec["gamma"].get<int>(), 3);
        std::vector<int64_t> cts;
        for (const json& r : rec["records"])
            cts.push_back(r["forward_ct"]);
        // 4 before start_step, the 24 traced iterations minus the prefill at 1212, 2 after.
        std::vector<int64_t> expected;
        for (int64_t ct = 1196; ct <= 1225; ++ct)
            if (ct != 1212)
                expected.push_back(ct);
        QCOMPARE(cts, expected);
        QCOMPARE(m_demo.truth["run"]["records_forward_ct"].get<std::vector<int64_t>>(), expected);
        QCOMPARE(m_demo.truth["run"]["records_outside_trace"].get<std::vector<int64_t>>(),
                 (std::vector<int64_t>{1196, 1197, 1198, 1199, 1224, 1225}));
        for (const json& r : rec["records"]) {
            const int64_t ct = r["forward_ct"];
            QCOMPARE(r["step_cpu_ms"].is_null(), ct == 1196 || ct == 1213);
            if (!r["step_cpu_ms"].is_null())
                QVERIFY(r["step_cpu_ms"].get<double>() > r["step_gpu_ms"].get<double>());
        }
        QCOMPARE(rec["records"][15]["bs"].get<int>(), 8); // forward_ct 1211, before the prefill
        QCOMPARE(rec["records"][16]["bs"].get<int>(), 9); // 1213: the new request joined
    }

    void injectedSituationsShowInTheGroundTruth()
    {
        std::vector<double> normalTail, normalExposed, normalTpot, normalAcc;
        std::vector<int64_t> normalGap;
        std::set<std::string> kinds;
        for (const json& a : m_demo.truth["anomalies"])
            kinds.insert(a["kind"].get<std::string>());
        QCOMPARE(kinds, (std::set<std::string>{"tail_growth", "exposed_comm", "prefill", "pre_replay_host_gap",
                                               "long_accept_worse_tpot"}));
        QCOMPARE(m_demo.truth["anomalies"].size(), size_t(8));
        for (const json& s : steps()) {
            if (s["mode"] == "EXTEND" || !s["anomalies"].empty())
                continue;
            normalTail.push_back(s["critical_path_ns"]["accept_tp_sync"].get<double>());
            normalExposed.push_back(s["critical_path_ns"]["exposed_comm"].get<double>());
            normalGap.push_back(s["pre_replay"]["device_gap_ns"].get<int64_t>());
            normalTpot.push_back(s["effective_tpot_ms"].get<double>());
            normalAcc.push_back(s["mean_acc_len"].get<double>());
        }
        QCOMPARE(normalTail.size(), size_t(16));
        // tail_growth at 5, 6, 7: the accept/TP-sync tail on the path grows step after step.
        const double tail5 = stepAt(5)["critical_path_ns"]["accept_tp_sync"].get<double>();
        const double tail6 = stepAt(6)["critical_path_ns"]["accept_tp_sync"].get<double>();
        const double tail7 = stepAt(7)["critical_path_ns"]["accept_tp_sync"].get<double>();
        QVERIFY(tail5 > 2 * median(normalTail) && tail6 > tail5 && tail7 > tail6);
        QVERIFY(stepAt(7)["critical_path_ns"]["commit"].get<double>() >
                2 * stepAt(4)["critical_path_ns"]["commit"].get<double>());
        // exposed_comm at 9: the hooks wait much longer than usual.
        QVERIFY(stepAt(9)["critical_path_ns"]["exposed_comm"].get<double>() > 3 * median(normalExposed));
        QVERIFY(stepAt(9)["deepep"]["by_stage"]["verify"]["exposed_ns"].get<double>() >
                3 * stepAt(8)["deepep"]["by_stage"]["verify"]["exposed_ns"].get<double>());
        // prefill at 12.
        QCOMPARE(stepAt(12)["mode"].get<std::string>(), std::string("EXTEND"));
        QVERIFY(stepAt(12)["critical_path_ns"]["prefill"].get<int64_t>() > 0);
        QVERIFY(!stepAt(12)["has_record"].get<bool>());
        // pre_replay_host_gap at 15: the device idles > 3 ms right before the replay.
        QVERIFY(stepAt(15)["pre_replay"]["device_gap_ns"].get<int64_t>() > 3'000'000);
        QVERIFY(*std::max_element(normalGap.begin(), normalGap.end()) < 200'000);
        QVERIFY(stepAt(15)["critical_path_ns"]["host_gap"].get<int64_t>() >
                stepAt(14)["critical_path_ns"]["host_gap"].get<int64_t>() + 3'000'000);
        // long_accept_worse_tpot at 19, 20: longer acceptance, worse effective TPOT.
        const double meanAcc = std::accumulate(normalAcc.begin(), normalAcc.end(), 0.0) / normalAcc.size();
        const double meanTpot = std::accumulate(normalTpot.begin(), normalTpot.end(), 0.0) / normalTpot.size();
        for (int i : {19, 20}) {
            QCOMPARE(stepAt(i)["verify_tokens_graph_key"].get<int>(), 128);
            QCOMPARE(stepAt(i)["draft_passes"].get<int>(), 5);
            QVERIFY(stepAt(i)["mean_acc_len"].get<double>() > meanAcc + 0.5);
            QVERIFY(stepAt(i)["effective_tpot_ms"].get<double>() > meanTpot * 1.1);
        }
    }

    void deepEpOperationsFollowTheirDefinition()
    {
        for (const json& s : steps()) {
            const json& ops = s["deepep"]["ops"];
            QCOMPARE(ops.size(),
                     size_t(s["mode"] == "EXTEND" ? 2 * 58 + 2 : 2 * 58 + 2 * s["draft_passes"].get<int>()));
            int64_t exposed = 0, hidden = 0;
            for (const json& o : ops) {
                const int64_t issue = o["issue_ns"], a = o["inflight_start_ns"], b = o["inflight_end_ns"];
                const int64_t reached = o["wait_reached_ns"], done = o["wait_done_ns"];
                QVERIFY(issue < a && a < b);
                QVERIFY(reached <= done);
                QCOMPARE(o["exposed_ns"].get<int64_t>(), std::max<int64_t>(0, b - reached));
                QCOMPARE(o["hidden_ns"].get<int64_t>(), std::max<int64_t>(0, std::min(b, reached) - a));
                if (o["exposed_ns"].get<int64_t>() > 0)
                    QVERIFY(done > b); // a blocked hook is released after the transfer ends
                exposed += o["exposed_ns"].get<int64_t>();
                hidden += o["hidden_ns"].get<int64_t>();
            }
            QCOMPARE(s["deepep"]["exposed_ns"].get<int64_t>(), exposed);
            QCOMPARE(s["deepep"]["hidden_ns"].get<int64_t>(), hidden);
            QVERIFY(hidden > 0); // dispatches hide behind the shared experts
        }
    }

    void databaseHoldsExactlyWhatTheGroundTruthCounts()
    {
        ReadDb db(m_demo.dbPath());
        QVERIFY(db.ok());
        const json& c = m_demo.truth["counts"];
        QCOMPARE(db.count("SELECT count(*) FROM TASK"), c["tasks"].get<int64_t>());
        for (const auto& row : db.rows("SELECT streamId, count(*) FROM TASK GROUP BY streamId"))
            QCOMPARE(std::stoll(row[1]), c["tasks_by_stream"][row[0]].get<int64_t>());
        QCOMPARE(db.rows("SELECT DISTINCT streamId FROM TASK ORDER BY 1").size(), size_t(5));
        QCOMPARE(db.count("SELECT count(*) FROM COMPUTE_TASK_INFO"), c["compute_tasks"].get<int64_t>());
        for (const auto& row :
             db.rows("SELECT s.value, count(*) FROM COMPUTE_TASK_INFO c JOIN STRING_IDS s ON s.id = c.name GROUP BY 1"))
            QCOMPARE(std::stoll(row[1]), c["kernels_by_name"][row[0]].get<int64_t>());
        auto taskType = [&](const char* t) {
            return db.count(std::string("SELECT count(*) FROM TASK t JOIN STRING_IDS s ON s.id = t.taskType WHERE "
                                        "s.value = '") +
                            t + "'");
        };
        QCOMPARE(taskType("EVENT_RECORD"), c["event_records"].get<int64_t>());
        QCOMPARE(taskType("EVENT_WAIT"), c["event_waits"].get<int64_t>());
        QCOMPARE(taskType("MEMCPY_ASYNC"), c["memcpy"].get<int64_t>());
        QCOMPARE(db.count("SELECT count(*) FROM COMMUNICATION_TASK_INFO"), c["hccl_tasks"].get<int64_t>());
        QCOMPARE(db.count("SELECT count(*) FROM COMMUNICATION_OP"), c["comm_ops"].get<int64_t>());
        QCOMPARE(c["comm_ops"].get<int64_t>(), 23); // one SpecTpSync per decode iteration
        QCOMPARE(db.count("SELECT count(*) FROM CANN_API"), c["cann_api"].get<int64_t>());
        QCOMPARE(db.count("SELECT count(*) FROM PYTORCH_API"), c["pytorch_api"].get<int64_t>());
        QCOMPARE(db.count("SELECT count(*) FROM PYTORCH_API WHERE typeof(startNs) = 'text' AND typeof(endNs) = 'text'"),
                 c["pytorch_api"].get<int64_t>());
        QCOMPARE(db.count("SELECT count(*) FROM CONNECTION_IDS"), c["connection_ids"].get<int64_t>());
        QCOMPARE(db.count("SELECT count(*) FROM TASK t JOIN CANN_API a ON a.connectionId = t.connectionId"),
                 c["host_to_device_links"].get<int64_t>());
        QCOMPARE(db.count("SELECT count(*) FROM PYTORCH_API p JOIN CONNECTION_IDS i ON i.id = p.connectionId "
                          "JOIN TASK t ON t.connectionId = i.connectionId"),
                 c["op_to_device_links"].get<int64_t>());
        QCOMPARE(db.count("SELECT count(*) FROM OVERLAP_ANALYSIS"), c["overlap_rows"].get<int64_t>());
        QCOMPARE(db.count("SELECT count(*) FROM STEP_TIME"), int64_t(24));
        QCOMPARE(db.count("SELECT min(id) FROM STEP_TIME"), int64_t(1200));
        QCOMPARE(db.count("SELECT count(DISTINCT globalTaskId) FROM TASK"), c["tasks"].get<int64_t>());
        // Every compute / HCCL info row names a task; each graph replay launched thousands of tasks.
        QCOMPARE(db.count("SELECT count(*) FROM COMPUTE_TASK_INFO c JOIN TASK t USING (globalTaskId)"),
                 c["compute_tasks"].get<int64_t>());
        const auto replays = db.rows(
            "SELECT count(*) FROM TASK t JOIN CANN_API a ON a.connectionId = t.connectionId JOIN STRING_IDS s ON "
            "s.id = a.name WHERE s.value = 'aclmdlRIExecuteAsync' GROUP BY t.connectionId");
        QCOMPARE(replays.size(), size_t(23));
        for (const auto& r : replays)
            QVERIFY(std::stoll(r[0]) > 1500);
        const json& run = m_demo.truth["run"];
        QCOMPARE(db.rows("SELECT startTimeNs, endTimeNs FROM SESSION_TIME_INFO")[0],
                 (std::vector<std::string>{std::to_string(run["session_start_ns"].get<int64_t>()),
                                           std::to_string(run["session_end_ns"].get<int64_t>())}));
    }

    // The record GPU times are the elapsed times between the segment EVENT_RECORD tasks in the db.
    void recordGpuTimesAreTheEventTimesInTheDatabase()
    {
        ReadDb db(m_demo.dbPath());
        QVERIFY(db.ok());
        const auto rows = db.rows(
            "SELECT s.value, t.startNs FROM PYTORCH_API p JOIN STRING_IDS s ON s.id = p.name "
            "JOIN CONNECTION_IDS i ON i.id = p.connectionId JOIN TASK t ON t.connectionId = i.connectionId "
            "JOIN STRING_IDS tt ON tt.id = t.taskType "
            "WHERE s.value LIKE 'dspark_observability.record[%' AND tt.value = 'EVENT_RECORD' AND t.streamId = 2 "
            "ORDER BY t.startNs");
        QCOMPARE(rows.size(), size_t(23 * 6));
        const json server = readJsonFile(m_demo.path("server_info.json"));
        std::map<int64_t, json> byCt;
        for (const json& r : server["internal_states"][0]["dspark_info_record"]["records"])
            byCt[r["forward_ct"].get<int64_t>()] = r;
        size_t row = 0;
        for (const json& s : steps()) {
            if (s["mode"] == "EXTEND")
                continue;
            std::map<std::string, int64_t> t;
            for (int k = 0; k < 6; ++k, ++row) {
                const int64_t ns = std::stoll(rows[row][1]);
                QVERIFY(ns >= s["window"]["start_ns"].get<int64_t>() && ns < s["window"]["end_ns"].get<int64_t>());
                t[rows[row][0]] = ns;
            }
            auto ms = [&](const char* seg) {
                const std::string a = std::string("dspark_observability.record[") + seg + ":start]";
                const std::string b = std::string("dspark_observability.record[") + seg + ":end]";
                return round4((t.at(b) - t.at(a)) / 1e6);
            };
            const json& r = byCt[s["forward_ct"].get<int64_t>()];
            QCOMPARE(r["step_gpu_ms"].get<double>(), ms("STEP"));
            QCOMPARE(r["draft_gpu_ms"].get<double>(), ms("DRAFT"));
            QCOMPARE(r["target_verify_gpu_ms"].get<double>(), ms("TARGET_VERIFY"));
        }
    }

    void schemaMatchesTheRealTorchNpuDatabase()
    {
        DSPARK_REQUIRE_REAL_DATA();
        ReadDb real(realData(
            QStringLiteral("ascend/torch_npu_db_rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db")));
        ReadDb ours(m_demo.dbPath());
        QVERIFY(real.ok() && ours.ok());
        const auto tables = real.rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
        QVERIFY(tables.size() > 30);
        for (const auto& t : tables) {
            const std::string sql = "PRAGMA table_info(" + t[0] + ")";
            QCOMPARE(ours.rows(sql), real.rows(sql));
        }
        const std::string idx = "SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index' ORDER BY name";
        QCOMPARE(ours.rows(idx), real.rows(idx));
        QCOMPARE(ours.rows("SELECT * FROM ENUM_API_TYPE"), real.rows("SELECT * FROM ENUM_API_TYPE"));
        QCOMPARE(ours.rows("SELECT * FROM ENUM_MODULE"), real.rows("SELECT * FROM ENUM_MODULE"));
        QCOMPARE(ours.rows("SELECT value FROM META_DATA WHERE name = 'SCHEMA_VERSION'"),
                 real.rows("SELECT value FROM META_DATA WHERE name = 'SCHEMA_VERSION'"));
    }

    void traceJsonDescribesTheSameRun()
    {
        const json trace = readJsonFile(m_demo.tracePath());
        QVERIFY(trace.is_array());
        const json& c = m_demo.truth["counts"];
        QCOMPARE(static_cast<int64_t>(trace.size()), c["trace_events"].get<int64_t>());
        std::map<std::string, int64_t> processOf; // pid → name
        std::map<std::string, int64_t> byStream;
        int64_t hcclOps = 0, planeTasks = 0, python = 0, cann = 0;
        std::map<std::string, int> flowStarts, flowEnds;
        int64_t hardwarePid = -1, hcclPid = -1, pythonPid = -1, cannPid = -1;
        for (const json& e : trace)
            if (e["ph"] == "M" && e["name"] == "process_name") {
                const std::string name = e["args"]["name"];
                const int64_t pid = e["pid"];
                if (name == "Ascend Hardware")
                    hardwarePid = pid;
                else if (name == "HCCL")
                    hcclPid = pid;
                else if (name == "Python")
                    pythonPid = pid;
                else if (name == "CANN")
                    cannPid = pid;
            }
        QVERIFY(hardwarePid > (int64_t(1) << 31));
        for (const json& e : trace) {
            const std::string ph = e["ph"];
            if (ph == "X") {
                const std::string ts = e["ts"];
                QVERIFY(ts.size() > 4 && ts[ts.size() - 4] == '.');
                const int64_t pid = e["pid"];
                if (pid == hardwarePid)
                    ++byStream[std::to_string(e["tid"].get<int64_t>())];
                else if (pid == hcclPid)
                    (e["tid"] == 0 ? hcclOps : planeTasks)++;
                else if (pid == pythonPid)
                    ++python;
                else if (pid == cannPid)
                    ++cann;
            } else if (ph == "s" || ph == "f") {
                const std::string key = e["cat"].get<std::string>();
                (ph == "s" ? flowStarts : flowEnds)[key]++;
            }
        }
        for (const auto& [stream, count] : c["tasks_by_stream"].items())
            QCOMPARE(byStream[stream], count.get<int64_t>());
        QCOMPARE(hcclOps, c["comm_ops"].get<int64_t>());
        QCOMPARE(planeTasks, c["hccl_tasks"].get<int64_t>());
        QCOMPARE(python, c["pytorch_api"].get<int64_t>());
        QCOMPARE(cann, c["cann_api"].get<int64_t>());
        QCOMPARE(int64_t(flowEnds["HostToDevice"]), c["host_to_device_links"].get<int64_t>());
        QCOMPARE(int64_t(flowEnds["async_npu"]), c["op_to_device_links"].get<int64_t>());
        QCOMPARE(flowStarts["async_npu"], flowEnds["async_npu"]);
        QVERIFY(flowStarts["HostToDevice"] > 0 && flowStarts["HostToDevice"] < flowEnds["HostToDevice"]);
    }
};

QTEST_GUILESS_MAIN(TestDemoWriter)
#include "tst_demo_writer.moc"
