#pragma once

// Down to the kernels: for a matched step pair, the two steps' device tasks aligned per stream by an
// order-aware sequence alignment of their names (Myers' O(ND) difference algorithm on interned name ids),
// not by position, which mis-pairs everything after one inserted kernel.

#include "analysis/StageBands.h"
#include "model/Profile.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace dspark {

struct StepAnalysis;

// Matched index pairs of two sequences, in order; the rest of each side is "only in that side".
struct SequenceAlignment {
    std::vector<std::pair<uint32_t, uint32_t>> matches; // (index in a, index in b), both increasing
    size_t editDistance = 0; // insertions + deletions (when not fellBack: the least possible)
    bool fellBack = false;   // the bound was passed: the middle was paired by occurrence of each name
};
// Myers' diff of `a` and `b` (common prefix and suffix taken off first). At most `maxEditDistance`
// edits are searched (memory ~ D² / 2 ints: 2,048 → 8 MB; time O((N + M)·D)); past it the middle is paired by the k-th
// occurrence of each name in order (a longest increasing run of those pairs), and fellBack is set.
SequenceAlignment alignSequences(std::span<const uint32_t> a, std::span<const uint32_t> b,
                                 size_t maxEditDistance = 2048);

enum class AlignedKind : uint8_t { Matched, BaselineOnly, ChangedOnly };
const char* alignedKindKey(AlignedKind k); // "matched", "baseline_only", "changed_only"

struct AlignedTask {
    AlignedKind kind = AlignedKind::Matched;
    std::string name;
    EventRef baseline, changed;           // invalid on the side that has no such task
    TimeNs baselineNs = 0, changedNs = 0; // durations (0 on the missing side)
    TimeNs deltaNs() const { return changedNs - baselineNs; }
};

struct StreamAlignment {
    int64_t baselineStreamId = -1, changedStreamId = -1; // -1: the stream exists in one run only
    std::vector<AlignedTask> tasks;                      // in alignment order
    size_t matched = 0, baselineOnly = 0, changedOnly = 0;
    bool fellBack = false;
};

struct KernelAlignment {
    std::vector<StreamAlignment> streams; // paired by stream id, then the rest by task count
    // Over every stream: matched tasks by deltaNs, largest regression first; tasks only in one run.
    std::vector<AlignedTask> regressions;
    std::vector<AlignedTask> onlyBaseline, onlyChanged;
    TimeNs matchedDeltaNs = 0; // Σ delta of the matched tasks
    bool fellBack = false;
};

struct KernelAlignOptions {
    size_t maxEditDistance = 2048; // per stream
    std::optional<Stage> stage;    // alignKernels: only the tasks of this stage (e.g. the verify graph)
};

// The device tasks of each step (the tasks its stage bands hold) aligned per stream.
KernelAlignment alignKernels(const Profile& baseline, const StepAnalysis& baselineStep, const Profile& changed,
                             const StepAnalysis& changedStep, const KernelAlignOptions& options = {});
// Any two sets of device tasks (each in any order) aligned per stream.
KernelAlignment alignTasks(const Profile& baseline, std::span<const EventRef> baselineTasks, const Profile& changed,
                           std::span<const EventRef> changedTasks, const KernelAlignOptions& options = {});
// Every device task of the profile that starts in [fromNs, toNs): a profile without steps aligned whole.
std::vector<EventRef> deviceTasksIn(const Profile& profile, TimeNs fromNs, TimeNs toNs);

} // namespace dspark
