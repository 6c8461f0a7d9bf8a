#include "overlays/AnalysisPalette.h"

namespace dspark::ui {

QColor AnalysisPalette::stage(Stage stage)
{
    switch (stage) {
    case Stage::Draft: return QColor(0x25, 0x63, 0xeb);    // blue
    case Stage::Planner: return QColor(0x6d, 0x28, 0xd9);  // violet
    case Stage::Verify: return QColor(0x05, 0x96, 0x69);   // green
    case Stage::Accept: return QColor(0xea, 0x58, 0x0c);   // orange
    case Stage::Commit: return QColor(0x08, 0x91, 0xb2);   // cyan
    case Stage::Publish: return QColor(0x0e, 0x74, 0x90);  // dark cyan
    case Stage::PreDraft: return QColor(0x64, 0x74, 0x8b); // slate
    case Stage::Other: break;
    }
    return QColor(0x6b, 0x72, 0x80);
}

QColor AnalysisPalette::category(PathCategory category)
{
    switch (category) {
    case PathCategory::Draft: return stage(Stage::Draft);
    case PathCategory::VerifyCompute: return stage(Stage::Verify);
    case PathCategory::ExposedComm: return commExposed();
    case PathCategory::AcceptTpSync: return stage(Stage::Accept);
    case PathCategory::Commit: return stage(Stage::Commit);
    case PathCategory::HostGap: return QColor(0x47, 0x55, 0x69);
    case PathCategory::Idle: return QColor(0xcb, 0xd5, 0xe1);
    case PathCategory::Count: break;
    }
    return Qt::gray;
}

} // namespace dspark::ui
