#include "io/MsprofDbLoader.h"

#include <QCoreApplication>

namespace dspark {

QString loadMsprofDb(const ScannedFile& file, Profile&, const LoadProgress&)
{
    // In development: replaced by the real loader.
    return QCoreApplication::translate("MsprofDbLoader", "%1: this format is not supported yet")
        .arg(QString::fromStdString(file.path));
}

} // namespace dspark
