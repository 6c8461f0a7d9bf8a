#pragma once

#include "analysis/AnalysisRules.h"
#include "analysis/StageBands.h"
#include "io/ProfilerCsv.h"
#include "model/Profile.h"

#include <QString>

#include <string>
#include <vector>

namespace dspark {

// Where the kernel figures came from.
enum class KernelSource : uint8_t {
    Timeline,         // the device tasks of the loaded timeline
    KernelDetailsCsv, // the text export's kernel_details.csv (the timeline has no device kernels)
};
const char* kernelSourceKey(KernelSource source); // "timeline", "kernel_details_csv"

// What to summarise: device kernels (EventKind::Kernel) and communication operations (CommOp) that
// start in [fromNs, toNs) on one rank (-1: all). With `bands` (a DSpark step's stage bands) the kernels
// are also summed by stage.
struct KernelQuery {
    TimeNs fromNs = INT64_MIN;
    TimeNs toNs = INT64_MAX;
    int rankIndex = -1;
    std::optional<int64_t> step; // for kernel_details.csv: its Step Id (the timeline uses the window)
    const StepBands* bands = nullptr;
};

// Figures of a set of kernel instances (whole durations, ns). Percentiles are nearest-rank.
struct KernelFigures {
    uint64_t count = 0;
    TimeNs totalNs = 0;
    TimeNs p50Ns = 0, p90Ns = 0, maxNs = 0;
    double share = 0; // of the device time (Σ of every summarised instance)
    double meanNs() const { return count ? static_cast<double>(totalNs) / static_cast<double>(count) : 0.0; }
};

struct KernelRow {
    std::string name;
    std::string core;    // the accelerator core / task class: "AI Core", "AI Vector", "HCCL", ...
    uint32_t nameId = 0; // into Profile::strings (0 for a CSV source)
    KernelFigures figures;
};
struct KernelGroupRow {
    std::string key; // a core (byCore) or a stage key (byStage)
    KernelFigures figures;
};
struct KernelStageRow {
    Stage stage = Stage::Other;
    std::string name;
    KernelFigures figures;
};

struct KernelSummary {
    KernelSource source = KernelSource::Timeline;
    QString sourcePath;                 // the CSV read, when source is KernelDetailsCsv
    TimeNs deviceNs = 0;                // Σ durations of every instance summarised
    std::vector<KernelRow> kernels;     // total descending
    std::vector<KernelGroupRow> byCore; // total descending
    std::vector<KernelGroupRow> byStage;
    std::vector<KernelStageRow> byStageKernel; // (stage, kernel), stage order then total descending
    QString note;                              // what could not be done (a CSV that could not be read), or empty
};

// The accelerator core a task type names ("AI_VECTOR_CORE" → "AI Vector"; unknown types as written).
// These labels are what `kernels --json` prints; coreText() is the same in the user's language.
std::string coreLabel(std::string_view taskType);
QString coreText(const std::string& core);

// A kernel_details.csv read once, for several summaries of one profile (the steps of a profile).
struct KernelDetails {
    QString path; // empty: the profile has none
    std::vector<KernelDetailRow> rows;
    QString error; // the file could not be read
};
// The kernel_details.csv the profile's scan listed, read (path empty when none).
KernelDetails readListedKernelDetails(const Profile& profile);

// The summary from the timeline; where the timeline has no device kernel at all and the profile's
// folder holds a kernel_details.csv, from that file (said in `source`). The first form reads the file.
KernelSummary summarizeKernels(const Profile& profile, const KernelQuery& query,
                               const AnalysisRules& rules = AnalysisRules::builtin());
KernelSummary summarizeKernels(const Profile& profile, const KernelQuery& query, const AnalysisRules& rules,
                               const KernelDetails& details);
// The summary of a kernel_details.csv alone (the rows of `query.step`, else those starting in the range).
KernelSummary summarizeKernelDetailsCsv(const QString& path, const KernelQuery& query);
KernelSummary summarizeKernelDetails(const KernelDetails& details, const KernelQuery& query);

// The path of a kernel_details.csv (step_trace_time.csv) the profile's scan listed, or empty.
QString listedProfilerCsv(const Profile& profile, const char* fileName);

} // namespace dspark
