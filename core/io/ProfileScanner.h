#pragma once

#include "io/FileFormat.h"

#include <QString>

#include <string>
#include <vector>

namespace dspark {

// A file found under the path the user opened.
struct ScannedFile {
    std::string path; // absolute
    FileFormat format = FileFormat::Unknown;
    int rank = -1;        // rank from profiler_info_<r>.json / file name, -1 when unknown
    std::string runRoot;  // the *_ascend_pt or PROF_* folder it belongs to ("" for standalone files)
    bool selected = true; // false: not loaded (another export of the same run is preferred)
    std::string note;     // why it is not loaded
};

struct ScanResult {
    std::vector<ScannedFile> files; // every recognised file, in a stable order
    std::string root;               // the scanned path, absolute, with ".." and symlinks resolved
    QString error;                  // set when the path cannot be used at all
    std::vector<QString> warnings;  // sub-folders that could not be read (skipped)
};

// Recognises one file by name (and, for ambiguous .json/.jsonl, by its first bytes).
FileFormat detectFileFormat(const std::string& path);

// Scans a file or a folder (recursively). Unknown files are ignored. Within one run folder only the
// preferred timeline export is selected: torch_npu db > trace_view.json > msprof db > msprof json.
ScanResult scanProfilePath(const std::string& path);

} // namespace dspark
