#pragma once

#include "io/FileFormat.h"

#include <QString>

#include <string>
#include <string_view>
#include <vector>

namespace dspark {

// A file found under the path the user opened.
struct ScannedFile {
    std::string path; // absolute
    FileFormat format = FileFormat::Unknown;
    int rankNumber = -1;     // rank from profiler_info_<r>.json / file name, -1 when unknown
    std::string runRoot;     // its *_ascend_pt folder, a run folder by content, a PROF_* folder; "" standalone
    bool selected = true;    // false: not loaded (unknown, a companion, another export preferred, duplicate)
    std::string note;        // why it is not loaded
    std::string duplicateOf; // path of the file with the same rank and content that is loaded instead
    bool nearMiss = false;   // unknown, but looked like profiler output (its note is quoted when nothing loads)
    // The file's bytes held in memory, read instead of `path` (which then only names it): the fuzz harnesses
    // give their inputs this way (tests/fuzz). Only the database loader reads it; the caller keeps it alive.
    std::string_view image;
    bool inMemory() const { return image.data() != nullptr; } // (an empty image is an empty file)
};

// How far a folder scan went: it stops at a depth and a count of files, and says so.
struct ScanLimits {
    static constexpr int kMaxDepth = 10;       // folders below the opened one (msprof-analyze walks 10 too)
    static constexpr size_t kMaxFiles = 10000; // files looked at
};

struct ScanResult {
    std::vector<ScannedFile> files;      // every file the scan looked at, in a stable order
    std::string root;                    // the scanned path, absolute, with ".." and symlinks resolved
    QString error;                       // set when the path cannot be used at all
    size_t examined = 0;                 // files looked at
    bool stoppedAtDepth = false;         // folders deeper than kMaxDepth were not entered
    bool stoppedAtCount = false;         // files after the kMaxFiles-th were not looked at
    std::vector<std::string> rawFolders; // raw profiler data folders not entered (PROF_*/device_*/data, ...)
    std::vector<QString> warnings;       // sub-folders that could not be read (skipped)
};

// Recognises one file by its content (FileRecognition.h); the name is only a hint.
FileFormat detectFileFormat(const std::string& path);

// Scans a file or a folder (recursively, within ScanLimits). Every file is listed; unknown files and
// companions are not selected. Within one run folder only the preferred timeline export is selected:
// torch_npu db > trace_view.json > msprof db > msprof json. Of timeline files with the same rank and
// content fingerprint only the first is selected (the others are duplicates).
ScanResult scanProfilePath(const std::string& path);

} // namespace dspark
