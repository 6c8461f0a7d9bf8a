#include "cli/CliCommand.h"

#include "io/ProfileLoader.h"
#include "report/ProfileInfo.h"

#include <QCoreApplication>

#include <sstream>

namespace dspark::cli {

int runInfo(const QStringList& argsIn)
{
    QStringList args = argsIn;
    const bool asJson = takeFlag(args, QStringLiteral("--json"));
    if (args.size() != 1) {
        printError(QCoreApplication::translate("cli", "usage: dspark-timeline info PATH [--json]"));
        return 2;
    }
    const LoadOutcome outcome = loadProfile(args.first().toStdString());
    if (!outcome.profile) {
        printError(outcome.error);
        return 1;
    }
    const nlohmann::json doc = profileInfoJson(*outcome.profile);
    if (asJson) {
        printOut(doc.dump(2) + "\n");
        return 0;
    }
    std::ostringstream out;
    out << QCoreApplication::translate("cli", "Profile").toStdString() << ": " << doc["path"].get<std::string>()
        << "\n";
    for (const auto& f : doc["files"])
        out << "  " << (f["loaded"].get<bool>() ? "+ " : "- ") << f["format"].get<std::string>() << "  "
            << f["path"].get<std::string>() << (f.contains("note") ? "  (" + f["note"].get<std::string>() + ")" : "")
            << "\n";
    out << QCoreApplication::translate("cli", "Lanes").toStdString() << ":\n";
    for (const auto& l : doc["lanes"])
        out << "  rank " << l["rank"].get<int>() << "  " << l["kind"].get<std::string>() << "  "
            << l["process"].get<std::string>() << " / " << l["name"].get<std::string>() << "  "
            << l["events"].get<uint64_t>() << "\n";
    for (const char* key :
         {"events", "device_tasks", "named_kernels", "comm_ops", "comm_tasks", "host_events", "flows", "counters"})
        out << key << ": " << doc[key].get<uint64_t>() << "\n";
    for (const auto& w : doc["warnings"])
        out << QCoreApplication::translate("cli", "warning").toStdString() << ": " << w.get<std::string>() << "\n";
    printOut(out.str());
    return 0;
}

} // namespace dspark::cli
