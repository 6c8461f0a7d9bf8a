#include "report/ProfileInfo.h"

namespace dspark {

nlohmann::json profileInfoJson(const Profile& profile)
{
    using nlohmann::json;
    json doc = json::object();
    doc["path"] = profile.rootPath;
    json files = json::array();
    for (const SourceFile& f : profile.files) {
        json jf = {{"path", f.path}, {"format", f.format}, {"loaded", f.loaded}, {"status", f.status()}};
        if (!f.note.empty())
            jf["note"] = f.note;
        if (!f.duplicateOf.empty())
            jf["duplicate_of"] = f.duplicateOf;
        files.push_back(std::move(jf));
    }
    doc["files"] = std::move(files);
    const ScanSummary& scan = profile.scan;
    doc["scan"] = {{"files_examined", scan.examined},
                   {"max_depth", scan.maxDepth},
                   {"max_files", scan.maxFiles},
                   {"stopped_at_depth", scan.stoppedAtDepth},
                   {"stopped_at_count", scan.stoppedAtCount},
                   {"raw_folders_not_read", scan.rawFolders}};

    json ranks = json::array();
    for (const RankInfo& r : profile.ranks)
        ranks.push_back({{"rank", r.rankNumber}, {"device", r.deviceId}, {"label", r.label}});
    doc["ranks"] = std::move(ranks);

    json lanes = json::array();
    for (const Lane& lane : profile.lanes) {
        const int rank = lane.info.rankIndex >= 0 && lane.info.rankIndex < static_cast<int>(profile.ranks.size())
                             ? profile.ranks[lane.info.rankIndex].rankNumber
                             : lane.info.rankIndex;
        json jl = {{"rank", rank},
                   {"process", lane.info.process},
                   {"name", lane.info.name},
                   {"kind", laneKindName(lane.info.kind)},
                   {"events", lane.size()}};
        if (lane.info.deviceId >= 0)
            jl["device"] = lane.info.deviceId;
        if (lane.info.streamId >= 0)
            jl["stream"] = lane.info.streamId;
        lanes.push_back(std::move(jl));
    }
    doc["lanes"] = std::move(lanes);

    const ProfileStats s = profile.stats();
    doc["events"] = s.events;
    doc["device_tasks"] = s.deviceTasks;
    doc["named_kernels"] = s.namedKernels;
    doc["comm_ops"] = s.commOps;
    doc["comm_tasks"] = s.commTasks;
    doc["host_events"] = s.hostEvents;
    doc["flows"] = s.flows;
    doc["host_to_device_links"] = s.hostToDevice;
    doc["counters"] = s.counters;
    doc["start_ns"] = profile.firstNs();
    doc["end_ns"] = profile.lastNs();
    json warnings = json::array();
    for (const QString& w : profile.warnings)
        warnings.push_back(w.toStdString());
    doc["warnings"] = std::move(warnings);
    return doc;
}

} // namespace dspark
