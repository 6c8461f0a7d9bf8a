// Step records at scale: load a server_info.json with many records, derive the table, detect anomalies,
// align to a trace with many scheduler iterations (anchored and unanchored), write the steps JSON.
// Usage: bench_steps [records=200000] [reqs_per_step=8] [trace_steps=20000] [bs_block=400]
// Figures go to docs/performance.md ("Step records").
#include "io/ProfileLoader.h"
#include "report/StepsJson.h"
#include "steps/StepRecords.h"
#include "util/Memory.h"

#include <QCoreApplication>
#include <QTemporaryDir>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>

using namespace dspark;
using Clock = std::chrono::steady_clock;

static double msSince(Clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

static long peakRssKb()
{
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("VmHWM:", 0) == 0)
            return std::stol(line.substr(6));
    return -1;
}

// forward_ct of record k: 1000 + k plus one prefill gap every 50 steps; bs is 8..15, a pseudo-random
// value per block of bs_block steps (400 by default; a periodic bs would make the unanchored alignment
// ambiguous: it would find the first period that fits, not the traced one).
static int64_t forwardCtOf(int64_t k)
{
    return 1000 + k + k / 50;
}
static int64_t g_bsBlock = 400;
static int bsOf(int64_t k)
{
    uint64_t x = static_cast<uint64_t>(k / g_bsBlock) + 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return 8 + static_cast<int>((x ^ (x >> 31)) % 8);
}

