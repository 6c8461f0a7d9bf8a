#include "report/KernelsReport.h"

#include "report/StepsJson.h"

#include <QCoreApplication>

namespace dspark {

using ojson = nlohmann::ordered_json;

namespace {

ojson figuresJson(const KernelFigures& f)
{
    return {{"count", f.count},  {"total_ns", f.totalNs}, {"mean_ns", f.meanNs()}, {"p50_ns", f.p50Ns},
            {"p90_ns", f.p90Ns}, {"max_ns", f.maxNs},     {"share", f.share}};
}

QString ms(double ns)
{
    return QString::number(ns / 1e6, 'f', 3);
}
QString us(double ns)
{
    return QString::number(ns / 1e3, 'f', 3);
}
QString percent(double share)
{
    return QString::number(share * 100.0, 'f', 1) + QStringLiteral(" %");
}

// The figure columns of a table for people, after the row's own key columns.
void appendFigures(std::vector<QString>& row, const KernelFigures& f)
{
    row.insert(row.end(), {QString::number(f.count), ms(f.totalNs), us(f.meanNs()), us(f.p50Ns), us(f.p90Ns),
                           us(f.maxNs), percent(f.share)});
}
std::vector<QString> figureHeaders()
{
    return {QCoreApplication::translate("KernelsReport", "Count"),
            QCoreApplication::translate("KernelsReport", "Total (ms)"),
            QCoreApplication::translate("KernelsReport", "Mean (µs)"),
            QCoreApplication::translate("KernelsReport", "p50 (µs)"),
            QCoreApplication::translate("KernelsReport", "p90 (µs)"),
            QCoreApplication::translate("KernelsReport", "Max (µs)"),
            QCoreApplication::translate("KernelsReport", "Share")};
}

} // namespace

ojson kernelsJson(const KernelSummary& s, const KernelQuery& query)
{
    ojson doc;
    doc["source"] = kernelSourceKey(s.source);
    doc["source_path"] = s.sourcePath.isEmpty() ? ojson(nullptr) : ojson(s.sourcePath.toStdString());
    const bool ranged = query.fromNs != INT64_MIN || query.toNs != INT64_MAX;
    doc["range_ns"] = ranged ? ojson::array({query.fromNs, query.toNs}) : ojson(nullptr);
    doc["step"] = query.step ? ojson(*query.step) : ojson(nullptr);
    doc["device_ns"] = s.deviceNs;
    ojson kernels = ojson::array();
    for (const KernelRow& r : s.kernels) {
        ojson k = {{"name", r.name}, {"core", r.core}};
        k.update(figuresJson(r.figures));
        kernels.push_back(std::move(k));
    }
    doc["kernels"] = std::move(kernels);
    ojson cores = ojson::array();
    for (const KernelGroupRow& r : s.byCore) {
        ojson c = {{"core", r.key}};
        c.update(figuresJson(r.figures));
        cores.push_back(std::move(c));
    }
    doc["by_core"] = std::move(cores);
    if (query.bands) {
        ojson stages = ojson::array();
        for (const KernelGroupRow& r : s.byStage) {
            ojson c = {{"stage", r.key}};
            c.update(figuresJson(r.figures));
            stages.push_back(std::move(c));
        }
        doc["by_stage"] = std::move(stages);
        ojson stageKernels = ojson::array();
        for (const KernelStageRow& r : s.byStageKernel) {
            ojson c = {{"stage", stageKey(r.stage)}, {"name", r.name}};
            c.update(figuresJson(r.figures));
            stageKernels.push_back(std::move(c));
        }
        doc["by_stage_kernel"] = std::move(stageKernels);
    }
    if (!s.note.isEmpty())
        doc["note"] = s.note.toStdString();
    return doc;
}

std::string kernelsCsv(const KernelSummary& s)
{
    std::string out = "name,core,count,total_ns,mean_ns,p50_ns,p90_ns,max_ns,share\n";
    for (const KernelRow& r : s.kernels) {
        const KernelFigures& f = r.figures;
        for (const ojson& v : {ojson(r.name), ojson(r.core), ojson(f.count), ojson(f.totalNs), ojson(f.meanNs()),
                               ojson(f.p50Ns), ojson(f.p90Ns), ojson(f.maxNs)})
            out += csvField(v) + ",";
        out += csvField(ojson(f.share)) + "\n";
    }
    return out;
}

std::vector<std::vector<QString>> kernelRowsText(const std::vector<KernelRow>& rows)
{
    std::vector<QString> header = {QCoreApplication::translate("KernelsReport", "Kernel"),
                                   QCoreApplication::translate("KernelsReport", "Core")};
    const std::vector<QString> figures = figureHeaders();
    header.insert(header.end(), figures.begin(), figures.end());
    std::vector<std::vector<QString>> out = {header};
    for (const KernelRow& r : rows) {
        std::vector<QString> row = {QString::fromStdString(r.name), coreText(r.core)};
        appendFigures(row, r.figures);
        out.push_back(std::move(row));
    }
    return out;
}

std::vector<std::vector<QString>> kernelGroupRowsText(const std::vector<KernelGroupRow>& rows, const QString& keyHeader)
{
    std::vector<QString> header = {keyHeader};
    const std::vector<QString> figures = figureHeaders();
    header.insert(header.end(), figures.begin(), figures.end());
    std::vector<std::vector<QString>> out = {header};
    for (const KernelGroupRow& r : rows) {
        const QString core = coreText(r.key); // a stage key is kept as it is
        std::vector<QString> row = {core};
        appendFigures(row, r.figures);
        out.push_back(std::move(row));
    }
    return out;
}

QString kernelSourceText(const KernelSummary& s)
{
    if (s.source == KernelSource::KernelDetailsCsv)
        return QCoreApplication::translate("KernelsReport", "source: %1 (the timeline has no device kernels)")
            .arg(s.sourcePath);
    return QCoreApplication::translate("KernelsReport", "source: the timeline's device tasks");
}

ojson plainStepsJson(const Profile& profile, const PlainSteps& steps)
{
    ojson doc;
    doc["source"] = stepSourceKey(steps.source);
    ojson list = ojson::array();
    for (const PlainStep& s : steps.steps) {
        ojson j;
        j["rank"] = rankNumberOf(profile, s.window.rankIndex);
        j["step"] = s.window.forwardCt;
        j["window_ns"] = ojson::array({s.window.startNs, s.window.endNs});
        j["device_end_ns"] = s.deviceEndNs;
        j["wall_ns"] = s.window.wallNs();
        j["device_busy_ns"] = s.deviceBusyNs;
        j["computing_ns"] = s.computingNs;
        j["communication_not_overlapped_ns"] = s.commNotOverlappedNs;
        j["free_ns"] = s.freeNs;
        ojson path = ojson::object();
        for (size_t c = 0; c < kPlainPathCategoryCount; ++c)
            path[plainPathKey(static_cast<PlainPathCategory>(c))] = s.criticalPathNs[c];
        j["critical_path_ns"] = std::move(path);
        ojson top = ojson::array();
        for (const KernelRow& k : s.topKernels)
            top.push_back({{"name", k.name}, {"count", k.figures.count}, {"total_ns", k.figures.totalNs}});
        j["top_kernels"] = std::move(top);
        j["anomaly"] = s.anomaly.isEmpty() ? ojson(nullptr) : ojson(s.anomaly.toStdString());
        list.push_back(std::move(j));
    }
    doc["steps"] = std::move(list);
    return doc;
}

std::string plainStepsCsv(const Profile& profile, const PlainSteps& steps)
{
    std::string out = "source,rank,step,start_ns,end_ns,wall_ns,device_busy_ns,computing_ns,"
                      "communication_not_overlapped_ns,free_ns";
    for (size_t c = 0; c < kPlainPathCategoryCount; ++c)
        out += std::string(",critical_path_") + plainPathKey(static_cast<PlainPathCategory>(c)) + "_ns";
    out += ",top_kernel,anomaly\n";
    for (const PlainStep& s : steps.steps) {
        std::vector<ojson> cells = {stepSourceKey(steps.source),
                                    rankNumberOf(profile, s.window.rankIndex),
                                    s.window.forwardCt,
                                    s.window.startNs,
                                    s.window.endNs,
                                    s.window.wallNs(),
                                    s.deviceBusyNs,
                                    s.computingNs,
                                    s.commNotOverlappedNs,
                                    s.freeNs};
        for (TimeNs v : s.criticalPathNs)
            cells.push_back(v);
        cells.push_back(s.topKernels.empty() ? ojson(nullptr) : ojson(s.topKernels.front().name));
        cells.push_back(s.anomaly.isEmpty() ? ojson(nullptr) : ojson(s.anomaly.toStdString()));
        for (size_t k = 0; k < cells.size(); ++k)
            out += (k ? "," : "") + csvField(cells[k]);
        out += "\n";
    }
    return out;
}

std::vector<std::vector<QString>> plainStepsRowsText(const Profile& profile, const PlainSteps& steps)
{
    std::vector<std::vector<QString>> out = {{
        QCoreApplication::translate("KernelsReport", "Rank"),
        QCoreApplication::translate("KernelsReport", "Step"),
        QCoreApplication::translate("KernelsReport", "Wall (ms)"),
        QCoreApplication::translate("KernelsReport", "Device busy (ms)"),
        QCoreApplication::translate("KernelsReport", "Computing (ms)"),
        QCoreApplication::translate("KernelsReport", "Comm. not overlapped (ms)"),
        QCoreApplication::translate("KernelsReport", "Free (ms)"),
        QCoreApplication::translate("KernelsReport", "Path compute / comm / host / idle (ms)"),
        QCoreApplication::translate("KernelsReport", "Top kernel"),
        QCoreApplication::translate("KernelsReport", "Anomaly"),
    }};
    for (const PlainStep& s : steps.steps) {
        QStringList path;
        for (TimeNs v : s.criticalPathNs)
            path << ms(v);
        out.push_back({rankColumnText(profile, s.window.rankIndex), QString::number(s.window.forwardCt),
                       ms(s.window.wallNs()), ms(s.deviceBusyNs), ms(s.computingNs), ms(s.commNotOverlappedNs),
                       ms(s.freeNs), path.join(QStringLiteral(" / ")),
                       s.topKernels.empty() ? QStringLiteral("-") : QString::fromStdString(s.topKernels.front().name),
                       s.anomaly});
    }
    return out;
}

} // namespace dspark
