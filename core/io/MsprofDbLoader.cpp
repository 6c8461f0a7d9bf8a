#include "io/MsprofDbLoader.h"

#include "io/db/MsprofDbReader.h"

#include <QCoreApplication>

#include <new>

namespace dspark {

QString loadMsprofDb(const ScannedFile& file, Profile& profile, const LoadProgress& progress)
{
    // No exception may cross a loader boundary (docs/architecture.md); what was read is taken back.
    db::MsprofDbReader reader(file, profile, progress);
    try {
        return reader.read();
    } catch (const std::bad_alloc&) {
        reader.rollback();
        return QCoreApplication::translate("MsprofDbLoader", "%1: not enough memory to load this database")
            .arg(QString::fromStdString(file.path));
    } catch (const std::exception& e) {
        reader.rollback();
        return QCoreApplication::translate("MsprofDbLoader", "%1: cannot be loaded (%2)")
            .arg(QString::fromStdString(file.path), QString::fromLocal8Bit(e.what()));
    }
}

} // namespace dspark
