#include "panels/SearchPanel.h"

#include "panels/EventTablePanel.h"

#include <QCheckBox>
#include <QEvent>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QToolButton>
#include <QVBoxLayout>

namespace dspark::ui {

SearchPanel::SearchPanel(QWidget* parent) : QWidget(parent)
{
    m_edit = new QLineEdit(this);
    m_edit->setClearButtonEnabled(true);
    m_regex = new QCheckBox(this);
    m_case = new QCheckBox(this);
    m_prev = new QToolButton(this);
    m_next = new QToolButton(this);
    m_prev->setArrowType(Qt::UpArrow);
    m_next->setArrowType(Qt::DownArrow);
    m_status = new QLabel(this);
    m_results = new EventTablePanel(this);

    auto* row = new QHBoxLayout;
    row->setContentsMargins(4, 4, 4, 0);
    row->addWidget(m_edit, 1);
    row->addWidget(m_prev);
    row->addWidget(m_next);
    auto* options = new QHBoxLayout;
    options->setContentsMargins(4, 0, 4, 2);
    options->addWidget(m_regex);
    options->addWidget(m_case);
    options->addStretch(1);
    options->addWidget(m_status);
    auto* box = new QVBoxLayout(this);
    box->setContentsMargins(0, 0, 0, 0);
    box->setSpacing(2);
    box->addLayout(row);
    box->addLayout(options);
    box->addWidget(m_results, 1);

    m_debounce.setSingleShot(true);
    m_debounce.setInterval(300);
    connect(&m_debounce, &QTimer::timeout, this, &SearchPanel::run);
    connect(m_edit, &QLineEdit::textEdited, this, [this]() { m_debounce.start(); });
    connect(m_edit, &QLineEdit::returnPressed, this, [this]() {
        const bool shift = QGuiApplication::keyboardModifiers() & Qt::ShiftModifier;
        if (m_debounce.isActive() || m_edit->text() != m_lastQuery)
            run();
        shift ? previous() : next();
    });
    connect(m_regex, &QCheckBox::toggled, this, &SearchPanel::run);
    connect(m_case, &QCheckBox::toggled, this, &SearchPanel::run);
    connect(m_prev, &QToolButton::clicked, this, &SearchPanel::previous);
    connect(m_next, &QToolButton::clicked, this, &SearchPanel::next);
    connect(m_results, &EventTablePanel::eventClicked, this, [this](EventRef e) {
        const auto& hits = m_result.hits;
        const auto it = std::lower_bound(hits.begin(), hits.end(), e, [&](EventRef a, EventRef b) {
            const TimeNs sa = m_profile->startNs(a), sb = m_profile->startNs(b);
            return sa != sb ? sa < sb : a < b;
        });
        if (it != hits.end() && *it == e)
            setCurrent(int(it - hits.begin()));
    });
    retranslate();
}

void SearchPanel::retranslate()
{
    m_edit->setPlaceholderText(tr("Search event names (Ctrl+F)…"));
    m_regex->setText(tr("Regular expression"));
    m_case->setText(tr("Match case"));
    m_prev->setToolTip(tr("Previous match (Shift+F3)"));
    m_next->setToolTip(tr("Next match (F3)"));
    m_results->setEmptyHint(tr("Type a name above: the events that match are listed here"));
    updateStatus();
}

void SearchPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslate();
}

void SearchPanel::setProfile(std::shared_ptr<const Profile> profile)
{
    m_profile = std::move(profile);
    m_lastQuery.clear();
    m_result = {};
    m_current = -1;
    m_results->clear();
    if (!m_edit->text().isEmpty())
        run();
    updateStatus();
}

void SearchPanel::search(const QString& pattern, bool regex)
{
    m_edit->setText(pattern);
    m_regex->blockSignals(true);
    m_regex->setChecked(regex);
    m_regex->blockSignals(false);
    run();
}

void SearchPanel::focusSearch()
{
    m_edit->setFocus(Qt::ShortcutFocusReason);
    m_edit->selectAll();
}

void SearchPanel::run()
{
    m_debounce.stop();
    m_lastQuery = m_edit->text();
    m_current = -1;
    if (!m_profile || m_lastQuery.isEmpty()) {
        m_result = {};
        m_results->clear();
        updateStatus();
        Q_EMIT highlightsChanged({}, {});
        return;
    }
    EventSearchQuery q;
    q.pattern = m_lastQuery;
    q.regex = m_regex->isChecked();
    q.caseSensitive = m_case->isChecked();
    m_result = searchEvents(*m_profile, q);
    m_results->setEvents(tr("Matches of “%1”").arg(m_lastQuery), m_profile, m_result.hits, false);
    updateStatus();
    Q_EMIT highlightsChanged(m_result.nameHits, {});
}

EventRef SearchPanel::currentHit() const
{
    return m_current >= 0 && m_current < int(m_result.hits.size()) ? m_result.hits[m_current] : EventRef{};
}

void SearchPanel::setCurrent(int index)
{
    if (m_result.hits.empty())
        return;
    m_current = index;
    updateStatus();
    const EventRef e = currentHit();
    m_results->markEvent(e);
    Q_EMIT highlightsChanged(m_result.nameHits, e);
    Q_EMIT hitActivated(e);
}

void SearchPanel::next()
{
    if (m_result.hits.empty())
        return;
    setCurrent((m_current + 1) % int(m_result.hits.size()));
}

void SearchPanel::previous()
{
    if (m_result.hits.empty())
        return;
    const int n = int(m_result.hits.size());
    setCurrent(m_current <= 0 ? n - 1 : m_current - 1);
}

void SearchPanel::updateStatus()
{
    QString text;
    if (!m_result.error.isEmpty())
        text = m_result.error;
    else if (!m_lastQuery.isEmpty() && m_result.total == 0)
        text = tr("no match");
    else if (m_result.total > 0) {
        const QLocale locale;
        text = m_current >= 0
                   ? tr("%1 of %2").arg(locale.toString(m_current + 1), locale.toString(qulonglong(m_result.total)))
                   : tr("%1 matches").arg(locale.toString(qulonglong(m_result.total)));
        if (m_result.truncated())
            text += tr(" (first %1 listed)").arg(locale.toString(qulonglong(m_result.hits.size())));
    }
    m_status->setText(text);
    m_prev->setEnabled(!m_result.hits.empty());
    m_next->setEnabled(!m_result.hits.empty());
}

} // namespace dspark::ui
