#pragma once
// Hand-written Kineto traces for the "other runs" cases (docs/architecture.md, Profile::ensureRunRank):
// traces without distributedInfo all claim rank 0; those of one host process are one run, the others
// are runs of their own. Used by io.tst_separate_runs and cli.tst_steps_table_cli.
#include <QFile>
#include <QString>
#include <QTemporaryDir>
#include <QTest>

#include <string>

namespace dspark::test {

// A Kineto trace of one host process `pid` with one CPU op (10 µs) and one kernel (20 µs, 5 µs after the
// op) on stream 7, starting at `startUs` (µs, Kineto's clock). No distributedInfo: every such file claims
// rank 0. With `profilerStep` >= 0, a "ProfilerStep#<profilerStep>" span of 30 µs on the op's thread,
// from `startUs` on, holds both (the kernel ends at `startUs` + 25).
inline std::string kinetoTrace(int pid, double startUs, const std::string& kernel, int profilerStep = -1)
{
    const std::string ts = std::to_string(startUs), ts2 = std::to_string(startUs + 5);
    std::string step;
    if (profilerStep >= 0)
        step = R"(
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#)" +
               std::to_string(profilerStep) + R"(", "pid": )" + std::to_string(pid) + R"(, "tid": 1, "ts": )" + ts +
               R"(, "dur": 30},)";
    return R"({"schemaVersion": 1, "traceEvents": [)" + step + R"(
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": )" +
           std::to_string(pid) + R"(, "tid": 1, "ts": )" + ts + R"(, "dur": 10},
  {"ph": "X", "cat": "kernel", "name": ")" +
           kernel + R"(", "pid": 0, "tid": 7, "ts": )" + ts2 + R"(, "dur": 20, "args": {"device": 0, "stream": 7}}
]})";
}

inline void writeFile(const QTemporaryDir& dir, const QString& name, const std::string& text)
{
    QFile f(dir.filePath(name));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text.data(), static_cast<qint64>(text.size()));
}

// io.tst_separate_runs's folder: x1.json and x3.json are process 4242, two captures 1 s apart (one run,
// rank 0); x2.json is process 77 on another clock (another run: "rank 0 (x2.json)"). With `steps`, each
// file holds its ProfilerStep#1, #2, #3 (x1, x2, x3).
inline void writeSeparateRuns(const QTemporaryDir& dir, bool steps = false)
{
    writeFile(dir, QStringLiteral("x1.json"), kinetoTrace(4242, 1.7e15, "kernA", steps ? 1 : -1));
    writeFile(dir, QStringLiteral("x2.json"), kinetoTrace(77, 1000.0, "kernB", steps ? 2 : -1));
    writeFile(dir, QStringLiteral("x3.json"), kinetoTrace(4242, 1.7e15 + 1e6, "kernC", steps ? 3 : -1));
}

} // namespace dspark::test
