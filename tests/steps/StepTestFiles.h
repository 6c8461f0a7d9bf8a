#pragma once

// Helpers shared by the step-record tests: writing input files, and the `steps --json` key contract.
#include <QFile>
#include <QTest>

#include <set>
#include <string>

namespace dspark::test {

inline void writeFile(const QString& path, const QByteArray& text)
{
    QFile f(path);
    QVERIFY2(f.open(QIODevice::WriteOnly), qPrintable(path));
    f.write(text);
}

// The keys every step object of `steps --json` carries (the contract).
inline const std::set<std::string>& stepsJsonContract()
{
    static const std::set<std::string> keys = {"rank",
                                               "forward_ct",
                                               "bs",
                                               "mode",
                                               "num_verify_tokens",
                                               "verify_tokens_local",
                                               "verify_tokens_dp_synced",
                                               "verify_tokens_graph_key",
                                               "step_cpu_ms",
                                               "step_gpu_ms",
                                               "draft_gpu_ms",
                                               "target_verify_gpu_ms",
                                               "unattributed_ms",
                                               "mean_commit_len",
                                               "total_commit_len",
                                               "mean_correct_drafts",
                                               "acceptance_rate",
                                               "effective_tpot_ms",
                                               "effective_tpot_cpu_ms",
                                               "anomaly",
                                               "anomaly_causes"};
    return keys;
}

} // namespace dspark::test
