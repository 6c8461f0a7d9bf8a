#include "timeline/TimeFormat.h"

#include <QDateTime>

#include <cstdlib>

namespace dspark::ui {

QString formatInUnit(TimeNs ns, TimeNs unitNs, int decimals)
{
    const char* unit = unitNs >= 1'000'000'000 ? "s" : unitNs >= 1'000'000 ? "ms" : unitNs >= 1'000 ? "µs" : "ns";
    return QString::number(double(ns) / double(unitNs), 'f', decimals) + QLatin1Char(' ') + QString::fromUtf8(unit);
}

QString formatDuration(TimeNs ns)
{
    const TimeNs a = std::llabs(ns);
    if (a < 1'000)
        return QString::number(ns) + QStringLiteral(" ns");
    TimeNs unit = a < 1'000'000 ? 1'000 : a < 1'000'000'000 ? 1'000'000 : 1'000'000'000;
    const double v = double(a) / double(unit);
    const int decimals = v < 10 ? 3 : v < 100 ? 2 : v < 1000 ? 1 : 0;
    return formatInUnit(ns, unit, decimals);
}

TimeNs unitForStep(TimeNs stepNs)
{
    if (stepNs >= 1'000'000'000)
        return 1'000'000'000;
    if (stepNs >= 1'000'000)
        return 1'000'000;
    if (stepNs >= 1'000)
        return 1'000;
    return 1;
}

TimeNs rulerUnit(TimeNs stepNs, TimeNs displayUnitNs)
{
    return displayUnitNs > 0 ? displayUnitNs : unitForStep(stepNs);
}

TimeNs displayUnitNs(std::string_view declared)
{
    return declared == "ns" ? 1 : declared == "ms" ? 1'000'000 : 0;
}

int decimalsForStep(TimeNs stepNs, TimeNs unitNs)
{
    int decimals = 0;
    TimeNs u = unitNs;
    while (u > 1 && stepNs % u != 0) {
        u /= 10;
        ++decimals;
    }
    return decimals;
}

bool looksLikeEpochNs(TimeNs ns)
{
    return ns > 1'000'000'000'000'000'000LL;
}

QString formatClockTime(TimeNs ns)
{
    if (!looksLikeEpochNs(ns))
        return formatInUnit(ns, 1'000'000'000, 9);
    const qint64 ms = ns / 1'000'000;
    const TimeNs subMs = ns % 1'000'000;
    const QDateTime t = QDateTime::fromMSecsSinceEpoch(ms);
    return t.toString(QStringLiteral("HH:mm:ss.zzz")) + QLatin1Char(' ') +
           QStringLiteral("%1 %2")
               .arg(subMs / 1000, 3, 10, QLatin1Char('0'))
               .arg(subMs % 1000, 3, 10, QLatin1Char('0'));
}

} // namespace dspark::ui
