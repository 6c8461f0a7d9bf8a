#include "cli/CliCommand.h"

#include "common/KindNames.h"
#include "io/FileFormat.h"
#include "io/ProfileLoader.h"
#include "model/Lane.h"
#include "report/ProfileInfo.h"
#include "util/BoundedJson.h"

#include <QCoreApplication>

#include <sstream>
#include <vector>

namespace dspark::cli {

namespace {

// A string marked with QT_TRANSLATE_NOOP("cli", ...), translated.
QString cliText(const char* text)
{
    return QCoreApplication::translate("cli", text);
}

QString laneKindWords(const std::string& id)
{
    for (const LaneKind k : {LaneKind::Host, LaneKind::NpuStream, LaneKind::GpuStream, LaneKind::Comm,
                             LaneKind::Overlap, LaneKind::Counter})
        if (id == laneKindName(k))
            return ui::laneKindDisplayName(k);
    return QString::fromStdString(id);
}

} // namespace

int runInfo(const QStringList& argsIn)
{
    QStringList args = argsIn;
    const bool asJson = takeFlag(args, QStringLiteral("--json"));
    if (args.size() != 1) {
        printError(QCoreApplication::translate("cli", "usage: dspark-timeline info PATH [--json]"));
        return 2;
    }
    const LoadOutcome outcome = loadForCommand(args.first());
    if (!outcome.profile) {
        printError(outcome.error);
        return 1;
    }
    const nlohmann::json doc = profileInfoJson(*outcome.profile);
    if (asJson) {
        printOut(dumpJson(doc, 2) + "\n");
        return 0;
    }
    const auto text = [](const nlohmann::json& v) { return QString::fromStdString(v.get<std::string>()); };
    std::ostringstream out;
    out << QCoreApplication::translate("cli", "Profile: %1").arg(text(doc["path"])).toStdString() << "\n";
    out << QCoreApplication::translate("cli", "Files (+ loaded, - not loaded, = duplicate):").toStdString() << "\n";
    std::vector<std::vector<QString>> files;
    for (const auto& f : doc["files"])
        files.push_back({f["loaded"].get<bool>()      ? QStringLiteral("+")
                         : f.contains("duplicate_of") ? QStringLiteral("=")
                                                      : QStringLiteral("-"),
                         fileFormatDisplayName(f["format"].get<std::string>()),
                         text(f["path"]) + (f.contains("note") ? QStringLiteral("  (%1)").arg(text(f["note"])) : "")});
    out << alignedColumns(files, {false, false, false}, QStringLiteral("  "));
    const auto& scan = doc["scan"];
    out << QCoreApplication::translate("cli", "Scan: %1 files looked at (at most %2, %3 folder levels)")
               .arg(scan["files_examined"].get<uint64_t>())
               .arg(scan["max_files"].get<uint64_t>())
               .arg(scan["max_depth"].get<int>())
               .toStdString()
        << "\n";
    for (const auto& raw : scan["raw_folders_not_read"])
        out << QCoreApplication::translate("cli", "  not read (raw profiler data): %1").arg(text(raw)).toStdString()
            << "\n";
    out << QCoreApplication::translate("cli", "Lanes:").toStdString() << "\n";
    std::vector<std::vector<QString>> lanes{
        {QCoreApplication::translate("cli", "Rank"), QCoreApplication::translate("cli", "Kind"),
         QCoreApplication::translate("cli", "Lane"), QCoreApplication::translate("cli", "Events")}};
    for (const auto& l : doc["lanes"])
        lanes.push_back({QString::number(l["rank"].get<int>()), laneKindWords(l["kind"].get<std::string>()),
                         text(l["process"]) + QStringLiteral(" / ") + text(l["name"]),
                         QString::number(l["events"].get<uint64_t>())});
    out << alignedColumns(lanes, {true, false, false, true}, QStringLiteral("  "));
    out << QCoreApplication::translate("cli", "Totals:").toStdString() << "\n";
    const std::pair<const char*, const char*> totals[] = {
        {"events", QT_TRANSLATE_NOOP("cli", "Events")},
        {"device_tasks", QT_TRANSLATE_NOOP("cli", "Device tasks")},
        {"named_kernels", QT_TRANSLATE_NOOP("cli", "Kernels with a name")},
        {"comm_ops", QT_TRANSLATE_NOOP("cli", "Collectives")},
        {"comm_tasks", QT_TRANSLATE_NOOP("cli", "Communication tasks")},
        {"host_events", QT_TRANSLATE_NOOP("cli", "Host events")},
        {"flows", QT_TRANSLATE_NOOP("cli", "Flows resolved")},
        {"counters", QT_TRANSLATE_NOOP("cli", "Counter samples")},
    };
    std::vector<std::vector<QString>> rows;
    for (const auto& [key, label] : totals)
        rows.push_back({cliText(label), QString::number(doc[key].get<uint64_t>())});
    out << alignedColumns(rows, {false, true}, QStringLiteral("  "));
    for (const auto& w : doc["warnings"])
        out << QCoreApplication::translate("cli", "warning: %1").arg(text(w)).toStdString() << "\n";
    printOut(out.str());
    return 0;
}

} // namespace dspark::cli
