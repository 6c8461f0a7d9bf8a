#include "timeline/EventPalette.h"

#include <array>

namespace dspark::ui {

// Mid-tone colours that keep dark text readable and stay apart from each other and from the fixed
// kind colours (greys, reds of waits). Two lightness variants per hue double the distinct colours.
static constexpr std::array<QRgb, 32> kPalette = {
    0xff7fb3d5, 0xff76d7c4, 0xfff7c873, 0xffc39bd3, 0xff82e0aa, 0xfff0b27a, 0xff85c1e9, 0xffd7bde2,
    0xffaed581, 0xffffb74d, 0xff4fc3f7, 0xffba68c8, 0xff81c784, 0xffe6ee9c, 0xff9fa8da, 0xff80cbc4,
    0xffa9cce3, 0xffa3e4d7, 0xfff9e79f, 0xffe8daef, 0xffabebc6, 0xfff5cba7, 0xffaed6f1, 0xffc5e1a5,
    0xffffcc80, 0xff90caf9, 0xffce93d8, 0xffa5d6a7, 0xfffff59d, 0xffb39ddb, 0xff80deea, 0xffbcaaa4,
};

uint32_t EventPalette::nameHash(std::string_view name)
{
    uint32_t h = 2166136261u; // FNV-1a
    for (unsigned char c : name) {
        h ^= c;
        h *= 16777619u;
    }
    return h ^ (h >> 15);
}

QRgb EventPalette::colorForName(std::string_view name)
{
    return kPalette[nameHash(name) % kPalette.size()];
}

QRgb EventPalette::kindColor(EventKind kind)
{
    switch (kind) {
    case EventKind::EventRecord: return 0xfff6a04d; // orange: a stream signals
    case EventKind::EventWait: return 0xffe05a4f;   // red: a stream waits
    case EventKind::Memcpy: return 0xff5dade2;
    case EventKind::Instant: return 0xff37474f;
    default: return 0xffb0bec5;
    }
}

void EventPalette::reset(const Profile* profile)
{
    m_profile = profile;
    m_fill.assign(profile ? profile->strings.size() : 0, 0);
}

QRgb EventPalette::colorFor(std::string_view name, EventKind kind)
{
    if (kind == EventKind::OverlapSpan) {
        if (name == "Computing")
            return 0xff66bb6a;
        if (name == "Communication(Not Overlapped)")
            return 0xffe57373;
        if (name == "Communication")
            return 0xff64b5f6;
        return 0xffcfd8dc; // Free
    }
    if (isFixedKind(kind))
        return kindColor(kind);
    return colorForName(name);
}

QRgb EventPalette::computeFill(uint32_t nameId, EventKind kind) const
{
    const QRgb c = colorFor(m_profile ? m_profile->strings.view(nameId) : std::string_view(), kind);
    if (!isFixedKind(kind) && nameId < m_fill.size())
        m_fill[nameId] = c;
    return c;
}

QRgb EventPalette::textOn(QRgb fill)
{
    const int luma = (qRed(fill) * 299 + qGreen(fill) * 587 + qBlue(fill) * 114) / 1000;
    return luma > 140 ? 0xff1b1f23 : 0xffffffff;
}

QRgb EventPalette::counterColor(const std::string& laneName) const
{
    static constexpr std::array<QRgb, 6> kCounter = {0xff3f7fbf, 0xff2e9d7d, 0xff8e5cc2,
                                                     0xffc77d2e, 0xff3c9fc0, 0xffb5506a};
    return kCounter[nameHash(laneName) % kCounter.size()];
}

} // namespace dspark::ui
