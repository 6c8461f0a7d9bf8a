#include "demo/ClusterDemo.h"

#include "demo/DemoRandom.h"

#include <QCoreApplication>

#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace dspark::demo {

namespace {

using ojson = nlohmann::ordered_json;

constexpr TimeNs kBaseNs = 1'736'410'000'000'000'000; // the job's wall clock at the simulation's zero
constexpr int kFirstStep = 10;                        // the first step every rank recorded
constexpr const char* kGroup = "10.0.0.1%enp189s0f0_60000_0_1736409990123456";
constexpr int64_t kTokensTimesHidden = 8 * 7168; // COMMUNICATION_OP.count of every dispatch / combine
const char* const kKernels[] = {"MlaAttention", "MoeGatingTopK", "GroupedMatmul", "Sampling"};

struct SimTask {
    TimeNs startNs, endNs;
    int kernel;
};
struct SimColl {
    TimeNs issueNs, endNs;
    bool combine;
    int64_t step;
    int layer;
};
struct SimStep {
    int64_t id;
    TimeNs startNs, endNs;
};
struct SimRank {
    int warmup = 0;    // steps recorded before kFirstStep (profiling started earlier on this rank)
    TimeNs skewNs = 0; // this host's clock − the true clock
    std::vector<SimTask> tasks;
    std::vector<SimColl> colls;
    std::vector<SimStep> steps;
};

// One collective of every rank: it starts moving when the last rank arrived; each rank's end differs
// from the others' by ±100 ns (what the clock estimate cannot resolve).
void collective(std::vector<SimRank>& ranks, std::vector<TimeNs>& t, DemoRandom& rng, TimeNs transferNs, bool combine,
                int64_t step, int layer)
{
    const TimeNs start = *std::max_element(t.begin(), t.end());
    const TimeNs transfer = static_cast<TimeNs>(static_cast<double>(transferNs) * rng.jitter(0.05));
    for (size_t r = 0; r < ranks.size(); ++r) {
        const TimeNs end = start + transfer + rng.range(-100, 100);
        if (step >= kFirstStep - ranks[r].warmup)
            ranks[r].colls.push_back({t[r], end, combine, step, layer});
        t[r] = end + 1'000;
    }
}

void kernel(SimRank& rank, TimeNs& t, int k, TimeNs durationNs, bool record)
{
    if (record)
        rank.tasks.push_back({t, t + durationNs, k});
    t += durationNs + 1'000;
}

std::vector<SimRank> simulate(const ClusterDemoOptions& o)
{
    DemoRandom rng(o.seed);
    std::vector<SimRank> ranks(static_cast<size_t>(o.ranks));
    for (size_t r = 0; r < ranks.size(); ++r) {
        ranks[r].warmup = static_cast<int>(r % 3);
        ranks[r].skewNs = rng.range(-60'000, 60'000);
    }
    std::vector<TimeNs> t(ranks.size(), 0), stepStart(ranks.size(), 0);
    for (int64_t step = kFirstStep - 2; step < kFirstStep + o.steps; ++step) {
        const int64_t common = step - kFirstStep;
        for (size_t r = 0; r < ranks.size(); ++r)
            stepStart[r] = t[r];
        for (int layer = 0; layer < o.layers; ++layer) {
            for (size_t r = 0; r < ranks.size(); ++r) {
                const bool rec = step >= kFirstStep - ranks[r].warmup;
                const bool slow =
                    static_cast<int>(r) == o.slowRank && common >= o.slowFromStep && common < o.slowToStep;
                kernel(ranks[r], t[r], 0, static_cast<TimeNs>(60'000 * rng.jitter(0.03)), rec);
                kernel(ranks[r], t[r], 1, static_cast<TimeNs>(12'000 * rng.jitter(0.03)) + (slow ? o.slowExtraNs : 0),
                       rec);
            }
            collective(ranks, t, rng, 30'000, false, step, layer);
            for (size_t r = 0; r < ranks.size(); ++r)
                kernel(ranks[r], t[r], 2, static_cast<TimeNs>(80'000 * rng.jitter(0.03)),
                       step >= kFirstStep - ranks[r].warmup);
            collective(ranks, t, rng, 25'000, true, step, layer);
        }
        for (size_t r = 0; r < ranks.size(); ++r) {
            const bool rec = step >= kFirstStep - ranks[r].warmup;
            kernel(ranks[r], t[r], 3, static_cast<TimeNs>(15'000 * rng.jitter(0.05)), rec);
            const TimeNs end = t[r] + 4'000;
            if (rec)
                ranks[r].steps.push_back({step, stepStart[r], end});
            t[r] = end + static_cast<TimeNs>(20'000 * rng.jitter(0.1));
        }
    }
    return ranks;
}

// ---- writing ----

class RankDb {
public:
    ~RankDb() { sqlite3_close(m_db); }
    QString write(const std::string& path, const SimRank& rank, int rankNumber)
    {
        if (sqlite3_open(path.c_str(), &m_db) != SQLITE_OK)
            return fail(path);
        std::string sql = "PRAGMA journal_mode=OFF;PRAGMA synchronous=OFF;BEGIN;" + schema(rankNumber);
        const auto ns = [&](TimeNs t) { return std::to_string(kBaseNs + t + rank.skewNs); };
        constexpr int64_t pid = 40000;
        const std::string tid = std::to_string((pid << 32) | 1);
        int64_t seq = 100 + 17 * rankNumber; // the op names' sequence numbers: counted from each rank's own start
        int64_t opId = 0, taskId = 0;
        for (const SimStep& s : rank.steps)
            sql += "INSERT INTO PYTORCH_API VALUES('" + ns(s.startNs) + "','" + ns(s.endNs) + "'," + tid + ",NULL," +
                   str("ProfilerStep#" + std::to_string(s.id)) + ",0,0,NULL,NULL,NULL,50003);" +
                   "INSERT INTO STEP_TIME VALUES(" + std::to_string(s.id) + "," + ns(s.startNs) + "," + ns(s.endNs) +
                   ");";
        for (const SimTask& k : rank.tasks) {
            ++taskId;
            sql += "INSERT INTO TASK VALUES(" + ns(k.startNs) + "," + ns(k.endNs) + "," + std::to_string(rankNumber) +
                   ",4294967295," + std::to_string(taskId) + "," + std::to_string(pid) + "," + str("KERNEL_AICORE") +
                   ",0,2," + std::to_string(taskId) + ",4294967295);" + "INSERT INTO COMPUTE_TASK_INFO VALUES(" +
                   str(kKernels[k.kernel]) + "," + std::to_string(taskId) + ",24,0," + str("AI_CORE") + "," +
                   str(kKernels[k.kernel]) + ",NULL,NULL,NULL,NULL,NULL,NULL,NULL);";
        }
        for (const SimColl& c : rank.colls) {
            const char* kind = c.combine ? "deepep_combine_" : "deepep_dispatch_";
            sql += "INSERT INTO COMMUNICATION_OP VALUES(" + str(kind + std::string("_") + std::to_string(seq++)) + "," +
                   ns(c.issueNs) + "," + ns(c.endNs) + ",NULL," + str(kGroup) + "," + std::to_string(++opId) +
                   ",0,0,NULL,NULL," + std::to_string(kTokensTimesHidden) + "," + str(kind) + ");";
        }
        const TimeNs first = rank.steps.front().startNs, last = rank.steps.back().endNs;
        sql += "INSERT INTO SESSION_TIME_INFO VALUES(" + ns(first) + "," + ns(last) + ");";
        for (const auto& [value, id] : m_strings)
            sql += "INSERT INTO STRING_IDS VALUES(" + std::to_string(id) + "," + quote(value) + ");";
        sql += "COMMIT;";
        return sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK ? QString() : fail(path);
    }

private:
    QString fail(const std::string& path) const
    {
        return QCoreApplication::translate("DemoWriter", "%1: cannot write the database (%2)")
            .arg(QString::fromStdString(path), QString::fromUtf8(m_db ? sqlite3_errmsg(m_db) : "out of memory"));
    }
    std::string str(const std::string& s)
    {
        const auto [it, added] = m_strings.emplace(s, static_cast<int64_t>(m_strings.size()) + 1);
        return std::to_string(it->second);
    }
    static std::string quote(const std::string& s)
    {
        std::string q = "'";
        for (char ch : s)
            q += ch == '\'' ? std::string("''") : std::string(1, ch);
        return q + "'";
    }
    // The tables of a torch_npu database (formats.md §2) that the demo fills.
    static std::string schema(int rankNumber)
    {
        const std::string r = std::to_string(rankNumber);
        return "CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY,value TEXT);"
               "CREATE TABLE META_DATA (name TEXT,value TEXT);"
               "INSERT INTO META_DATA VALUES('SCHEMA_VERSION','1.0.0');"
               "CREATE TABLE SESSION_TIME_INFO (startTimeNs INTEGER,endTimeNs INTEGER);"
               "CREATE TABLE RANK_DEVICE_MAP (rankId INTEGER, deviceId INTEGER);"
               "INSERT INTO RANK_DEVICE_MAP VALUES(" +
               r + "," + r +
               ");"
               "CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER, connectionId INTEGER, "
               "name INTEGER, sequenceNumber INTEGER, fwdThreadId INTEGER, inputDtypes INTEGER, inputShapes "
               "INTEGER, callchainId INTEGER, type INTEGER);"
               "CREATE TABLE STEP_TIME (id INTEGER, startNs INTEGER, endNs INTEGER);"
               "CREATE TABLE TASK (startNs INTEGER,endNs INTEGER,deviceId INTEGER,connectionId INTEGER,globalTaskId "
               "INTEGER,globalPid INTEGER,taskType INTEGER,contextId INTEGER,streamId INTEGER,taskId "
               "INTEGER,modelId INTEGER);"
               "CREATE TABLE COMPUTE_TASK_INFO (name INTEGER,globalTaskId INTEGER PRIMARY KEY,blockDim "
               "INTEGER,mixBlockDim INTEGER,taskType INTEGER,opType INTEGER,inputFormats INTEGER,inputDataTypes "
               "INTEGER,inputShapes INTEGER,outputFormats INTEGER,outputDataTypes INTEGER,outputShapes "
               "INTEGER,attrInfo INTEGER);"
               "CREATE TABLE COMMUNICATION_OP (opName INTEGER,startNs INTEGER,endNs INTEGER,connectionId INTEGER,"
               "groupName INTEGER,opId INTEGER PRIMARY KEY,relay INTEGER,retry INTEGER,dataType INTEGER,algType "
               "INTEGER,count NUMERIC,opType INTEGER);";
    }
    sqlite3* m_db = nullptr;
    std::map<std::string, int64_t> m_strings;
};

QString writeText(const fs::path& path, const std::string& text)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.close();
    return out ? QString()
               : QCoreApplication::translate("DemoWriter", "%1: cannot write the file")
                     .arg(QString::fromStdString(path.string()));
}

std::string runFolderName(int rank)
{
    char name[96];
    std::snprintf(name, sizeof name, "demo-node%d_%d_20250109081530%03d_ascend_pt", rank / 8, 40000 + rank, 100 + rank);
    return name;
}

ojson profilerInfo(const SimRank& rank, int rankNumber)
{
    ojson info;
    info["config"] = {{"common_config", {{"activities", {"ProfilerActivity.CPU", "ProfilerActivity.NPU"}}}},
                      {"experimental_config", {{"_profiler_level", "Level1"}, {"_export_type", "db"}}}};
    info["start_info"] = {{"syscnt_enable", true}, {"freq", 100}};
    info["end_info"] = {{"collectionTimeEnd", kBaseNs + rank.steps.back().endNs + rank.skewNs}};
    info["rank_id"] = rankNumber;
    return info;
}

// The step records of every DP rank (one per rank: DP attention), keyed by forward_ct = the step id.
ojson serverInfo(const std::vector<SimRank>& ranks)
{
    ojson states = ojson::array();
    for (const SimRank& rank : ranks) {
        ojson records = ojson::array();
        for (const SimStep& s : rank.steps)
            records.push_back({{"forward_ct", s.id},
                               {"bs", 8},
                               {"num_verify_tokens", 32},
                               {"step_gpu_ms", std::round(static_cast<double>(s.endNs - s.startNs) / 1e2) / 1e4}});
        states.push_back({{"dspark_info_record", {{"mode", "dspark"}, {"records", std::move(records)}}}});
    }
    return {{"internal_states", std::move(states)},
            {"tp_size", ranks.size()},
            {"dp_size", ranks.size()},
            {"ep_size", ranks.size()},
            {"speculative_algorithm", "DSPARK"}};
}

// What the analyses must find, from the true clock: per collective of the common window the last rank,
// by how much it was late, each rank's wait and transfer (docs/cluster.md for the definitions).
ojson groundTruth(const ClusterDemoOptions& o, const std::vector<SimRank>& ranks)
{
    ojson offsets = ojson::array();
    for (size_t r = 0; r < ranks.size(); ++r)
        offsets.push_back(
            {{"rank", r}, {"offset_ns", ranks[0].skewNs - ranks[r].skewNs}, {"skew_ns", ranks[r].skewNs}});
    std::vector<std::vector<const SimColl*>> window(ranks.size());
    for (size_t r = 0; r < ranks.size(); ++r)
        for (const SimColl& c : ranks[r].colls)
            if (c.step >= kFirstStep)
                window[r].push_back(&c);
    ojson colls = ojson::array();
    std::vector<TimeNs> waitTotal(ranks.size(), 0), transferTotal(ranks.size(), 0);
    for (size_t k = 0; k < window[0].size(); ++k) {
        size_t last = 0;
        for (size_t r = 1; r < ranks.size(); ++r)
            if (window[r][k]->issueNs > window[last][k]->issueNs)
                last = r;
        TimeNs before = INT64_MIN;
        for (size_t r = 0; r < ranks.size(); ++r)
            if (r != last)
                before = std::max(before, window[r][k]->issueNs);
        ojson members = ojson::array();
        for (size_t r = 0; r < ranks.size(); ++r) {
            const SimColl& c = *window[r][k];
            const TimeNs wait = std::clamp<TimeNs>(window[last][k]->issueNs - c.issueNs, 0, c.endNs - c.issueNs);
            waitTotal[r] += wait;
            transferTotal[r] += c.endNs - c.issueNs - wait;
            members.push_back({{"rank", r}, {"wait_ns", wait}, {"transfer_ns", c.endNs - c.issueNs - wait}});
        }
        const SimColl& c0 = *window[0][k];
        colls.push_back({{"ordinal", k},
                         {"kind", c0.combine ? "deepep_combine" : "deepep_dispatch"},
                         {"step", c0.step},
                         {"layer", c0.layer},
                         {"last_rank", last},
                         {"late_by_ns", window[last][k]->issueNs - before},
                         {"members", std::move(members)}});
    }
    ojson perRank = ojson::array();
    for (size_t r = 0; r < ranks.size(); ++r)
        perRank.push_back({{"rank", r}, {"wait_ns", waitTotal[r]}, {"transfer_ns", transferTotal[r]}});
    return {{"schema", "dspark-cluster-demo-ground-truth/1"},
            {"seed", o.seed},
            {"ranks", o.ranks},
            {"first_step", kFirstStep},
            {"group", kGroup},
            {"clock_offsets", std::move(offsets)},
            {"slow_rank", o.slowRank},
            {"slow_steps", {kFirstStep + o.slowFromStep, kFirstStep + o.slowToStep}},
            {"slow_extra_ns", o.slowExtraNs},
            {"per_rank", std::move(perRank)},
            {"collectives", std::move(colls)}};
}

} // namespace

ClusterDemoResult writeClusterDemo(const ClusterDemoOptions& options, const std::string& outDirIn)
{
    ClusterDemoResult result;
    std::error_code ec;
    const fs::path outDir = fs::absolute(fs::path(outDirIn), ec);
    result.outDir = outDir.string();
    if (outDirIn.empty() || (fs::exists(outDir, ec) && !fs::is_empty(outDir, ec))) {
        result.error = QCoreApplication::translate("DemoWriter", "%1: the output folder exists and is not empty")
                           .arg(QString::fromStdString(outDirIn));
        return result;
    }
    const std::vector<SimRank> ranks = simulate(options);
    for (size_t r = 0; r < ranks.size() && result.error.isEmpty(); ++r) {
        const fs::path run = outDir / runFolderName(static_cast<int>(r));
        fs::create_directories(run / "ASCEND_PROFILER_OUTPUT", ec);
        if (ec) {
            result.error = QCoreApplication::translate("DemoWriter", "%1: cannot create the folder (%2)")
                               .arg(QString::fromStdString(run.string()), QString::fromStdString(ec.message()));
            break;
        }
        const int rank = static_cast<int>(r);
        result.error = RankDb().write(
            (run / "ASCEND_PROFILER_OUTPUT" / ("ascend_pytorch_profiler_" + std::to_string(r) + ".db")).string(),
            ranks[r], rank);
        if (result.error.isEmpty())
            result.error = writeText(run / ("profiler_info_" + std::to_string(r) + ".json"),
                                     profilerInfo(ranks[r], rank).dump(1) + "\n");
        result.tasks += static_cast<int64_t>(ranks[r].tasks.size());
    }
    if (result.error.isEmpty())
        result.error = writeText(outDir / "server_info.json", serverInfo(ranks).dump(1) + "\n");
    if (result.error.isEmpty())
        result.error = writeText(outDir / "ground_truth.json", groundTruth(options, ranks).dump(1) + "\n");
    result.collectives = static_cast<int64_t>(options.steps) * options.layers * 2;
    return result;
}

} // namespace dspark::demo
