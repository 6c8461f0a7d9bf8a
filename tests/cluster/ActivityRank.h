#pragma once

// A rank written by the test (ClusterDbBuilder) whose busy / communicating / idle intervals are chosen
// here, so that its activity bins (RankActivityBins, 2000 bins of 1 µs over its 2 ms) are known by hand.
// Used by tests/cluster/tst_rank_activity.cpp and tests/ui/tst_rank_strip.cpp.
#include "ClusterDbBuilder.h"

namespace dspark::test {

struct ActivityStory {
    static constexpr TimeNs us = 1000;
    // On the rank's own clock, from its first event (ClusterDbBuilder::kBase + skew), in µs:
    // [0, 500) computing (MatMul); the all-reduce [400, 900): communicating, but only [500, 900) not
    // overlapped by compute; [900, 1200) idle; [1200.25, 1200.75) a short kernel (bin 1200: half busy);
    // [1300, 1700) idle; [1700, 1800) computing; [1900, 1950.5) another all-reduce (bin 1950: half);
    // the rest idle. The one step spans [0, 2000), its end the rank's last event.
    static QString write(const QString& folder, int rank, TimeNs skewNs)
    {
        ClusterDbBuilder b(rank, skewNs);
        b.step(1, 0, 2000 * us);
        b.kernel("MatMul", 0, 500 * us);
        b.collective("hcom_allReduce__7_0_1", "hcom_allReduce_", "group_a", 64, 400 * us, 900 * us);
        b.kernel("Add", 1200 * us + 250, 1200 * us + 750);
        b.kernel("MatMul", 1700 * us, 1800 * us);
        b.collective("hcom_allReduce__8_0_1", "hcom_allReduce_", "group_a", 64, 1900 * us, 1950 * us + 500);
        return b.writeRunFolder(folder);
    }
};

} // namespace dspark::test
