#pragma once

#include "model/Lane.h"

#include <QString>
#include <QVector>

#include <optional>

namespace dspark {

// A user's own mark on the timeline, in profile time and stable lane keys (not pixels), so it
// re-appears in the same place when the profile is reopened at any zoom.
struct Annotation {
    // Marker: a named point (endNs == startNs) or range across every lane, listed in the Markers dock.
    enum class Kind { Note, Arrow, Range, Marker };
    Kind kind = Kind::Note;
    TimeNs startNs = 0; // note position / arrow tail / range or marker start
    TimeNs endNs = 0;   // arrow head / range end (== startNs for a note and a point marker)
    QString laneKey;    // lane of the note / arrow tail; empty = across all lanes (ranges)
    QString endLaneKey; // lane of the arrow head
    QString text;
    QString color = QStringLiteral("#e11d48"); // #rrggbb
    friend bool operator==(const Annotation&, const Annotation&) = default;
};

// The annotations of one profile, saved as a small JSON file in the user's config folder (never in
// the profile folder unless the user exports them there).
class AnnotationSet {
public:
    QVector<Annotation> items;
    // The clock offset the user gave this profile as a rank of a cluster (ClusterView; cluster time =
    // rank time + offset, ns); none: the estimate from the collectives.
    std::optional<TimeNs> clockOffsetNs;

    QByteArray toJson() const;
    // Returns an empty string or an error naming `source` (a file path, for messages).
    QString fromJson(const QByteArray& json, const QString& source);

    QString save(const QString& path) const;
    QString load(const QString& path);

    // Stable key of a lane: "<rank>|<process>|<name>".
    static QString laneKey(int rankIndex, const std::string& process, const std::string& name);
    // Where the session of the profile at `profileRoot` is kept: <config>/sessions/<sha1 of path>.json.
    static QString sessionPathFor(const QString& profileRoot);
};

} // namespace dspark
