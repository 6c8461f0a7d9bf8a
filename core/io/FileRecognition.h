#pragma once

#include "io/FileFormat.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dspark {

// What a bounded look at a file's content says it is (docs/architecture.md, "Recognising files").
struct Recognition {
    FileFormat format = FileFormat::Unknown;
    std::optional<int> rank; // said by the content (distributedInfo.rank, rank_id), not by the name
    std::string reason;      // for Unknown and companions: why it is not loaded (translated, one line)
    bool nearMiss = false;   // looked like profiler output (SQLite, JSON, gzip, a profiler name) but is not
};

// Bytes read from the start of a file: the head of its content, inflated when gzipped.
constexpr size_t kRecognitionHeadBytes = 4096;     // what is read of a plain file
constexpr size_t kRecognitionInflateBytes = 65536; // inflated content looked at in a .gz (from <= 16 KB read)

// Recognises a file by its content; its name only breaks ties (trace_view vs msprof JSON, the metadata
// file, a .db that is not a readable database goes to the database loader so that it says why).
Recognition recognizeFile(const std::string& path);

// recognizeFile() for a file named `path` (a .db) whose bytes are held in memory (ScannedFile::image): the
// fuzz harnesses.
Recognition recognizeDatabaseImage(const std::string& path, std::string_view image);

// Content fingerprint for spotting one trace saved twice (e.g. .json and .json.gz): the uncompressed
// size and hashes of the first and last KB of the content. The tail of a .gz needs it inflated whole:
// `withTail` = false leaves it 0, for a cheap first comparison.
struct ContentFingerprint {
    uint64_t size = 0;
    uint64_t headHash = 0;
    uint64_t bodyHash = 0; // of every byte (uncompressed), only in the full round
    bool valid = false;
    friend bool operator==(const ContentFingerprint&, const ContentFingerprint&) = default;
};
ContentFingerprint contentFingerprint(const std::string& path, bool withTail);

} // namespace dspark
