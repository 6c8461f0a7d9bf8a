#pragma once

// Three ranks written by the test whose loaded sizes differ from what their files say: rank 0 holds
// 20,000 kernels (20,003 event rows), ranks 1 and 2 four rows each, and rank 1's database carries 4 MB of
// padding in a table the loader never reads (its file is the largest). Used by
// tests/cluster/tst_cluster_budget.cpp and tests/ui/tst_cluster_load.cpp.
#include "ClusterDbBuilder.h"

#include <QDir>
#include <QString>

#include <sqlite3.h>

namespace dspark::test {

struct BudgetStory {
    static constexpr TimeNs us = 1000;
    static constexpr uint64_t kRank0Rows = 20'003; // TASK 20,000 + PYTORCH_API, STEP_TIME, COMMUNICATION_OP
    static constexpr uint64_t kSmallRows = 4;      // TASK 1 + the same three

    static QString folder(const QString& root, int rank)
    {
        return QDir(root).filePath(QStringLiteral("n_%1_20250101080000001_ascend_pt").arg(rank));
    }
    static QString database(const QString& root, int rank)
    {
        return folder(root, rank) + QStringLiteral("/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_%1.db").arg(rank);
    }

    static QString write(const QString& root)
    {
        for (int r = 0; r < 3; ++r) {
            ClusterDbBuilder b(r, 0);
            b.step(1, 0, 100'000 * us);
            b.collective("hcom_allReduce__1_0_1", "hcom_allReduce_", "g", 8, 90'000 * us, 95'000 * us);
            const int kernels = r == 0 ? 20'000 : 1;
            for (int k = 0; k < kernels; ++k)
                b.kernel("MatMul", k * 4 * us, k * 4 * us + 3 * us);
            if (const QString e = b.writeRunFolder(folder(root, r)); !e.isEmpty())
                return e;
        }
        sqlite3* db = nullptr;
        if (sqlite3_open(database(root, 1).toUtf8().constData(), &db) != SQLITE_OK) {
            sqlite3_close(db);
            return QStringLiteral("cannot open rank 1's database");
        }
        const int rc = sqlite3_exec(db, "CREATE TABLE PADDING (b BLOB); INSERT INTO PADDING VALUES(zeroblob(4194304));",
                                    nullptr, nullptr, nullptr);
        sqlite3_close(db);
        return rc == SQLITE_OK ? QString() : QStringLiteral("cannot pad rank 1's database");
    }
};

} // namespace dspark::test
