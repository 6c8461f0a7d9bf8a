#include "steps/StepRecordLoader.h"

#include <QCoreApplication>

namespace dspark {

QString loadStepRecords(const ScannedFile& file, Profile&, const LoadProgress&)
{
    // In development: replaced by the real loader.
    return QCoreApplication::translate("StepRecordLoader", "%1: this format is not supported yet")
        .arg(QString::fromStdString(file.path));
}

void alignStepRecords(Profile&) {}

} // namespace dspark
