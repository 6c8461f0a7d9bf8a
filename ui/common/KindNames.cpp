#include "common/KindNames.h"

#include <QCoreApplication>

namespace dspark::ui {

QString eventKindDisplayName(EventKind kind)
{
    const char* text = QT_TRANSLATE_NOOP("KindNames", "Device task");
    switch (kind) {
    case EventKind::Other: text = QT_TRANSLATE_NOOP("KindNames", "Device task"); break;
    case EventKind::Kernel: text = QT_TRANSLATE_NOOP("KindNames", "Kernel"); break;
    case EventKind::CommOp: text = QT_TRANSLATE_NOOP("KindNames", "Collective communication"); break;
    case EventKind::CommTask: text = QT_TRANSLATE_NOOP("KindNames", "Communication sub-task"); break;
    case EventKind::EventRecord: text = QT_TRANSLATE_NOOP("KindNames", "Event record"); break;
    case EventKind::EventWait: text = QT_TRANSLATE_NOOP("KindNames", "Event wait"); break;
    case EventKind::Memcpy: text = QT_TRANSLATE_NOOP("KindNames", "Memory copy"); break;
    case EventKind::HostApi: text = QT_TRANSLATE_NOOP("KindNames", "CANN/host API call"); break;
    case EventKind::TorchOp: text = QT_TRANSLATE_NOOP("KindNames", "PyTorch/Python op"); break;
    case EventKind::Annotation: text = QT_TRANSLATE_NOOP("KindNames", "Annotated range"); break;
    case EventKind::Instant: text = QT_TRANSLATE_NOOP("KindNames", "Instant marker"); break;
    case EventKind::OverlapSpan: text = QT_TRANSLATE_NOOP("KindNames", "Overlap analysis span"); break;
    case EventKind::CounterSample: text = QT_TRANSLATE_NOOP("KindNames", "Counter sample"); break;
    }
    return QCoreApplication::translate("KindNames", text);
}

QString laneKindDisplayName(LaneKind kind)
{
    const char* text = QT_TRANSLATE_NOOP("KindNames", "Host thread");
    switch (kind) {
    case LaneKind::Host: text = QT_TRANSLATE_NOOP("KindNames", "Host thread"); break;
    case LaneKind::NpuStream: text = QT_TRANSLATE_NOOP("KindNames", "NPU stream"); break;
    case LaneKind::GpuStream: text = QT_TRANSLATE_NOOP("KindNames", "GPU stream"); break;
    case LaneKind::Comm: text = QT_TRANSLATE_NOOP("KindNames", "Communication"); break;
    case LaneKind::Overlap: text = QT_TRANSLATE_NOOP("KindNames", "Overlap analysis"); break;
    case LaneKind::Counter: text = QT_TRANSLATE_NOOP("KindNames", "Counter"); break;
    }
    return QCoreApplication::translate("KindNames", text);
}

} // namespace dspark::ui
