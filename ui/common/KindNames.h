#pragma once

#include "model/Lane.h"

#include <QString>

namespace dspark::ui {

// What the UI shows for an event or lane kind: readable words, translated (context "KindNames").
// eventKindName() / laneKindName() stay the identifiers of the JSON contract; never show those.
QString eventKindDisplayName(EventKind kind);
QString laneKindDisplayName(LaneKind kind);

} // namespace dspark::ui
