// DSpark step records: every shape loads, missing values stay missing, derived columns are exact,
// anomalies and the stable window are found, bad input is reported with its line.
#include "StepTestFiles.h"
#include "TestSupport.h"

#include "io/ProfileLoader.h"
#include "steps/StepRecordLoader.h"
#include "steps/StepRecords.h"
#include "steps/StepTable.h"

#include <QTemporaryDir>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>

using namespace dspark;
using dspark::test::writeFile;

namespace {

std::shared_ptr<Profile> load(const QString& path, QString* error = nullptr)
{
    LoadOutcome o = loadProfile(path.toStdString());
    if (error)
        *error = o.error;
    return o.profile;
}

const StepRecord& recordAt(const StepRecordSet& set, int rank, int64_t forwardCt, size_t* rowOut = nullptr)
{
    for (size_t i = 0; i < set.rows.size(); ++i)
        if (set.rows[i].dpRank == rank && set.record(i).forwardCt == forwardCt) {
            if (rowOut)
                *rowOut = i;
            return set.record(i);
        }
    static StepRecord none;
    return none;
}

bool warningsContain(const Profile& p, const QString& text)
{
    for (const QString& w : p.warnings)
        if (w.contains(text))
            return true;
    return false;
}

// A record with three requests, every segment time recorded.
const char* kFullRecord =
    R"({"forward_ct": 41, "bs": 3, "mode": "static", "num_running_reqs": 3, "num_verify_tokens": 12,
        "verify_tokens_local": 12, "verify_tokens_dp_synced": 16, "verify_tokens_graph_key": 16,
        "step_cpu_ms": 24.0, "step_gpu_ms": 20.5, "draft_gpu_ms": 6.25, "target_verify_gpu_ms": 10.125,
        "reqs": [
          {"req_pool_index": 0, "prefix_len": 100, "verify_len": 4, "acc_len": 3, "correct_drafts": 2,
           "cap_trim": 0, "bonus_token": 11, "draft_tokens": [1, 2, 3], "rid": "a"},
          {"req_pool_index": 1, "prefix_len": 200, "verify_len": 4, "acc_len": 1, "correct_drafts": 0,
           "cap_trim": 0, "bonus_token": 12, "draft_tokens": [4, 5, 6]},
          {"req_pool_index": 2, "prefix_len": 300, "verify_len": 4, "acc_len": 4, "correct_drafts": 3,
           "cap_trim": 0, "bonus_token": 13, "draft_tokens": [7, 8, 9], "unknown_future_key": [1]}]})";

} // namespace

