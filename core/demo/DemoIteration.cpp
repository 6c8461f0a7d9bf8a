#include "demo/DemoIteration.h"

#include <iterator>

namespace dspark::demo {

const char* pathCategoryName(PathCategory c)
{
    // ground_truth.json keys, in enum order
    static const char* const names[] = {"draft",  "verify_compute", "exposed_comm", "accept_tp_sync",
                                        "commit", "host_gap",       "idle",         "prefill"};
    const auto i = static_cast<size_t>(c);
    return i < std::size(names) ? names[i] : "?";
}

void DemoIteration::clear()
{
    tasks.clear();
    ops.clear();
    connections.clear();
    calls.clear();
    blocks.clear();
    commOps.clear();
    commTasks.clear();
    deepep.clear();
    record = nullptr;
    groundTruth = nullptr;
    anomalies.clear();
    anomalyDetails.clear();
}

} // namespace dspark::demo
