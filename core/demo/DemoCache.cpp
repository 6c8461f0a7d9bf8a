#include "demo/DemoCache.h"

#include "demo/DemoWriter.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

#include <filesystem>

namespace fs = std::filesystem;

namespace dspark::demo {

DemoCacheResult ensureCachedDemo(const QString& version, uint64_t seed)
{
    DemoCacheResult result;
    const QString cacheRoot = QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
    if (cacheRoot.isEmpty()) {
        result.error = QCoreApplication::translate("DemoCache", "no cache folder is available for the demo profile");
        return result;
    }
    const QString name = QStringLiteral("demo-%1-%2").arg(version).arg(seed);
    const QString finalPath = QDir(cacheRoot).filePath(name);
    if (QFileInfo::exists(QDir(finalPath).filePath(QStringLiteral("ground_truth.json")))) {
        result.path = finalPath;
        return result;
    }
    const QString partial = finalPath + QStringLiteral(".partial");
    std::error_code ec;
    fs::remove_all(partial.toStdString(), ec); // an interrupted earlier attempt of ours
    fs::remove_all(finalPath.toStdString(), ec);
    DemoOptions options;
    options.seed = seed;
    const DemoResult written = writeDemo(options, partial.toStdString());
    if (!written.error.isEmpty()) {
        result.error = written.error;
        return result;
    }
    fs::rename(partial.toStdString(), finalPath.toStdString(), ec);
    if (ec) {
        result.error = QCoreApplication::translate("DemoCache", "%1: cannot create the demo folder (%2)")
                           .arg(finalPath, QString::fromStdString(ec.message()));
        return result;
    }
    result.path = finalPath;
    result.created = true;
    return result;
}

} // namespace dspark::demo