class TestStepRecords : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void serverInfoKeepsDpRanksApartAndDerivesEveryColumn()
    {
        QTemporaryDir dir;
        const QByteArray doc = QByteArray(R"({"model_path": "x", "internal_states": [
            {"dspark_info_record": {"mode": "static", "gamma": 3, "verify_num_draft_tokens": 4,
              "components": ["core", "reqs", "step_gpu_time"], "simulate_acc_len": null,
              "records": [)") + kFullRecord +
                               R"(,
                {"forward_ct": 40, "bs": 3, "step_gpu_ms": 19.0, "draft_gpu_ms": null, "target_verify_gpu_ms": 9.0}]}},
            {"dspark_info_record": {"mode": "compact", "gamma": 5, "verify_num_draft_tokens": 6, "records": [
                {"forward_ct": 41, "bs": 2, "num_verify_tokens": 9, "step_gpu_ms": 18.0}]}},
            {"some_other_state": 1}
        ], "version": "0.5"})";
        writeFile(dir.filePath("server_info.json"), doc);
        QString error;
        auto p = load(dir.path(), &error);
        QVERIFY2(p, qPrintable(error));
        QVERIFY(p->stepRecords);
        const StepRecordSet& set = *p->stepRecords;
        QCOMPARE(set.ranks.size(), size_t(2));
        QCOMPARE(set.ranks[0].dpRank, 0);
        QCOMPARE(set.ranks[1].dpRank, 1);
        QCOMPARE(set.ranks[0].envelope.mode, std::string("static"));
        QCOMPARE(*set.ranks[0].envelope.gamma, int64_t(3));
        QCOMPARE(*set.ranks[0].envelope.verifyNumDraftTokens, int64_t(4));
        QCOMPARE(set.ranks[0].envelope.components, (std::vector<std::string>{"core", "reqs", "step_gpu_time"}));
        QCOMPARE(*set.ranks[1].envelope.gamma, int64_t(5));
        QCOMPARE(set.rows.size(), size_t(3));
        // Rows by (rank, forward_ct): 40 sorts before 41 although the file lists it second.
        QCOMPARE(set.record(0).forwardCt, int64_t(40));
        QCOMPARE(set.rows[2].dpRank, 1);

        size_t row = 0;
        const StepRecord& r = recordAt(set, 0, 41, &row);
        QCOMPARE(*r.bs, int64_t(3));
        QCOMPARE(r.mode, std::string("static"));
        QCOMPARE(*r.verifyTokensDpSynced, int64_t(16));
        QCOMPARE(r.reqs->size(), size_t(3));
        QCOMPARE(r.reqs->at(0).rid, std::string("a"));
        QCOMPARE(*r.reqs->at(2).draftTokenCount, int64_t(3));
        const StepDerived& d = set.rows[row].derived;
        QCOMPARE(*d.unattributedMs, 4.125); // 20.5 − 6.25 − 10.125
        QCOMPARE(*d.meanCommitLen, 8.0 / 3.0);
        QCOMPARE(*d.totalCommitLen, int64_t(8));
        QCOMPARE(*d.meanCorrectDrafts, 5.0 / 3.0);
        QCOMPARE(*d.acceptanceRate, 5.0 / 9.0); // (2+0+3) / 3×(4−1)
        QCOMPARE(*d.effectiveTpotMs, 7.6875);   // 20.5 / (8/3)
        QCOMPARE(*d.effectiveTpotCpuMs, 9.0);   // 24 / (8/3)

        // forward_ct 40: draft time null, no reqs: nothing derived from a missing value.
        const StepRecord& r40 = recordAt(set, 0, 40, &row);
        QVERIFY(!r40.draftGpuMs);
        QVERIFY(!r40.stepCpuMs);
        QVERIFY(!r40.reqs);
        QVERIFY(!r40.numVerifyTokens); // omitted = not recorded, not -1, not 0
        QVERIFY(r40.mode.empty());
        const StepDerived& d40 = set.rows[row].derived;
        QVERIFY(!d40.unattributedMs);
        QVERIFY(!d40.meanCommitLen && !d40.totalCommitLen && !d40.acceptanceRate && !d40.effectiveTpotMs);

        // The numbers the table and the JSON show are the same values.
        QCOMPARE(*stepColumnNumber(set, 1, StepColumn::UnattributedMs), 4.125);
        QCOMPARE(*stepColumnNumber(set, 2, StepColumn::Rank), 1.0);
        QVERIFY(!stepColumnNumber(set, 0, StepColumn::NumVerifyTokens));
        QCOMPARE(*stepColumnText(set, 1, StepColumn::Mode, set.anomalies), std::string("static"));
        QVERIFY(!stepColumnText(set, 0, StepColumn::Mode, set.anomalies));
        QVERIFY(p->warnings.isEmpty());
    }

    void bareInfoRecordLoads()
    {
        QTemporaryDir dir;
        writeFile(dir.filePath("dspark_info_record.json"),
                  QByteArray(R"({"mode": "static", "gamma": 3, "verify_num_draft_tokens": 4, "records": [)") +
                      kFullRecord + "]}");
        auto p = load(dir.filePath("dspark_info_record.json"));
        QVERIFY(p && p->stepRecords);
        QCOMPARE(p->stepRecords->rows.size(), size_t(1));
        QCOMPARE(p->stepRecords->ranks[0].dpRank, 0);
        QCOMPARE(*p->stepRecords->rows[0].derived.unattributedMs, 4.125);
        QVERIFY(p->lanes.empty()); // no trace: a profile of step records only
        QVERIFY(!p->stepRecords->alignment.aligned());
    }

    // The records of a server_info document are read while it is parsed (not kept in its DOM): the
    // same records, ranks and problems, in document order, as reading the whole DOM.
    void serverInfoRecordsReadWhileParsingKeepTheirPlacesAndOrder()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("server_info.json");
        writeFile(path, R"({"internal_states": [
            {"dspark_info_record": {"records": [{"forward_ct": 1, "bs": "x"}, 7, {"bs": 2},
                                                {"forward_ct": 2, "bs": 2}], "gamma": "three"},
             "speculative_adaptation_info_record": {"records": [{"forward_ct": 99, "bs": 1}]}},
            {"speculative_adaptation_info_record": [{"forward_ct": 5, "bs": 4}, {"forward_ct": 5, "bs": 4}]},
            {"dspark_info_record": {"records": "none"}}],
          "records": [{"forward_ct": 77}]})");
        auto p = load(path);
        QVERIFY(p && p->stepRecords);
        const StepRecordSet& set = *p->stepRecords;
        QCOMPARE(set.rows.size(), size_t(3)); // rank 0: 1, 2 (not 99: the first payload wins); rank 1: 5
        QCOMPARE(set.rows[0].dpRank, 0);
        QCOMPARE(set.record(0).forwardCt, int64_t(1));
        QVERIFY(!set.record(0).bs); // "x": not recorded
        QCOMPARE(*set.record(1).bs, int64_t(2));
        QCOMPARE(set.rows[2].dpRank, 1);
        QCOMPARE(set.record(2).forwardCt, int64_t(5));
        QVERIFY(!set.ranks[0].envelope.gamma);
        const QStringList expected = {
            QStringLiteral("internal_states[0].dspark_info_record: gamma is not an integer"),
            QStringLiteral("internal_states[0].dspark_info_record.records[0]: bs is not an integer"),
            QStringLiteral("internal_states[0].dspark_info_record.records[1]: not a JSON object"),
            QStringLiteral("internal_states[0].dspark_info_record.records[2]: no forward_ct"),
            QStringLiteral("internal_states[2].dspark_info_record: records is not a list"),
            QStringLiteral("1 record(s) of rank 1 repeat a forward_ct"),
        };
        QCOMPARE(p->warnings.size(), expected.size());
        for (int i = 0; i < expected.size(); ++i)
            QVERIFY2(p->warnings[i].contains(expected[i]), qPrintable(p->warnings[i]));
    }

    // Bad values in every shape a record can take, read while the document is parsed (server_info) and
    // line by line (JSON Lines): the same values and the same problems, in readRecord's field order.
    void badRecordValuesAreReportedAndSkippedTheSameWayInEveryShape()
    {
        const QByteArrayList records = {
            // bs a string, -1 sentinels, nulls, nested unknown keys (with records of their own)
            R"({"forward_ct": 1, "bs": "eight", "num_running_reqs": -1, "budget": -1, "lag_steps": null,)"
            R"( "step_gpu_ms": null, "unknown": {"deep": [1, {"forward_ct": 99}], "records": [{"forward_ct": 98}]},)"
            R"( "also": [[1], {"a": []}]})",
            // bs an object; mode given twice: the last one counts
            R"({"forward_ct": 2, "bs": {"b": true, "a": [1, 2]}, "mode": "static", "mode": 7})",
            // bs a float; an integral float is an integer; step_time is not used when step_cpu_ms is there
            R"({"forward_ct": 3, "bs": 3.5, "verify_tokens_local": 8.0, "step_cpu_ms": 2, "step_time": 9})",
            R"([{"forward_ct": 4}])",                                             // not an object
            R"({"bs": 5})",                                                       // no forward_ct
            R"({"forward_ct": 6, "bs": 6, "bs": "six", "reqs": {"acc_len": 1}})", // reqs not a list
            R"({"forward_ct": 7, "reqs": [5, {"acc_len": "two", "verify_len": -1, "draft_tokens": [[1, 2], 3],)"
            R"( "rid": "r", "x": {"y": [1]}}, null]})", // requests not objects
            R"({"forward_ct": 8, "reqs": [{"acc_len": "first"}], "reqs": [{"acc_len": 2}], "step_time": 0.5})",
            R"({"forward_ct": "9"})",
            R"({"forward_ct": 1, "bs": 100})", // a repeated forward_ct: the first record is kept
        };
        const QByteArray envelope = R"({"mode": "static", "gamma": "three"})";
        QTemporaryDir dir;
        const QString server = dir.filePath("server_info.json");
        writeFile(server, R"({"internal_states": [{"dspark_info_record": )" + envelope.chopped(1) +
                              R"(, "records": [)" + records.join(",\n") + "]}}]}");
        const QString lines = dir.filePath("steps.jsonl");
        writeFile(lines, envelope + "\n" + records.join("\n") + "\n");

        for (const QString& path : {server, lines}) {
            const bool jsonLines = path == lines;
            const QString envelopePlace =
                jsonLines ? QStringLiteral("line 1") : QStringLiteral("internal_states[0].dspark_info_record");
            const auto at = [&](int k) -> QString { // the file and the place of records[k]
                return path + QStringLiteral(": ") +
                       (jsonLines ? QStringLiteral("line %1").arg(k + 2)
                                  : envelopePlace + QStringLiteral(".records[%1]").arg(k));
            };
            auto p = load(path);
            QVERIFY2(p && p->stepRecords, qPrintable(path));
            const QStringList expected = {
                path + ": " + envelopePlace + R"(: gamma is not an integer ("three"); taken as not recorded)",
                at(0) + R"(: bs is not an integer ("eight"); taken as not recorded)",
                at(1) + R"(: bs is not an integer ({"a":[1,2],"b":true}); taken as not recorded)",
                at(2) + ": bs is not an integer (3.5); taken as not recorded",
                at(3) + ": not a JSON object; skipped",
                at(4) + ": no forward_ct; skipped",
                at(5) + R"(: bs is not an integer ("six"); taken as not recorded)",
                at(5) + ": reqs is not a list; taken as not recorded",
                at(6) + " reqs[0]: not an object; skipped",
                at(6) + R"( reqs[1]: acc_len is not an integer ("two"); taken as not recorded)",
                at(6) + " reqs[2]: not an object; skipped",
                at(8) + ": forward_ct is not an integer; skipped",
                path + ": 1 record(s) of rank 0 repeat a forward_ct already loaded; skipped (the first is kept)",
            };
            QCOMPARE(p->warnings, expected);

            const StepRecordSet& set = *p->stepRecords;
            QCOMPARE(set.rows.size(), size_t(6)); // forward_ct 1, 2, 3, 6, 7, 8
            QCOMPARE(set.ranks[0].envelope.mode, std::string("static"));
            QVERIFY(!set.ranks[0].envelope.gamma);
            const StepRecord& r1 = recordAt(set, 0, 1);
            QVERIFY(!r1.bs && !r1.numRunningReqs && !r1.lagSteps && !r1.stepGpuMs && !r1.reqs);
            QCOMPARE(*r1.budget, int64_t(-1)); // -1 is "not set" only where msgspec's default is -1
            const StepRecord& r2 = recordAt(set, 0, 2);
            QVERIFY(!r2.bs);
            QVERIFY(r2.mode.empty());
            const StepRecord& r3 = recordAt(set, 0, 3);
            QVERIFY(!r3.bs);
            QCOMPARE(*r3.verifyTokensLocal, int64_t(8));
            QCOMPARE(*r3.stepCpuMs, 2.0);
            QVERIFY(!r3.stepCpuFromSps);
            const StepRecord& r6 = recordAt(set, 0, 6);
            QVERIFY(!r6.bs && !r6.reqs);
            const StepRecord& r7 = recordAt(set, 0, 7);
            QCOMPARE(r7.reqs->size(), size_t(1));
            QVERIFY(!r7.reqs->at(0).accLen);
            QCOMPARE(*r7.reqs->at(0).verifyLen, int64_t(-1));
            QCOMPARE(*r7.reqs->at(0).draftTokenCount, int64_t(2));
            QCOMPARE(r7.reqs->at(0).rid, std::string("r"));
            const StepRecord& r8 = recordAt(set, 0, 8);
            QCOMPARE(r8.reqs->size(), size_t(1));
            QCOMPARE(*r8.reqs->at(0).accLen, int64_t(2));
            QCOMPARE(*r8.stepCpuMs, 500.0);
            QVERIFY(r8.stepCpuFromSps);
            QCOMPARE(r8.line, jsonLines ? 9u : 0u);
        }
    }

    void jsonLinesReportBadLinesAndLoadTheRest()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("steps.jsonl");
        writeFile(
            path,
            QByteArray(R"({"mode": "compact", "gamma": 5, "verify_num_draft_tokens": 6, "components": ["core"]})") +
                "\r\n" + R"({"forward_ct": 7, "bs": 2, "num_verify_tokens": 10, "step_gpu_ms": 11.5})" + "\n\n" +
                R"({"forward_ct": 8, "bs": 2, "num_verify_tokens": 10 ,)" + "\n" + R"({"bs": 2})" + "\n" +
                R"({"forward_ct": 9, "bs": "two", "step_gpu_ms": 12.0})" + "\n" + R"({"forward_ct": 7, "bs": 5})" +
                "\n" + R"([1, 2])");
        auto p = load(path);
        QVERIFY(p && p->stepRecords);
        const StepRecordSet& set = *p->stepRecords;
        QCOMPARE(set.rows.size(), size_t(2)); // 7 and 9
        QCOMPARE(set.ranks[0].envelope.mode, std::string("compact"));
        QCOMPARE(*set.ranks[0].envelope.gamma, int64_t(5));
        QCOMPARE(set.record(0).line, 2u);
        QCOMPARE(*set.record(0).bs, int64_t(2)); // the first forward_ct 7 is kept
        QVERIFY(!set.record(1).bs);              // "two": not an integer → not recorded
        QCOMPARE(*set.record(1).stepGpuMs, 12.0);
        QVERIFY(warningsContain(*p, QStringLiteral("steps.jsonl: line 4: not valid JSON")));
        QVERIFY(warningsContain(*p, QStringLiteral("line 5: no forward_ct")));
        QVERIFY(warningsContain(*p, QStringLiteral("line 6: bs is not an integer")));
        QVERIFY(warningsContain(*p, QStringLiteral("1 record(s) of rank 0 repeat a forward_ct")));
        QVERIFY(warningsContain(*p, QStringLiteral("line 8: not a JSON object")));
    }

    void spsProfilerRowsFillStepCpuFromSeconds()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("bench.records.jsonl");
        writeFile(
            path,
            R"({"forward_ct": 100, "num_running_reqs": 16, "num_verify_tokens": 64, "step_time": 0.0123, "verify_tokens_local": -1, "verify_tokens_dp_synced": -1, "verify_tokens_graph_key": -1}
{"forward_ct": 101, "num_running_reqs": 16, "num_verify_tokens": 64, "step_time": 0.012345678901}
)");
        auto p = load(path);
        QVERIFY(p && p->stepRecords);
        const StepRecordSet& set = *p->stepRecords;
        QCOMPARE(p->files.front().format, std::string("sps_records_jsonl"));
        QCOMPARE(set.rows.size(), size_t(2));
        const StepRecord& r = set.record(0);
        QCOMPARE(*r.stepCpuMs, 12.3);
        QVERIFY(r.stepCpuFromSps);
        QVERIFY(!r.stepGpuMs);
        QVERIFY(!r.bs); // the profiler has no bs: num_running_reqs is kept as such
        QCOMPARE(*r.numRunningReqs, int64_t(16));
        QVERIFY(!r.verifyTokensLocal);                    // -1 is SGLang's "not set"
        QCOMPARE(*set.record(1).stepCpuMs, 12.345679);    // kept to the nanosecond
        QVERIFY(!set.rows[0].derived.effectiveTpotCpuMs); // no reqs → no commit length
    }

    void rankComesFromTheFileNameAndRanksStaySeparate()
    {
        QTemporaryDir dir;
        writeFile(dir.filePath("records_dp0.jsonl"), R"({"forward_ct": 5, "bs": 4})");
        writeFile(dir.filePath("records_dp3.jsonl"), R"({"forward_ct": 5, "bs": 6})");
        auto p = load(dir.path());
        QVERIFY(p && p->stepRecords);
        const StepRecordSet& set = *p->stepRecords;
        QCOMPARE(set.ranks.size(), size_t(2));
        QCOMPARE(set.ranks[1].dpRank, 3);
        QCOMPARE(*recordAt(set, 3, 5).bs, int64_t(6));
        QCOMPARE(*recordAt(set, 0, 5).bs, int64_t(4));
    }

    void acceptanceFallsBackToProposedDraftsWithoutVerifyLen()
    {
        StepRecord r;
        r.stepGpuMs = 10.0;
        r.reqs = std::vector<StepRequest>(2);
        (*r.reqs)[0].accLen = 2;
        (*r.reqs)[0].correctDrafts = 1;
        (*r.reqs)[0].draftTokenCount = 4;
        (*r.reqs)[1].correctDrafts = 3; // acc_len missing
        (*r.reqs)[1].verifyLen = 6;
        const StepDerived d = deriveStep(r);
        QCOMPARE(*d.acceptanceRate, 4.0 / 9.0); // (1+3) / (4 + (6−1))
        QCOMPARE(*d.meanCommitLen, 2.0);        // over the request that has it
        QVERIFY(!d.totalCommitLen);             // one acc_len missing: no total
        QCOMPARE(*d.effectiveTpotMs, 5.0);
        QCOMPARE(*d.meanCorrectDrafts, 2.0);
        QVERIFY(!d.effectiveTpotCpuMs);
    }

    void anomaliesUseRobustStatisticsPerWorkload()
    {
        QTemporaryDir dir;
        QByteArray lines;
        // Workload (bs 8, 32 tokens): forward_ct 10..19, step_gpu ≈ 20 ms, one at 30 ms (forward_ct 15),
        // forward_ct 17 has an unattributed share of 40 % instead of 10 %.
        const double gpu[] = {20.0, 20.1, 19.9, 20.0, 20.2, 30.0, 19.8, 20.0, 20.1, 20.0};
        for (int i = 0; i < 10; ++i) {
            const double step = gpu[i];
            const double unattributed = i == 7 ? 8.0 : 2.0;
            const double draft = 6.0;
            lines += QStringLiteral(R"({"forward_ct": %1, "bs": 8, "num_verify_tokens": 32, "step_gpu_ms": %2, )"
                                    R"("draft_gpu_ms": %3, "target_verify_gpu_ms": %4})")
                         .arg(10 + i)
                         .arg(step)
                         .arg(draft)
                         .arg(step - draft - unattributed)
                         .toUtf8() +
                     "\n";
        }
        // Another workload with only two steps: too few peers to judge, even at 90 ms.
        lines += R"({"forward_ct": 21, "bs": 4, "num_verify_tokens": 16, "step_gpu_ms": 10.0})"
                 "\n"
                 R"({"forward_ct": 22, "bs": 4, "num_verify_tokens": 16, "step_gpu_ms": 90.0})"
                 "\n";
        writeFile(dir.filePath("a.jsonl"), lines);
        auto p = load(dir.filePath("a.jsonl"));
        QVERIFY(p && p->stepRecords);
        const StepRecordSet& set = *p->stepRecords;
        QCOMPARE(set.anomalies.size(), size_t(12));
        QStringList flagged;
        for (size_t i = 0; i < set.rows.size(); ++i)
            if (!set.anomalies[i].isEmpty())
                flagged << QString::number(set.record(i).forwardCt);
        QCOMPARE(flagged, QStringList({"15", "17"}));
        // median 20.0, MAD 0.1 floored at 1.5 % of the median (0.3) → robust σ 0.44478;
        // (30 − 20) / 0.44478 = 22.5
        QCOMPARE(set.anomalies[5], QStringLiteral("step_gpu_ms 30.000 ms is 22.5 robust σ above the median 20.000 ms "
                                                  "of 10 steps with bs=8, verify tokens=32"));
        QVERIFY2(set.anomalies[7].startsWith(QStringLiteral("unattributed share 40.0 % of step_gpu_ms vs median "
                                                            "10.0 % of 10 steps")),
                 qPrintable(set.anomalies[7]));
        // Configurable: a very high threshold flags nothing.
        AnomalyOptions lenient;
        lenient.robustZ = 100;
        const std::vector<QString> none = detectStepAnomalies(set, lenient);
        QVERIFY(std::all_of(none.begin(), none.end(), [](const QString& s) { return s.isEmpty(); }));
    }

    void stableWindowIsTheLongestSteadyRunWithoutPrefillGaps()
    {
        QTemporaryDir dir;
        QByteArray lines;
        auto add = [&](int fct, int bs) {
            lines += QStringLiteral(R"({"forward_ct": %1, "bs": %2})").arg(fct).arg(bs).toUtf8() + "\n";
        };
        for (int f = 10; f <= 14; ++f) // 5 steps
            add(f, 8);
        // forward_ct 15 is a prefill: no record
        for (int f = 16; f <= 21; ++f) // 6 steps at bs 9 ...
            add(f, 9);
        for (int f = 22; f <= 25; ++f) // ... then bs 10
            add(f, 10);
        writeFile(dir.filePath("w.jsonl"), lines);
        auto p = load(dir.filePath("w.jsonl"));
        QVERIFY(p && p->stepRecords);
        const auto& windows = p->stepRecords->stableWindows;
        QCOMPARE(windows.size(), size_t(1));
        QCOMPARE(windows[0].firstForwardCt, int64_t(16));
        QCOMPARE(windows[0].lastForwardCt, int64_t(21));
        QCOMPARE(windows[0].steps, size_t(6));
        QCOMPARE(*windows[0].bs, int64_t(9));
        QCOMPARE(windows[0].firstRow, size_t(5));
        StableWindowOptions tolerant;
        tolerant.bsTolerance = 1;
        const auto wide = findStableWindows(*p->stepRecords, tolerant);
        QCOMPARE(wide[0].steps, size_t(10)); // 16..25 with bs 9..10
    }

    // bs is whatever the file holds: the distance between two far apart must not wrap round (it did:
    // INT64_MAX − INT64_MIN came out as −1, so the two were "within 1" of each other). (INT64_MIN itself
    // is the compact fields' not-recorded mark: the lowest value kept is INT64_MIN + 1.)
    void stableWindowsCompareExtremeBsWithoutOverflow()
    {
        QTemporaryDir dir;
        writeFile(dir.filePath("x.jsonl"), "{\"forward_ct\": 1, \"bs\": -9223372036854775807}\n"
                                           "{\"forward_ct\": 2, \"bs\": 9223372036854775807}\n"
                                           "{\"forward_ct\": 3, \"bs\": -9223372036854775807}\n"
                                           "{\"forward_ct\": 4, \"bs\": 9223372036854775807}\n");
        auto p = load(dir.filePath("x.jsonl"));
        QVERIFY(p && p->stepRecords);
        QCOMPARE(*p->stepRecords->record(0).bs, std::numeric_limits<int64_t>::min() + 1);
        QCOMPARE(*p->stepRecords->record(1).bs, std::numeric_limits<int64_t>::max());
        StableWindowOptions options;
        options.minSteps = 2;
        options.bsTolerance = 1;
        QCOMPARE(findStableWindows(*p->stepRecords, options).size(), size_t(0));
        options.bsTolerance = std::numeric_limits<int64_t>::max(); // still not steady: they are 2^64 − 2 apart
        QCOMPARE(findStableWindows(*p->stepRecords, options).size(), size_t(0));
    }

    // A long run's server_info.json (~9 MB here) reports progress while it is parsed, and stops on Cancel.
    void longServerInfoReportsProgressAndCancels()
    {
        QTemporaryDir dir;
        std::string text = "{\"internal_states\": [{\"dspark_info_record\": {\"mode\": \"static\", \"records\": [";
        std::string req = "{\"req_pool_index\": 1, \"prefix_len\": 100, \"verify_len\": 4, \"acc_len\": 2, "
                          "\"correct_drafts\": 1, \"cap_trim\": 0, \"bonus_token\": 5, \"draft_tokens\": [1, 2, 3], "
                          "\"rid\": \"0123456789abcdef0123456789abcdef\"}";
        const int records = 6000;
        for (int i = 0; i < records; ++i) {
            text += (i ? ", " : "") + std::string("{\"forward_ct\": ") + std::to_string(1000 + i) +
                    ", \"bs\": 8, \"step_cpu_ms\": 10.5, \"reqs\": [";
            for (int q = 0; q < 8; ++q)
                text += (q ? ", " : "") + req;
            text += "]}";
        }
        text += "]}}]}";
        QVERIFY(text.size() > (8u << 20));
        const QString path = dir.filePath(QStringLiteral("server_info.json"));
        writeFile(path, QByteArray::fromStdString(text));

        std::vector<double> seen;
        const LoadProgress progress([&](double f, const QString&) { seen.push_back(f); }, nullptr);
        const LoadOutcome ok = loadProfile(path.toStdString(), progress);
        QVERIFY2(ok.profile && ok.profile->stepRecords, qPrintable(ok.error));
        QCOMPARE(ok.profile->stepRecords->rows.size(), size_t(records));
        const auto inside = std::count_if(seen.begin(), seen.end(), [](double f) { return f > 0.0 && f < 1.0; });
        QVERIFY2(inside >= 2, qPrintable(QString::number(inside))); // at 4 MB and 8 MB of the file at least
        QVERIFY(std::is_sorted(seen.begin(), seen.end()));

        std::atomic<bool> cancel{false};
        int updatesAfterCancel = 0;
        const LoadProgress cancelling(
            [&](double f, const QString&) {
                if (cancel)
                    ++updatesAfterCancel;
                if (f > 0.0 && f < 1.0)
                    cancel = true;
            },
            &cancel);
        const LoadOutcome cancelled = loadProfile(path.toStdString(), cancelling);
        QVERIFY(cancel.load());
        QVERIFY(!cancelled.profile);
        QCOMPARE(cancelled.error, QStringLiteral("Loading cancelled"));
        QVERIFY2(updatesAfterCancel == 0, qPrintable(QString::number(updatesAfterCancel))); // not read on (8 MB)
    }

    // A repeated forward_ct keeps its first record, whether it repeats one in step order or one that came
    // out of order.
    void repeatedForwardCtsKeepTheFirstRecordInAnyOrder()
    {
        QTemporaryDir dir;
        QByteArray lines;
        int bs = 0;
        for (int fct : {10, 12, 11, 11, 12, 9, 9, 13, 13})
            lines += QStringLiteral(R"({"forward_ct": %1, "bs": %2})").arg(fct).arg(++bs).toUtf8() + "\n";
        writeFile(dir.filePath("r.jsonl"), lines);
        auto p = load(dir.filePath("r.jsonl"));
        QVERIFY(p && p->stepRecords);
        const StepRecordSet& set = *p->stepRecords;
        QCOMPARE(set.rows.size(), size_t(5)); // 9, 10, 11, 12, 13
        QCOMPARE(*recordAt(set, 0, 9).bs, int64_t(6));
        QCOMPARE(*recordAt(set, 0, 11).bs, int64_t(3));
        QCOMPARE(*recordAt(set, 0, 12).bs, int64_t(2));
        QCOMPARE(*recordAt(set, 0, 13).bs, int64_t(8));
        QVERIFY(warningsContain(*p, QStringLiteral("4 record(s) of rank 0 repeat a forward_ct")));
    }

    // Record and request fields are kept in 8 bytes each (CompactOptionalInt, CompactOptionalReal): every
    // int64 but INT64_MIN is a value, the extremes and -1 included; absent, null and INT64_MIN are "not
    // recorded" (a real is never NaN in JSON).
    void requestFieldsKeepEveryValueButTheirNotRecordedMark()
    {
        QTemporaryDir dir;
        writeFile(dir.filePath("r.jsonl"),
                  R"({"forward_ct": 1, "bs": -9223372036854775808, "budget": -9223372036854775807, )"
                  R"("lag_steps": null, "step_gpu_ms": -0.0, "draft_gpu_ms": 1e308, )"
                  R"("reqs": [{"req_pool_index": 0, "prefix_len": 9223372036854775807, )"
                  R"("verify_len": -1, "acc_len": null, "correct_drafts": -9223372036854775807, )"
                  R"("cap_trim": -9223372036854775808, "draft_tokens": [5, 6, 7]}]})"
                  "\n");
        auto p = load(dir.filePath("r.jsonl"));
        QVERIFY(p && p->stepRecords);
        const StepRecord& r = recordAt(*p->stepRecords, 0, 1);
        QVERIFY(!r.bs); // INT64_MIN: the mark itself
        QCOMPARE(*r.budget, std::numeric_limits<int64_t>::min() + 1);
        QVERIFY(!r.lagSteps && !r.stepCpuMs && !r.stepCpuMs.has_value() && r.stepCpuMs.value_or(2.5) == 2.5);
        QVERIFY(r.stepGpuMs.has_value() && *r.stepGpuMs == 0.0);
        QCOMPARE(*r.draftGpuMs, 1e308);
        QCOMPARE(std::optional<double>(r.stepCpuMs), std::optional<double>());
        QVERIFY(CompactOptionalReal(std::optional<double>(3.5)) == CompactOptionalReal(3.5));
        QVERIFY(!(CompactOptionalReal() == CompactOptionalReal(0.0)));
        QCOMPARE(sizeof(CompactOptionalReal), sizeof(double));
        const StepRequest& q = r.reqs->at(0);
        QCOMPARE(*q.reqPoolIndex, int64_t(0));
        QCOMPARE(*q.prefixLen, std::numeric_limits<int64_t>::max());
        QCOMPARE(*q.verifyLen, int64_t(-1));
        QVERIFY(!q.accLen && !q.accLen.has_value() && q.accLen.value_or(7) == 7);
        QCOMPARE(*q.correctDrafts, std::numeric_limits<int64_t>::min() + 1);
        QVERIFY(!q.capTrim);    // INT64_MIN: the mark itself
        QVERIFY(!q.bonusToken); // absent
        QCOMPARE(*q.draftTokenCount, int64_t(3));
        // It converts to and from std::optional without changing what it holds.
        const std::optional<int64_t> asOptional = q.prefixLen;
        QCOMPARE(asOptional, std::optional<int64_t>(std::numeric_limits<int64_t>::max()));
        QCOMPARE(std::optional<int64_t>(q.accLen), std::optional<int64_t>());
        QCOMPARE(CompactOptionalInt(std::optional<int64_t>(-1)), CompactOptionalInt(-1));
        QVERIFY(CompactOptionalInt(std::optional<int64_t>()) == CompactOptionalInt());
        QCOMPARE(sizeof(CompactOptionalInt), sizeof(int64_t));
    }

    void filesWithoutRecordsFailWithTheirName()
    {
        QTemporaryDir dir;
        const QString bad = dir.filePath("broken.jsonl");
        writeFile(bad, "{\"forward_ct\": 1,\n{\"gamma\": 3, \"mode\": \"x\"}\n");
        QString error;
        QVERIFY(!load(bad, &error));
        QVERIFY2(error.contains(bad) && error.contains(QStringLiteral("line 1: not valid JSON")), qPrintable(error));

        const QString server = dir.filePath("server_info.json");
        writeFile(server, R"({"internal_states": [{"dspark_info_record": null}, {}]})");
        QVERIFY(!load(server, &error));
        QVERIFY2(error.contains(server) && error.contains(QStringLiteral("holds no DSpark step records")),
                 qPrintable(error));
    }

    void aJsonFileHoldingJsonLinesStillLoads()
    {
        QTemporaryDir dir;
        // A .json file a script wrote line by line: an info record, then one more record.
        const QString path = dir.filePath("dump.json");
        writeFile(path, R"({"mode": "static", "gamma": 3, "records": [{"forward_ct": 3, "bs": 1}]}
{"forward_ct": 4, "bs": 1}
)");
        auto p = load(path);
        QVERIFY(p && p->stepRecords);
        QCOMPARE(p->stepRecords->rows.size(), size_t(2));
        QCOMPARE(*p->stepRecords->ranks[0].envelope.gamma, int64_t(3));
    }
};

QTEST_GUILESS_MAIN(TestStepRecords)
#include "tst_steprecords.moc"
