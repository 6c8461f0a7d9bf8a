#pragma once

// The 3-rank step of tests/cluster/tst_cross_rank_path.cpp (its cross-rank critical path worked out by
// hand there), shared with the cluster window's test.
#include "ClusterDbBuilder.h"

#include <QString>

namespace dspark::test::story {

constexpr TimeNs us = 1000;
inline const std::string kGroup = "ep_group";

// The story (µs on the true clock; every rank's step 1 starts at 0). Rank 1 computes its gate until 400
// and reaches the dispatch last (at 410); ranks 0 and 2 wait for it there. After the dispatch, rank 0's
// expert compute is longest, so it reaches the combine last (850) and rank 2 waits for it; rank 2's step
// ends last (1000), so the walk starts there:
//   rank 2  host gap 995–1000, Tail 910–995, idle 900–910, combine after its last member 850–900
//   → rank 0 (the combine's last member, at its issue 850): idle 840–850, Expert 510–840, idle 500–510,
//     dispatch after its last member 410–500
//   → rank 1 (the dispatch's last member, at 410): idle 400–410, Gate 110–400, idle 100–110, Attn 10–100,
//     idle 0–10.
// Collectives end together on every rank, so the clock offsets are the skews exactly.
inline QString writeStory(const QString& root)
{
    const TimeNs skew[3] = {0, 50 * us, -30 * us};
    const TimeNs stepEnd[3] = {990, 990, 1000};
    const TimeNs dispatchIssue[3] = {110, 410, 120}, combineIssue[3] = {850, 700, 720};
    const char* folders[3] = {"n0_1_20250101080000001_ascend_pt", "n1_2_20250101080000002_ascend_pt",
                              "n2_3_20250101080000003_ascend_pt"};
    for (int r = 0; r < 3; ++r) {
        dspark::test::ClusterDbBuilder b(r, skew[r]);
        b.step(1, 0, stepEnd[r] * us);
        b.collective("dispatch_" + std::to_string(7 + r), "dispatch", kGroup, 64, dispatchIssue[r] * us, 500 * us);
        b.collective("combine_" + std::to_string(8 + r), "combine", kGroup, 64, combineIssue[r] * us, 900 * us);
        b.kernel("Attn", 10 * us, 100 * us);
        if (r == 1)
            b.kernel("Gate", 110 * us, 400 * us);
        const TimeNs expertEnd[3] = {840, 690, 700}, tailEnd[3] = {960, 950, 995};
        b.kernel("Expert", 510 * us, expertEnd[r] * us);
        b.kernel("Tail", 910 * us, tailEnd[r] * us);
        const QString error = b.writeRunFolder(root + QLatin1Char('/') + QLatin1String(folders[r]));
        if (!error.isEmpty())
            return error;
    }
    return {};
}

} // namespace dspark::test::story