int main(int argc, char** argv)
{
    keepFreedMemoryForReuse(); // (the allocator's settings for loading, as the app sets them)
    QCoreApplication app(argc, argv);
    const int64_t records = argc > 1 ? std::stoll(argv[1]) : 200000;
    const int reqs = argc > 2 ? std::stoi(argv[2]) : 8;
    const int64_t traceSteps = argc > 3 ? std::stoll(argv[3]) : 20000;
    g_bsBlock = argc > 4 ? std::max<int64_t>(1, std::stoll(argv[4])) : 400;
    QTemporaryDir dir(QStringLiteral("/tmp/bench-steps-XXXXXX"));
    const std::string path = dir.filePath(QStringLiteral("server_info.json")).toStdString();
    {
        std::ofstream out(path);
        out << R"({"internal_states": [{"dspark_info_record": {"mode": "static", "gamma": 3, )"
               R"("verify_num_draft_tokens": 4, "components": ["core", "reqs"], "records": [)";
        for (int64_t k = 0; k < records; ++k) {
            const int bs = bsOf(k);
            const double gpu = 18.0 + (k % 17) * 0.01 + (k % 997 == 0 ? 9.0 : 0.0);
            out << (k ? ",\n" : "") << R"({"forward_ct": )" << forwardCtOf(k) << R"(, "bs": )" << bs
                << R"(, "mode": "static", "num_running_reqs": )" << bs << R"(, "num_verify_tokens": )" << 4 * bs
                << R"(, "verify_tokens_local": )" << 4 * bs << R"(, "verify_tokens_dp_synced": )" << 4 * bs
                << R"(, "verify_tokens_graph_key": )" << 4 * bs << R"(, "step_cpu_ms": 21.5, "step_gpu_ms": )" << gpu
                << R"(, "draft_gpu_ms": 5.25, "target_verify_gpu_ms": 11.5, "reqs": [)";
            for (int q = 0; q < reqs; ++q)
                out << (q ? ", " : "") << R"({"req_pool_index": )" << q << R"(, "prefix_len": 1024, "verify_len": 4, )"
                    << R"("acc_len": )" << 1 + (k + q) % 4 << R"(, "correct_drafts": )" << (k + q) % 4
                    << R"(, "cap_trim": 0, "bonus_token": 7, "draft_tokens": [11, 12, 13]})";
            out << "]}";
        }
        out << "]}}]}\n";
    }
    const double fileMb = static_cast<double>(std::ifstream(path, std::ios::ate).tellg()) / 1e6;

    auto t0 = Clock::now();
    LoadOutcome o = loadProfile(path);
    const double loadMs = msSince(t0);
    if (!o.profile) {
        std::fprintf(stderr, "%s\n", qPrintable(o.error));
        return 1;
    }
    const std::shared_ptr<StepRecordSet> set = o.profile->stepRecords;
    std::printf("records %lld x %d reqs, server_info.json %.1f MB: load+derive+anomalies+windows %.0f ms "
                "(%.0f records/s), peak RSS %ld MB\n",
                static_cast<long long>(records), reqs, fileMb, loadMs, records / (loadMs / 1000.0), peakRssKb() / 1024);

    t0 = Clock::now();
    const std::vector<QString> anomalies = detectStepAnomalies(*set);
    std::printf("anomaly detection alone: %.0f ms\n", msSince(t0));

    // A trace of traceSteps scheduler iterations covering records [records/2, records/2 + traceSteps).
    Profile p;
    const int rank = p.ensureRank(0, 0);
    const uint32_t py = p.laneFor({LaneKind::Host, rank, -1, -1, 1, "Python", "Thread 1", 0});
    const uint32_t cann = p.laneFor({LaneKind::Host, rank, -1, -1, 1, "CANN", "Thread 1", 0});
    const uint32_t npu = p.laneFor({LaneKind::NpuStream, rank, 0, 2, -1, "Ascend Hardware", "Stream 2", 0});
    const uint32_t runBatch = p.strings.intern("scheduler.run_batch");
    const uint32_t launch = p.strings.intern("launch");
    const uint32_t kernel = p.strings.intern("MatMulV2");
    const int64_t first = records / 2;
    int64_t fct = forwardCtOf(first);
    int64_t k = first;
    for (int64_t i = 0; i < traceSteps; ++i, ++fct) {
        const TimeNs t = i * 20'000'000;
        p.lanes[py].append(t, 1'000'000, runBatch, EventKind::Annotation);
        const bool decode = k < records && forwardCtOf(k) == fct;
        const int bs = decode ? bsOf(k) : 1;
        const std::string name =
            decode ? "step[TARGET_VERIFY bs=" + std::to_string(bs) + " g_sq=" + std::to_string(4 * bs) + "]"
                   : "step[EXTEND bs=1 c_sq=2048]";
        p.lanes[py].append(t + 100'000, 800'000, p.strings.intern(name), EventKind::Annotation);
        for (int j = 0; j < 20; ++j) {
            const uint32_t a = p.lanes[cann].append(t + 100'000 + j * 40'000, 5'000, launch, EventKind::HostApi);
            const uint32_t b = p.lanes[npu].append(t + 2'000'000 + j * 500'000, 400'000, kernel, EventKind::Kernel);
            p.addLink({cann, a}, {npu, b}, LinkKind::HostToDevice);
        }
        if (decode)
            ++k;
    }
    p.finalize();
    p.stepRecords = set;
    p.metadata["profiler_metadata.start_step"] = std::to_string(forwardCtOf(first));
    t0 = Clock::now();
    StepAlignment a = alignSteps(p, *set);
    std::printf("align %lld trace steps (%zu events), start_step anchor: %.0f ms, agreement %.3f\n",
                static_cast<long long>(traceSteps), static_cast<size_t>(p.stats().events), msSince(t0),
                a.agreement.value_or(-1));
    p.metadata.clear();
    t0 = Clock::now();
    a = alignSteps(p, *set);
    std::printf("align without start_step (workload vote): %.0f ms, agreement %.3f, first forward_ct %lld "
                "(traced: %lld)\n",
                msSince(t0), a.agreement.value_or(-1), static_cast<long long>(a.ranks.at(0).firstForwardCt),
                static_cast<long long>(forwardCtOf(first)));
    set->alignment = std::move(a);
    // As `steps --json` writes it (a step at a time, to a file here), then as one DOM (stepsJson).
    t0 = Clock::now();
    size_t written = 0;
    {
        std::ofstream out(dir.filePath(QStringLiteral("steps.json")).toStdString(), std::ios::binary);
        writeStepsJson(p, {}, [&](const std::string& text) {
            out.write(text.data(), static_cast<std::streamsize>(text.size()));
            written += text.size();
        });
    }
    std::printf("steps --json, written a step at a time: %.1f MB in %.0f ms; peak RSS %ld MB\n",
                static_cast<double>(written) / 1e6, msSince(t0), peakRssKb() / 1024);
    t0 = Clock::now();
    const std::string json = stepsJson(p).dump(2);
    std::printf("steps JSON as one DOM, dump(2): %.1f MB in %.0f ms; peak RSS %ld MB\n",
                static_cast<double>(json.size()) / 1e6, msSince(t0), peakRssKb() / 1024);
    return anomalies.size() == set->rows.size() ? 0 : 1;
}
