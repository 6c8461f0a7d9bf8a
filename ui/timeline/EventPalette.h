#pragma once

#include "model/Profile.h"

#include <QColor>

#include <vector>

namespace dspark::ui {

// Colours of events: stable per name (a hash of the name picks a palette entry, so "MatMulV2" has the
// same colour in every profile and every session), fixed colours for kinds whose meaning matters more
// than their name (event record/wait, memcpy, overlap analysis, instants). Colours are cached per
// name id of the profile.
class EventPalette {
public:
    void reset(const Profile* profile);

    QRgb fill(uint32_t nameId, EventKind kind) const
    {
        if (nameId < m_fill.size() && m_fill[nameId] != 0 && !isFixedKind(kind))
            return m_fill[nameId];
        return computeFill(nameId, kind);
    }
    // Black or white, whichever reads best on `fill`.
    static QRgb textOn(QRgb fill);
    // Colour of a counter lane (by series name).
    QRgb counterColor(const std::string& laneName) const;
    // Colour for a name without a profile (legend of an export, tests).
    static QRgb colorForName(std::string_view name);
    // The colour the timeline gives an event of this name and kind (tables, legends).
    static QRgb colorFor(std::string_view name, EventKind kind);
    static QRgb kindColor(EventKind kind);
    static uint32_t nameHash(std::string_view name);

private:
    static bool isFixedKind(EventKind kind)
    {
        return kind == EventKind::EventRecord || kind == EventKind::EventWait || kind == EventKind::Memcpy ||
               kind == EventKind::Instant || kind == EventKind::OverlapSpan;
    }
    QRgb computeFill(uint32_t nameId, EventKind kind) const;

    const Profile* m_profile = nullptr;
    mutable std::vector<QRgb> m_fill; // 0 = not computed yet (no palette entry is fully transparent)
};

} // namespace dspark::ui
