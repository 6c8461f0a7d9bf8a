#include "timeline/UndoHistory.h"

#include "timeline/TimelineZoom.h"

#include <QUndoStack>

#include <algorithm>

namespace dspark::ui {

UndoHistory::UndoHistory(TimelineZoom* zoom, QObject* parent) : QObject(parent), m_zoom(zoom)
{
    connect(zoom, &TimelineZoom::recorded, this, [this]() {
        if (m_applying)
            return;
        m_undo.push_back(nullptr);
        m_redo.clear();
    });
    connect(zoom, &TimelineZoom::historyChanged, this, [this]() {
        prune();
        Q_EMIT changed();
    });
}

void UndoHistory::addStack(QUndoStack* stack)
{
    m_stacks.push_back(stack);
    m_index.push_back(stack->index());
    connect(stack, &QUndoStack::indexChanged, this, [this, stack](int index) { onIndexChanged(stack, index); });
    connect(stack, &QObject::destroyed, this, [this, stack]() {
        const auto it = std::find(m_stacks.begin(), m_stacks.end(), stack);
        if (it == m_stacks.end())
            return;
        m_index.erase(m_index.begin() + (it - m_stacks.begin()));
        m_stacks.erase(it);
        std::erase(m_undo, stack);
        std::erase(m_redo, stack);
        Q_EMIT changed();
    });
}

void UndoHistory::onIndexChanged(QUndoStack* stack, int index)
{
    const auto it = std::find(m_stacks.begin(), m_stacks.end(), stack);
    if (it == m_stacks.end())
        return;
    int& last = m_index[it - m_stacks.begin()];
    // A push moves the index forward without our help: a new edit, latest of all.
    if (!m_applying && index > last) {
        m_undo.push_back(stack);
        m_redo.clear();
    }
    last = index;
    prune();
    Q_EMIT changed();
}

// Entries whose history was cleared (a new profile, a loaded annotation file) can never apply.
void UndoHistory::prune()
{
    if (m_applying)
        return;
    std::erase_if(m_undo, [](Entry e) { return e && !e->canUndo(); });
    std::erase_if(m_redo, [](Entry e) { return e && !e->canRedo(); });
    if (m_zoom && !m_zoom->canGoBack())
        std::erase(m_undo, nullptr);
    if (m_zoom && !m_zoom->canGoForward())
        std::erase(m_redo, nullptr);
}

bool UndoHistory::available(Entry e, bool undo) const
{
    if (!e)
        return m_zoom && (undo ? m_zoom->canGoBack() : m_zoom->canGoForward());
    return undo ? e->canUndo() : e->canRedo();
}

int UndoHistory::next(bool undo) const
{
    const std::vector<Entry>& list = undo ? m_undo : m_redo;
    for (int i = int(list.size()) - 1; i >= 0; --i)
        if (available(list[i], undo))
            return i;
    return -1;
}

bool UndoHistory::canUndo() const
{
    return next(true) >= 0 || available(nullptr, true);
}

bool UndoHistory::canRedo() const
{
    return next(false) >= 0 || available(nullptr, false);
}

QString UndoHistory::undoText() const
{
    const int i = next(true);
    return i >= 0 && m_undo[i] ? m_undo[i]->undoText() : QString();
}

QString UndoHistory::redoText() const
{
    const int i = next(false);
    return i >= 0 && m_redo[i] ? m_redo[i]->redoText() : QString();
}

void UndoHistory::undo()
{
    step(true);
}

void UndoHistory::redo()
{
    step(false);
}

void UndoHistory::step(bool undo)
{
    std::vector<Entry>& from = undo ? m_undo : m_redo;
    std::vector<Entry>& to = undo ? m_redo : m_undo;
    const int i = next(undo);
    Entry e = nullptr;
    if (i >= 0) {
        e = from[i];
        from.resize(i); // entries after it could not apply
        to.push_back(e);
    } else if (!available(nullptr, undo)) {
        return;
    }
    m_applying = true;
    if (e)
        undo ? e->undo() : e->redo();
    else
        undo ? m_zoom->goBack() : m_zoom->goForward();
    m_applying = false;
    prune();
    Q_EMIT changed();
}

} // namespace dspark::ui
