#include "io/MsprofDbLoader.h"

#include "io/db/MsprofDbReader.h"

namespace dspark {

QString loadMsprofDb(const ScannedFile& file, Profile& profile, const LoadProgress& progress,
                     const LoadOptions& options)
{
    // (An exception, e.g. std::bad_alloc, is turned into an error naming the file, and what was read
    // taken back, by loadProfile for every loader.)
    return db::MsprofDbReader(file, profile, progress, options).read();
}

} // namespace dspark
