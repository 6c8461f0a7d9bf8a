#pragma once

// Is a comparison a controlled experiment? What the two runs say about their own configuration
// (formats.md §5: server_info.json, profiler_info_*.json, profiler_metadata.json, the step records'
// envelope and fields, the device), grouped by the experiment variables that must be held fixed.

#include <QString>

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dspark {

class Profile;

// The experiment variables (primer §6), in report order.
enum class ConfigGroup : uint8_t {
    CodeCommit,        // SGLang version / commit, CANN and torch_npu versions
    Checkpoint,        // model and draft model paths, revision, dtype, quantization
    ServerArgs,        // any other server argument
    ParallelLayout,    // tp / dp / ep / pp sizes, nodes, DP attention
    Concurrency,       // max running requests, the batch sizes the records saw
    InputOutputLength, // context / input / output lengths
    DsparkConfig,      // speculative_* / dspark settings, the records' envelope, modes, verify widths
    GraphConfig,       // graph capture settings and buckets
    DeepEpMode,        // deepep_mode, deepep config, MoE all-to-all backend
    ProfilerConfig,    // profiler_info config, profiler_metadata (environment, user metadata)
    Device,            // accelerator kind, device count
    Count
};
constexpr size_t kConfigGroupCount = static_cast<size_t>(ConfigGroup::Count);
const char* configGroupKey(ConfigGroup group); // the JSON key, e.g. "deepep_mode"
QString configGroupLabel(ConfigGroup group);   // translated

enum class FieldState : uint8_t { Same, Different, Unknown };
const char* fieldStateKey(FieldState state); // "same", "different", "unknown"

// What one run says about itself: flattened keys ("server.tp_size", "profiler_info.config…",
// "records.gamma", "device.count") → value text.
struct RunConfig {
    std::map<std::string, std::string> values;
    std::vector<QString> warnings; // a config file that could not be read (named)
};
// Reads the run's configuration: the profile's metadata (with the server arguments the step record
// loader kept of server_info.json: "server.*", so that no file is read again), values bounded, the step
// records' envelope and the values they saw, and the device lanes. Never reads or writes a file.
RunConfig readRunConfig(const Profile& profile);

// The group a configuration key belongs to, nullopt for keys that differ between any two runs and say
// nothing about the experiment (start / end times, pids, ranks, output paths).
std::optional<ConfigGroup> configGroupOf(const std::string& key);

struct ConfigField {
    ConfigGroup group = ConfigGroup::ServerArgs;
    std::string key;
    std::optional<std::string> baseline, changed; // nullopt: that run does not say
    FieldState state = FieldState::Unknown;       // Unknown when either side does not say
};

struct ConfigDiff {
    std::vector<ConfigField> fields;                    // by (group, key)
    std::array<FieldState, kConfigGroupCount> groups{}; // Different if a field differs, else Same if one is
                                                        // known on both sides, else Unknown
    size_t differingGroups() const;
    std::vector<const ConfigField*> differing() const; // the fields that differ
    // One line when more than one group differs ("not a controlled experiment: …"), else empty.
    QString warning() const;
};

ConfigDiff compareConfigs(const RunConfig& baseline, const RunConfig& changed);
ConfigDiff compareConfigs(const Profile& baseline, const Profile& changed);

} // namespace dspark
