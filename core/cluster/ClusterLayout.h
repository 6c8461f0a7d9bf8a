#pragma once

#include <QString>
#include <QStringList>

#include <cstdint>
#include <string>
#include <vector>

namespace dspark {

// One rank of a cluster folder: what to open for it.
struct ClusterRank {
    int rankNumber = -1;
    std::string path;        // the run folder (*_ascend_pt, PROF_*) or the single file to load; "" = summary only
    std::string summaryPath; // a `summarize` output for this rank, "" when none
    uint64_t bytes = 0;      // size of its timeline files (the load's progress and memory estimate)
};

// Something found in the folder that is not opened, and why.
struct ClusterSkipped {
    std::string path;
    std::string reason;
};

// The ranks of a folder (formats.md §6): torch_npu run folders with their rank from profiler_info_<r>.json
// or ascend_pytorch_profiler_<r>.db, msprof PROF_* folders, Kineto traces (distributedInfo.rank) and
// SGLang GPU traces (…-TP-<tp>…), and rank summaries. Of several runs of one rank the newest (by the
// time stamp in the folder name, else the modification time) is opened, the others are listed with a
// warning; two sources of one rank that cannot be told apart warn too, and the first in path order is
// opened. Never merged.
struct ClusterLayout {
    std::string root;
    std::vector<ClusterRank> ranks; // by rank number
    std::vector<ClusterSkipped> skipped;
    QStringList warnings;
    QString error; // the folder cannot be scanned
    bool isCluster() const { return ranks.size() >= 2; }
};

ClusterLayout findClusterRanks(const std::string& path);

// The rank a SGLang GPU trace's name gives (…-TP-<tp>[-DP-<dp>][-PP-<pp>][-EP-<ep>]….trace.json[.gz]):
// its TP rank, which SGLang counts over the whole job; -1 when the name has none.
int rankFromSglangTraceName(const std::string& fileName);

} // namespace dspark
