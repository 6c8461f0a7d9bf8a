#pragma once

// Helpers shared by the demo tests: write a demo into a temporary folder, read its JSON files.
#include "demo/DemoNames.h"
#include "demo/DemoWriter.h"

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QString>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <memory>

namespace dspark::test {

struct WrittenDemo {
    std::unique_ptr<QTemporaryDir> tmp;
    QString dir;
    demo::DemoResult result;
    nlohmann::json truth; // ground_truth.json

    QString path(const QString& relative) const { return QDir(dir).filePath(relative); }
    QString runFolder() const { return path(QString::fromLatin1(demo::names::RunFolder)); }
    QString dbPath() const
    {
        return runFolder() + QStringLiteral("/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db");
    }
    QString tracePath() const { return runFolder() + QStringLiteral("/ASCEND_PROFILER_OUTPUT/trace_view.json"); }
    // The ground truth of one step (a null json when the step is not in it).
    const nlohmann::json& truthStep(int64_t forwardCt) const
    {
        for (const nlohmann::json& s : truth["steps"])
            if (s["forward_ct"].get<int64_t>() == forwardCt)
                return s;
        static const nlohmann::json none;
        return none;
    }
};

inline nlohmann::json readJsonFile(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return nlohmann::json();
    return nlohmann::json::parse(f.readAll().toStdString(), nullptr, false);
}

inline QByteArray readBytes(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Writes the demo (into <tmp>/demo); check result.error before using it.
inline WrittenDemo writeTestDemo(int steps = 24, uint64_t seed = 7, int scale = 1, bool traceJson = true)
{
    WrittenDemo d;
    d.tmp = std::make_unique<QTemporaryDir>();
    d.dir = d.tmp->filePath(QStringLiteral("demo"));
    demo::DemoOptions options;
    options.steps = steps;
    options.seed = seed;
    options.scale = scale;
    options.traceJson = traceJson;
    d.result = demo::writeDemo(options, d.dir.toStdString());
    if (d.result.error.isEmpty())
        d.truth = readJsonFile(d.path(QStringLiteral("ground_truth.json")));
    return d;
}

} // namespace dspark::test
