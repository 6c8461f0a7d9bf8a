#include "panels/EventSearch.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include <algorithm>

namespace dspark::ui {

EventSearchResult searchEvents(const Profile& profile, const EventSearchQuery& query)
{
    EventSearchResult result;
    if (query.pattern.isEmpty())
        return result;
    QRegularExpression re;
    if (query.regex) {
        re = QRegularExpression(query.pattern, query.caseSensitive ? QRegularExpression::NoPatternOption
                                                                   : QRegularExpression::CaseInsensitiveOption);
        if (!re.isValid()) {
            result.error =
                QCoreApplication::translate("EventSearch", "invalid regular expression: %1").arg(re.errorString());
            return result;
        }
        re.optimize();
    }
    const Qt::CaseSensitivity cs = query.caseSensitive ? Qt::CaseSensitive : Qt::CaseInsensitive;
    const QByteArray needle = query.pattern.toUtf8();
    const bool ascii = std::all_of(needle.begin(), needle.end(), [](char c) { return (unsigned char)c < 0x80; });
    result.nameHits.assign(profile.strings.size(), 0);
    for (uint32_t id = 1; id < profile.strings.size(); ++id) {
        const std::string_view name = profile.strings.view(id);
        bool match;
        if (query.regex) {
            match = re.match(QString::fromUtf8(name.data(), qsizetype(name.size()))).hasMatch();
        } else if (ascii) {
            // ASCII needles: compare bytes (case-folded when asked) without decoding every name.
            auto fold = [&](char c) { return cs == Qt::CaseInsensitive && c >= 'A' && c <= 'Z' ? char(c + 32) : c; };
            match = std::search(name.begin(), name.end(), needle.begin(), needle.end(),
                                [&](char a, char b) { return fold(a) == fold(b); }) != name.end();
        } else {
            match = QString::fromUtf8(name.data(), qsizetype(name.size())).contains(query.pattern, cs);
        }
        if (match) {
            result.nameHits[id] = 1;
            ++result.matchingNames;
        }
    }
    if (result.matchingNames == 0)
        return result;
    for (uint32_t lane = 0; lane < profile.lanes.size(); ++lane) {
        const Lane& l = profile.lanes[lane];
        for (uint32_t i = 0; i < l.size(); ++i)
            if (result.nameHits[l.nameId[i]])
                result.hits.push_back({lane, i});
    }
    result.total = result.hits.size();
    auto earlier = [&](EventRef a, EventRef b) {
        const TimeNs sa = profile.startNs(a), sb = profile.startNs(b);
        return sa != sb ? sa < sb : a < b;
    };
    // Keep the earliest maxHits events.
    if (result.hits.size() > query.maxHits) {
        std::nth_element(result.hits.begin(), result.hits.begin() + query.maxHits, result.hits.end(), earlier);
        result.hits.resize(query.maxHits);
        result.hits.shrink_to_fit();
    }
    std::sort(result.hits.begin(), result.hits.end(), earlier);
    return result;
}

} // namespace dspark::ui
