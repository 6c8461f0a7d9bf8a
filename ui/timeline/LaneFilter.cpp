#include "timeline/LaneFilter.h"

#include "common/KindNames.h"
#include "timeline/LaneLayout.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>

namespace dspark::ui {

namespace {

struct LaneTexts {
    QString name, process, kindName, kindShown, rankLabel;
    int rankNumber = -1;
};

LaneTexts textsOf(const Profile& profile, const Lane& lane)
{
    LaneTexts t;
    t.name = QString::fromStdString(lane.info.name);
    t.process = QString::fromStdString(lane.info.process);
    t.kindName = QString::fromLatin1(laneKindName(lane.info.kind));
    t.kindShown = laneKindDisplayName(lane.info.kind);
    if (lane.info.rankIndex >= 0 && lane.info.rankIndex < int(profile.ranks.size())) {
        const RankInfo& rank = profile.ranks[lane.info.rankIndex];
        t.rankLabel = QString::fromStdString(rank.label);
        t.rankNumber = rank.rankNumber;
    }
    return t;
}

bool termMatches(const LaneTexts& t, const QString& term)
{
    const auto has = [&term](const QString& s, const QString& part) { return s.contains(part, Qt::CaseInsensitive); };
    if (term.startsWith(QLatin1String("kind:"), Qt::CaseInsensitive)) {
        const QString k = term.mid(5);
        return has(t.kindName, k) || has(t.kindShown, k);
    }
    if (term.startsWith(QLatin1String("rank:"), Qt::CaseInsensitive)) {
        const QString r = term.mid(5);
        bool number = false;
        const int n = r.toInt(&number);
        return number ? t.rankNumber == n : has(t.rankLabel, r);
    }
    return has(t.name, term) || has(t.process, term) || has(t.kindShown, term) || has(t.kindName, term) ||
           has(t.rankLabel, term);
}

} // namespace

std::vector<bool> laneFilterMatches(const Profile& profile, const QString& text)
{
    const QStringList terms = text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    std::vector<bool> keep(profile.lanes.size(), true);
    if (terms.isEmpty())
        return keep;
    for (size_t i = 0; i < profile.lanes.size(); ++i) {
        const LaneTexts t = textsOf(profile, profile.lanes[i]);
        for (const QString& term : terms) {
            const bool exclude = term.size() > 1 && term.startsWith(QLatin1Char('-'));
            if (termMatches(t, exclude ? term.mid(1) : term) == exclude) {
                keep[i] = false;
                break;
            }
        }
    }
    return keep;
}

LaneFilterBar::LaneFilterBar(LaneLayout* layout, QWidget* parent) : QWidget(parent), m_layout(layout)
{
    setObjectName(QStringLiteral("laneFilterBar"));
    m_title = new QLabel(this);
    m_edit = new QLineEdit(this);
    m_edit->setObjectName(QStringLiteral("laneFilterEdit"));
    m_edit->setClearButtonEnabled(true);
    m_count = new QLabel(this);
    m_count->setObjectName(QStringLiteral("laneFilterCount"));
    m_close = new QToolButton(this);
    m_close->setObjectName(QStringLiteral("laneFilterClose"));
    m_close->setAutoRaise(true);
    m_close->setText(QStringLiteral("✕"));
    auto* box = new QHBoxLayout(this);
    box->setContentsMargins(6, 2, 6, 2);
    box->addWidget(m_title);
    box->addWidget(m_edit, 1);
    box->addWidget(m_count);
    box->addWidget(m_close);
    connect(m_edit, &QLineEdit::textChanged, this, &LaneFilterBar::apply);
    connect(m_close, &QToolButton::clicked, this, &LaneFilterBar::dismiss);
    connect(layout, &LaneLayout::changed, this, &LaneFilterBar::updateCount);
    m_edit->installEventFilter(this);
    retranslate();
    hide();
}

void LaneFilterBar::activate()
{
    show();
    m_edit->setFocus(Qt::ShortcutFocusReason);
    m_edit->selectAll();
}

void LaneFilterBar::dismiss()
{
    m_edit->clear(); // clears the filter (textChanged)
    hide();
}

void LaneFilterBar::apply()
{
    const Profile* profile = m_layout->profile();
    const QString text = m_edit->text().trimmed();
    if (!profile || text.isEmpty())
        m_layout->clearLaneFilter();
    else
        m_layout->setLaneFilter(laneFilterMatches(*profile, text));
    updateCount();
}

void LaneFilterBar::updateCount()
{
    const Profile* profile = m_layout->profile();
    if (!profile || !m_layout->hasLaneFilter()) {
        m_count->clear();
        return;
    }
    m_count->setText(tr("%1 of %2 lanes").arg(m_layout->shownLaneCount()).arg(profile->lanes.size()));
}

bool LaneFilterBar::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_edit && event->type() == QEvent::KeyPress &&
        static_cast<QKeyEvent*>(event)->key() == Qt::Key_Escape) {
        dismiss();
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

void LaneFilterBar::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslate();
}

void LaneFilterBar::retranslate()
{
    m_title->setText(tr("Lanes:"));
    m_edit->setPlaceholderText(tr("name, process, kind:comm, rank:1, -exclude"));
    m_edit->setToolTip(tr("Show only the lanes that match every word: part of the name, process, kind or rank; "
                          "kind:K and rank:N match one field; -word leaves lanes out"));
    m_close->setToolTip(tr("Clear the filter and close"));
    updateCount();
}

} // namespace dspark::ui
