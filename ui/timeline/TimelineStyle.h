#pragma once

#include <QColor>
#include <QFont>

namespace dspark::ui {

// Geometry and colours of the timeline, shared by the on-screen items and the exporter so that an
// exported image looks exactly like the window.
struct TimelineStyle {
    double depthRowHeight = 17; // one nesting level of a lane
    double lanePadding = 2;     // above and below the event rows of a lane
    double counterHeight = 34;  // counter lanes (area charts)
    double rankHeaderHeight = 24;
    double processHeaderHeight = 20;
    double labelWidth = 210;  // name column on the left (user-resizable)
    double rulerHeight = 34;  // two lines of the ruler font, CJK included
    double minBoxPx = 1.5;    // narrower events are merged into one mark per pixel column
    double minLabelPx = 26;   // narrower boxes carry no text
    int maxVisibleDepth = 64; // deeper nesting is drawn in the last row

    QFont eventFont;  // event labels
    QFont labelFont;  // lane names
    QFont headerFont; // group headers (bold)
    QFont rulerFont;

    QColor background{0xfa, 0xfb, 0xfc};
    QColor laneAltBackground{0xf1, 0xf3, 0xf6};
    QColor labelBackground{0xe9, 0xed, 0xf2};
    QColor rankHeaderBackground{0x3a, 0x46, 0x57};
    QColor rankHeaderText{0xff, 0xff, 0xff};
    QColor processHeaderBackground{0xd5, 0xdc, 0xe5};
    QColor gridLine{0xd0, 0xd6, 0xde};
    QColor text{0x1b, 0x1f, 0x23};
    QColor mutedText{0x5f, 0x6b, 0x7a};
    QColor selection{0x10, 0x20, 0x40};
    QColor hover{0x10, 0x20, 0x40, 0x90};
    QColor searchHit{0xff, 0xd6, 0x00};
    QColor cursorLine{0xc6, 0x28, 0x28};
    QColor rulerBackground{0xf5, 0xf6, 0xf8};
    QColor tick{0x76, 0x80, 0x8c};
    QColor mergedOutline{0x00, 0x00, 0x00, 0x30};

    TimelineStyle()
    {
        eventFont.setPixelSize(11);
        labelFont.setPixelSize(12);
        headerFont.setPixelSize(12);
        headerFont.setBold(true);
        rulerFont.setPixelSize(11);
    }
};

} // namespace dspark::ui
