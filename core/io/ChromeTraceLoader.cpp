#include "io/ChromeTraceLoader.h"

#include <QCoreApplication>

namespace dspark {

QString loadChromeTrace(const ScannedFile& file, Profile&, const LoadProgress&)
{
    // In development: replaced by the real loader.
    return QCoreApplication::translate("ChromeTraceLoader", "%1: this format is not supported yet")
        .arg(QString::fromStdString(file.path));
}

} // namespace dspark
