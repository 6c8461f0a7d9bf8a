#pragma once

#include "analysis/CriticalPath.h"
#include "analysis/StageBands.h"

#include <QColor>

namespace dspark::ui {

// Colours of the analyses, shared by the overlays, the legend of an export and the charts, so that
// "Verify" is the same green in the timeline, in a report and in a chart.
struct AnalysisPalette {
    static QColor stage(Stage stage);
    static QColor category(PathCategory category);
    static QColor plannerGap() { return QColor(0x8a, 0x8f, 0x98); }
    static QColor hostGap() { return QColor(0x6b, 0x72, 0x80); }
    static QColor replayGap() { return QColor(0xb4, 0x53, 0x09); }    // device idle before a graph replay
    static QColor commInflight() { return QColor(0x25, 0x63, 0xeb); } // the transfer
    static QColor commHidden() { return QColor(0x60, 0xa5, 0xfa); }   // hidden part (charts)
    static QColor commExposed() { return QColor(0xdc, 0x26, 0x26); }  // the consumer waited: warning
    static QColor criticalPath() { return QColor(0xa2, 0x1c, 0xaf); } // outline + hops
    static QColor anomaly() { return QColor(0xdc, 0x26, 0x26); }
    static QColor outOfSegment() { return QColor(0xf5, 0x9e, 0x0b); }
};

} // namespace dspark::ui
