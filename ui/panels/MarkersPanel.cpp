#include "panels/MarkersPanel.h"

#include "overlays/AnnotationOverlay.h"
#include "timeline/TimeFormat.h"

#include <QColorDialog>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QPixmap>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace dspark::ui {

static constexpr int kIndexRole = Qt::UserRole + 1;

MarkersPanel::MarkersPanel(AnnotationOverlay* overlay, QWidget* parent) : QWidget(parent), m_overlay(overlay)
{
    m_hint = new QLabel(this);
    m_hint->setWordWrap(true);
    m_list = new QTreeWidget(this);
    m_list->setObjectName(QStringLiteral("markerList"));
    m_list->setColumnCount(3);
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_list->header()->setStretchLastSection(false);
    m_list->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_list->setMinimumHeight(m_list->fontMetrics().height() * 8); // a few markers, not a sliver
    m_rename = new QPushButton(this);
    m_rename->setObjectName(QStringLiteral("renameMarker"));
    m_recolor = new QPushButton(this);
    m_recolor->setObjectName(QStringLiteral("recolorMarker"));
    m_delete = new QPushButton(this);
    m_delete->setObjectName(QStringLiteral("deleteMarker"));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_rename);
    buttons->addWidget(m_recolor);
    buttons->addWidget(m_delete);
    buttons->addStretch(1);
    auto* box = new QVBoxLayout(this);
    box->setContentsMargins(4, 4, 4, 4);
    box->addWidget(m_hint);
    box->addWidget(m_list, 1);
    box->addLayout(buttons);

    connect(m_rename, &QPushButton::clicked, this, &MarkersPanel::renameCurrent);
    connect(m_recolor, &QPushButton::clicked, this, &MarkersPanel::recolorCurrent);
    connect(m_delete, &QPushButton::clicked, this, &MarkersPanel::deleteCurrent);
    connect(m_list, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
        if (item)
            Q_EMIT markerActivated(item->data(0, kIndexRole).toInt());
    });
    connect(m_list, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
        if (!m_rebuilding && item)
            m_overlay->setSelected(item->data(0, kIndexRole).toInt());
    });
    connect(overlay, &AnnotationOverlay::changed, this, &MarkersPanel::rebuild);
    connect(overlay, &AnnotationOverlay::selectionChanged, this, &MarkersPanel::followOverlaySelection);
    m_list->installEventFilter(this);
    retranslate();
    rebuild();
}

int MarkersPanel::rowCount() const
{
    return m_list->topLevelItemCount();
}

int MarkersPanel::annotationAt(int row) const
{
    const QTreeWidgetItem* item = m_list->topLevelItem(row);
    return item ? item->data(0, kIndexRole).toInt() : -1;
}

int MarkersPanel::currentAnnotation() const
{
    const QTreeWidgetItem* item = m_list->currentItem();
    return item ? item->data(0, kIndexRole).toInt() : -1;
}

static QIcon swatch(const QColor& color)
{
    QPixmap pm(12, 12);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.fillRect(QRect(1, 1, 10, 10), color);
    p.setPen(color.darker(140));
    p.drawRect(QRect(1, 1, 9, 9));
    return QIcon(pm);
}

void MarkersPanel::rebuild()
{
    // Only markers, in time order; each row keeps the annotation index it stands for.
    std::vector<int> markers;
    for (int i = 0; i < m_overlay->count(); ++i)
        if (m_overlay->at(i).kind == Annotation::Kind::Marker)
            markers.push_back(i);
    std::stable_sort(markers.begin(), markers.end(),
                     [this](int a, int b) { return m_overlay->at(a).startNs < m_overlay->at(b).startNs; });
    const Profile* profile = m_overlay->profile();
    // The overlay also says "changed" for a new selection: the rows stay (a double-click in progress
    // keeps its row) unless a marker or the profile did change.
    std::vector<Annotation> shown;
    for (const int i : markers)
        shown.push_back(m_overlay->at(i));
    if (profile == m_shownProfile && markers == m_shownIndexes && shown == m_shown) {
        followOverlaySelection(m_overlay->selected());
        return;
    }
    m_shownProfile = profile;
    m_shownIndexes = markers;
    m_shown = std::move(shown);
    const TimeNs origin = profile ? profile->firstNs() : 0;
    m_rebuilding = true;
    m_list->clear();
    for (const int i : markers) {
        const Annotation& a = m_overlay->at(i);
        auto* item = new QTreeWidgetItem(m_list);
        item->setText(0, a.text);
        item->setIcon(0, swatch(QColor(a.color)));
        item->setText(1, formatDuration(a.startNs - origin));
        item->setText(2, a.endNs > a.startNs ? formatDuration(a.endNs - a.startNs) : QStringLiteral("—"));
        item->setData(0, kIndexRole, i);
        item->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
        item->setTextAlignment(2, Qt::AlignRight | Qt::AlignVCenter);
    }
    m_rebuilding = false;
    followOverlaySelection(m_overlay->selected());
}

void MarkersPanel::followOverlaySelection(int annotationIndex)
{
    m_rebuilding = true;
    QTreeWidgetItem* current = nullptr;
    for (int row = 0; row < rowCount(); ++row)
        if (annotationAt(row) == annotationIndex)
            current = m_list->topLevelItem(row);
    m_list->setCurrentItem(current);
    m_rebuilding = false;
    const bool has = current != nullptr;
    for (QPushButton* b : {m_rename, m_recolor, m_delete})
        b->setEnabled(has);
}

void MarkersPanel::renameCurrent()
{
    const int i = currentAnnotation();
    if (i < 0)
        return;
    Annotation a = m_overlay->at(i);
    std::optional<QString> name;
    if (m_namePrompt)
        name = m_namePrompt(this, a.text);
    else {
        bool ok = false;
        const QString text =
            QInputDialog::getText(this, tr("Rename Marker"), tr("Name:"), QLineEdit::Normal, a.text, &ok);
        if (ok)
            name = text;
    }
    if (!name || name->trimmed().isEmpty() || name->trimmed() == a.text)
        return;
    a.text = name->trimmed();
    m_overlay->update(i, a);
}

void MarkersPanel::recolorCurrent()
{
    const int i = currentAnnotation();
    if (i < 0)
        return;
    Annotation a = m_overlay->at(i);
    std::optional<QColor> color;
    if (m_colorPrompt)
        color = m_colorPrompt(this, QColor(a.color));
    else if (const QColor c = QColorDialog::getColor(QColor(a.color), this, tr("Marker Colour")); c.isValid())
        color = c;
    if (!color || !color->isValid() || color->name() == a.color)
        return;
    a.color = color->name();
    m_overlay->update(i, a);
}

void MarkersPanel::deleteCurrent()
{
    m_overlay->remove(currentAnnotation());
}

bool MarkersPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_list && event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent*>(event)->key();
        if (key == Qt::Key_Delete || key == Qt::Key_Backspace) {
            deleteCurrent();
            return true;
        }
        if (key == Qt::Key_F2) {
            renameCurrent();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void MarkersPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslate();
}

void MarkersPanel::retranslate()
{
    m_hint->setText(tr("M: add at the mouse (or the Ctrl+dragged range) · , / .: previous / next · double-click: "
                       "go there"));
    m_list->setHeaderLabels({tr("Marker"), tr("Time"), tr("Length")});
    m_rename->setText(tr("Rename…"));
    m_recolor->setText(tr("Colour…"));
    m_delete->setText(tr("Delete"));
}

} // namespace dspark::ui
