#pragma once

#include "demo/DemoIteration.h"
#include "demo/DemoRandom.h"

#include <nlohmann/json.hpp>

#include <array>
#include <string>
#include <unordered_map>
#include <vector>

namespace dspark::demo {

inline constexpr const char* DemoSimulatorVersion = "dspark-demo-sim/1";

// What the changed run of the comparison pair changes (docs/demo.md §9). The defaults are the single
// demo, whose files must stay byte-identical.
struct DemoVariant {
    int verifyLen = 4;             // verify positions of a request: the draft block (gamma) + 1
    double verifyCommFactor = 1.0; // DeepEP transfer time in the verify graph (a bigger block sends more)
    bool swapKernels = false;      // DsparkTreeMask inserted first in the verify graph, its ArgMaxWithValue removed
    int maxRunningRequests = 144;
    bool serverArgs = false; // server_info.json also carries the server arguments (the pair's runs)
};

struct DemoOptions {
    int steps = 24;    // scheduler iterations of the scenario (--steps)
    uint64_t seed = 7; // jitter seed (--seed)
    int scale = 1;     // the scenario is repeated this many times (--scale)
    bool traceJson = false;
    DemoVariant variant;
};

// Kernel catalogue entry (COMPUTE_TASK_INFO / trace names).
struct DemoKernel {
    const char* name;
    TaskKind kind;
    const char* torchOp; // PYTORCH_API op of an eager launch
    const char* aclApi;  // CANN acl-level call wrapping the launch
    int blockDim;
    const char* shape; // input shapes, %T = tokens
};

// The discrete-event model of one DeepSeek-V4 + DSpark rank (docs/demo.md). Iterations come out one at
// a time (`next`), so millions of tasks never sit in memory together.
class DemoSimulator {
public:
    static constexpr int PreRecords = 4;  // decode records before start_step (not in the trace)
    static constexpr int PostRecords = 2; // after the last traced iteration
    static constexpr int64_t StartStep = 1200;
    static constexpr int ScenarioLength = 24;

    explicit DemoSimulator(const DemoOptions& options);

    int64_t tracedIterations() const { return m_traced; }
    // Fills `out` with the next iteration; false when every iteration has been produced.
    bool next(DemoIteration& out);

    TimeNs sessionStartNs() const { return m_sessionStart; } // valid once iteration 0 was produced
    TimeNs sessionEndNs() const { return m_sessionEnd; }     // valid once the last traced one was produced

    const std::string& string(int32_t id) const { return m_strings[static_cast<size_t>(id)]; }
    size_t stringCount() const { return m_strings.size(); }
    static const DemoKernel& kernel(int id);
    static int kernelCount();

    // The dspark_info_record envelope (without records) and the run's metadata.
    nlohmann::ordered_json recordEnvelope() const;
    nlohmann::ordered_json profilerMetadata() const;

private:
    struct Request {
        std::string rid;
        int poolIndex = 0;
        int64_t prefixLen = 0;
        double acceptP = 0.7;
    };
    struct Launcher {
        bool active = false;
        int64_t connectionId = 0;
        TimeNs callEnd = 0;
        TimeNs ready = 0;
        uint32_t modelId = 4294967295u;
    };

    int32_t intern(const std::string& s);
    TimeNs ns(double us) const;
    void host(double us, double sigma = 0.12);
    int beginSpan(int32_t name);
    int beginSpan(const char* name) { return beginSpan(intern(name)); }
    void endSpan(int op);
    int calls(int32_t name, int type, double us, TimeNs start = -1);
    void linkOp(int op, int64_t connectionId);
    int32_t addTask(int stream, TaskKind kind, Stage stage, TimeNs duration, int64_t connectionId, TimeNs callEnd,
                    TimeNs ready, int32_t waitFor = -1, WaitRole role = WaitRole::None);
    int32_t kernel(int stream, int k, double baseUs, int tokens, Stage stage, double factor = 1.0);
    int32_t recordEvent(int stream, Stage stage, int32_t spanName = -1);
    int32_t waitEvent(int stream, int32_t record, WaitRole role, Stage stage);
    int32_t memcpy(int stream, Stage stage, int64_t bytes);
    void syncStream(int stream);

    void draftPass(int pass, int tokens, Stage stage, bool lowLatency);
    void attention(int tokens, Stage stage, bool draft, double factor);
    void moeLayer(Stage stage, int layer, int pass, int tokens, bool lowLatency, double commFactor,
                  double computeFactor = 1.0);
    void verifyGraph(int graphKey, double prefixFactor, double commFactor);
    void specTpSync(double skewExtraUs, int op);
    void simulateDecode();
    void simulateExtend();
    void finish();
    void anomaly(const char* kind, std::string detail);
    void criticalPath(std::array<TimeNs, size_t(PathCategory::Count)>& out) const;
    nlohmann::ordered_json stepGroundTruth();

    static int bucketOf(int tokens);

    DemoOptions m_options;
    DemoRandom m_rng;
    int64_t m_traced = 0;
    int64_t m_index = 0; // next iteration index (starts at -PreRecords)
    TimeNs m_now = 0;
    TimeNs m_sessionStart = 0;
    TimeNs m_sessionEnd = 0;
    std::array<TimeNs, 8> m_streamEnd{};
    std::array<int32_t, 8> m_streamLast{};
    std::array<uint32_t, 8> m_taskIds{};
    int64_t m_nextConnection = 1000;
    int64_t m_nextLinkId = 0;
    int64_t m_nextOpId = 1;
    Launcher m_graph;
    std::vector<int> m_spanStack;
    std::vector<std::string> m_strings;
    std::unordered_map<std::string, int32_t> m_stringIds;
    std::unordered_map<int64_t, int32_t> m_shapeIds;

    std::vector<Request> m_requests;
    int m_nextRequest = 0;
    TimeNs m_prevDrainEnd = -1; // end of the previous decode iteration's drain (-1: none)
    bool m_prevWasDecode = false;
    double m_stepFactor = 1.0;

    // The iteration being built and its landmarks.
    DemoIteration* m_it = nullptr;
    struct Marks {
        int32_t stepStart = -1, stepEnd = -1, draftStart = -1, draftEnd = -1, verifyStart = -1, verifyEnd = -1;
        int32_t budgetCopy = -1, firstReplay = -1, buildOut = -1, commitFirst = -1, commitLast = -1;
        int32_t publishCopy = -1, tpIssue = -1, tpHook = -1;
        int32_t firstReplayIndex = -1, lastReplayIndex = -1; // task index range of the replay
        int verifySpan = -1, replayCall = -1;
        TimeNs drainEnd = 0;
        int draftPasses = 0;
        int graphKey = 0;
        int verifyLen = 0;
        int numVerifyTokens = 0;
        int dpSynced = 0;
        std::vector<int> verifyLens, accLens;
        std::vector<int64_t> prefixLens;
    } m_marks;
};

} // namespace dspark::demo
