#include "compare/ConfigDiff.h"

#include "model/Profile.h"
#include "steps/StepRecords.h"
#include "util/BoundedJson.h"

#include <QCoreApplication>

#include <algorithm>
#include <regex>
#include <set>

namespace dspark {

namespace {

struct GroupText {
    const char* key;
    const char* label;
};
constexpr GroupText kGroups[kConfigGroupCount] = {
    {"code_commit", QT_TRANSLATE_NOOP("Compare", "Code commit")},
    {"checkpoint", QT_TRANSLATE_NOOP("Compare", "Checkpoint")},
    {"server_args", QT_TRANSLATE_NOOP("Compare", "Server arguments")},
    {"parallel_layout", QT_TRANSLATE_NOOP("Compare", "Parallel layout")},
    {"concurrency", QT_TRANSLATE_NOOP("Compare", "Concurrency")},
    {"input_output_length", QT_TRANSLATE_NOOP("Compare", "Input / output length")},
    {"dspark_config", QT_TRANSLATE_NOOP("Compare", "DSpark config")},
    {"graph_config", QT_TRANSLATE_NOOP("Compare", "Graph config")},
    {"deepep_mode", QT_TRANSLATE_NOOP("Compare", "DeepEP mode")},
    {"profiler_config", QT_TRANSLATE_NOOP("Compare", "Profiler config")},
    {"device", QT_TRANSLATE_NOOP("Compare", "Device")},
};

// A value longer than this is summarised (length and a hash): a config value is a setting, not data.
constexpr size_t kMaxValueChars = 512;

std::string boundedValue(std::string v)
{
    if (v.size() <= kMaxValueChars)
        return v;
    uint64_t h = 1469598103934665603ull; // FNV-1a
    for (unsigned char c : v)
        h = (h ^ c) * 1099511628211ull;
    char buf[64];
    std::snprintf(buf, sizeof buf, "<%zu chars, fnv %016llx>", v.size(), static_cast<unsigned long long>(h));
    return buf;
}

template <typename T> std::string joinSet(const std::set<T>& values)
{
    std::string out;
    for (const T& v : values) {
        if (!out.empty())
            out += ",";
        if constexpr (std::is_same_v<T, std::string>)
            out += v.empty() ? "?" : v;
        else
            out += std::to_string(v);
    }
    return out;
}

void readRecords(const StepRecordSet& set, RunConfig& config)
{
    std::set<std::string> modes, envelopeModes, components, simulate;
    std::set<int64_t> bs, verify, gamma, draftTokens;
    for (const RankStepRecords& rank : set.ranks) {
        const StepRecordEnvelope& e = rank.envelope;
        if (e.present) {
            envelopeModes.insert(e.mode);
            if (e.gamma)
                gamma.insert(*e.gamma);
            if (e.verifyNumDraftTokens)
                draftTokens.insert(*e.verifyNumDraftTokens);
            std::string joined;
            for (const std::string& c : e.components)
                joined += (joined.empty() ? "" : ",") + c;
            components.insert(joined);
            simulate.insert(e.simulateAccLen);
        }
        for (const StepRecord& r : rank.records) {
            modes.insert(r.mode);
            if (r.bs)
                bs.insert(*r.bs);
            if (r.numVerifyTokens)
                verify.insert(*r.numVerifyTokens);
        }
    }
    const auto put = [&](const char* key, const auto& values) {
        if (!values.empty())
            config.values[key] = boundedValue(joinSet(values));
    };
    put("records.envelope.mode", envelopeModes);
    put("records.envelope.gamma", gamma);
    put("records.envelope.verify_num_draft_tokens", draftTokens);
    put("records.envelope.components", components);
    put("records.envelope.simulate_acc_len", simulate);
    put("records.modes_seen", modes);
    put("records.bs_seen", bs);
    put("records.verify_tokens_seen", verify);
    config.values["records.dp_ranks"] = std::to_string(set.ranks.size());
}

void readDevices(const Profile& profile, RunConfig& config)
{
    std::set<std::pair<int, int>> devices;
    std::string kind;
    for (const Lane& lane : profile.lanes)
        if (lane.info.kind == LaneKind::NpuStream || lane.info.kind == LaneKind::GpuStream) {
            devices.insert({lane.info.rankIndex, lane.info.deviceId});
            kind = lane.info.kind == LaneKind::NpuStream ? "npu" : "gpu";
        }
    if (devices.empty())
        return;
    config.values["device.kind"] = kind;
    config.values["device.count"] = std::to_string(devices.size());
}

} // namespace

const char* configGroupKey(ConfigGroup group)
{
    return kGroups[static_cast<size_t>(group)].key;
}

QString configGroupLabel(ConfigGroup group)
{
    return QCoreApplication::translate("Compare", kGroups[static_cast<size_t>(group)].label);
}

const char* fieldStateKey(FieldState state)
{
    switch (state) {
    case FieldState::Same: return "same";
    case FieldState::Different: return "different";
    case FieldState::Unknown: break;
    }
    return "unknown";
}

RunConfig readRunConfig(const Profile& profile)
{
    RunConfig config;
    for (const auto& [k, v] : profile.metadata)
        config.values.emplace(k, boundedValue(v));
    if (profile.stepRecords)
        readRecords(*profile.stepRecords, config);
    readDevices(profile, config);
    return config;
}

// First match wins; the order puts the specific variables before the catch-all server arguments. The
// server arguments a run's metadata repeats (profiler_metadata.server_args.*) group like server_info's.
std::optional<ConfigGroup> configGroupOf(const std::string& keyIn)
{
    static const std::string kMetadataArgs = "profiler_metadata.server_args.";
    const std::string key = keyIn.rfind(kMetadataArgs, 0) == 0 ? "server." + keyIn.substr(kMetadataArgs.size()) : keyIn;
    // (pattern, group); a pattern with no group (nullopt) marks keys that say nothing about the experiment.
    struct Rule {
        std::regex pattern;
        std::optional<ConfigGroup> group;
    };
    static const std::vector<Rule> rules = [] {
        const auto rx = [](const char* p) { return std::regex(p, std::regex::icase | std::regex::optimize); };
        return std::vector<Rule>{
            {rx(R"(^profiler_info\.(start_info|end_info|rank_id)|(^|\.)(pid|host|hostname|port|node_rank|rank)$|timestamp|_time(_ns|_us)?$|start_step$|output_dir|^server\.internal_states)"),
             std::nullopt},
            {rx(R"(^server\.version$|sglang_commit|code_commit|git_(commit|hash|rev)|(^|[._])(cann|torch_npu|torch|sglang|python)_?version$)"),
             ConfigGroup::CodeCommit},
            {rx(R"(^server\.(model_path|tokenizer_path|revision|served_model_name|load_format|dtype|quantization|kv_cache_dtype|speculative_draft_model_path|speculative_draft_model_revision)$|^profiler_metadata\.model\.)"),
             ConfigGroup::Checkpoint},
            {rx(R"(deepep|moe_a2a_backend|zbal)"), ConfigGroup::DeepEpMode},
            {rx(R"(^server\.((tp|dp|ep|pp|attn_tp|moe_dense_tp)_size|nnodes|enable_dp_attention|enable_dp_lm_head)$|^profiler_metadata\.layout\.|distributed_args|parallel_group_info|^records\.dp_ranks$)"),
             ConfigGroup::ParallelLayout},
            {rx(R"(graph)"), ConfigGroup::GraphConfig},
            {rx(R"(speculative|dspark|^records\.(envelope\.(mode|gamma|verify_num_draft_tokens|simulate_acc_len)|modes_seen|verify_tokens_seen)$)"),
             ConfigGroup::DsparkConfig},
            {rx(R"(max_running_requests|max_queued_requests|(^|[._])concurrency$|max_concurrency|request_rate|^records\.bs_seen$)"),
             ConfigGroup::Concurrency},
            {rx(R"(context_length|input_len|output_len|max_new_tokens)"), ConfigGroup::InputOutputLength},
        };
    }();
    if (key.rfind("device.", 0) == 0)
        return ConfigGroup::Device;
    for (const Rule& rule : rules)
        if (std::regex_search(key, rule.pattern))
            return rule.group;
    if (key.rfind("server.", 0) == 0)
        return ConfigGroup::ServerArgs;
    return ConfigGroup::ProfilerConfig; // profiler_info / profiler_metadata / msprof_db / trace / records.*
}

size_t ConfigDiff::differingGroups() const
{
    return size_t(std::count(groups.begin(), groups.end(), FieldState::Different));
}

std::vector<const ConfigField*> ConfigDiff::differing() const
{
    std::vector<const ConfigField*> out;
    for (const ConfigField& f : fields)
        if (f.state == FieldState::Different)
            out.push_back(&f);
    return out;
}

QString ConfigDiff::warning() const
{
    if (differingGroups() <= 1)
        return {};
    QStringList names;
    for (size_t g = 0; g < kConfigGroupCount; ++g)
        if (groups[g] == FieldState::Different)
            names << configGroupLabel(static_cast<ConfigGroup>(g));
    return QCoreApplication::translate("Compare", "Not a controlled experiment: %1 groups of settings differ (%2)")
        .arg(names.size())
        .arg(names.join(QStringLiteral(", ")));
}

ConfigDiff compareConfigs(const RunConfig& baseline, const RunConfig& changed)
{
    ConfigDiff diff;
    diff.groups.fill(FieldState::Unknown);
    std::set<std::string> keys;
    for (const auto& kv : baseline.values)
        keys.insert(kv.first);
    for (const auto& kv : changed.values)
        keys.insert(kv.first);
    for (const std::string& key : keys) {
        const std::optional<ConfigGroup> group = configGroupOf(key);
        if (!group)
            continue;
        ConfigField f;
        f.group = *group;
        f.key = key;
        if (auto it = baseline.values.find(key); it != baseline.values.end())
            f.baseline = it->second;
        if (auto it = changed.values.find(key); it != changed.values.end())
            f.changed = it->second;
        f.state = !f.baseline || !f.changed   ? FieldState::Unknown
                  : *f.baseline == *f.changed ? FieldState::Same
                                              : FieldState::Different;
        FieldState& g = diff.groups[size_t(f.group)];
        if (f.state == FieldState::Different || (f.state == FieldState::Same && g == FieldState::Unknown))
            g = f.state;
        diff.fields.push_back(std::move(f));
    }
    std::stable_sort(diff.fields.begin(), diff.fields.end(),
                     [](const ConfigField& a, const ConfigField& b) { return a.group < b.group; });
    return diff;
}

ConfigDiff compareConfigs(const Profile& baseline, const Profile& changed)
{
    return compareConfigs(readRunConfig(baseline), readRunConfig(changed));
}

} // namespace dspark
