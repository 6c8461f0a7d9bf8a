#pragma once

#include "session/AnnotationSet.h"

#include <QColor>
#include <QWidget>

#include <functional>
#include <optional>
#include <vector>

class QLabel;
class QPushButton;
class QTreeWidget;

namespace dspark {
class Profile;
}

namespace dspark::ui {

class AnnotationOverlay;

// The Markers dock: the profile's markers (annotations of kind Marker) in time order with their
// colour, time and length. Rename, recolour and delete the current one (each one undo step, through
// the overlay); a double-click or Enter asks the timeline to go there (markerActivated).
class MarkersPanel : public QWidget {
    Q_OBJECT
public:
    // Ask for a name / a colour; nullopt = cancelled. Defaults show dialogs; tests replace them.
    using NamePrompt = std::function<std::optional<QString>(QWidget* parent, const QString& current)>;
    using ColorPrompt = std::function<std::optional<QColor>(QWidget* parent, const QColor& current)>;

    explicit MarkersPanel(AnnotationOverlay* overlay, QWidget* parent = nullptr);

    void setNamePrompt(NamePrompt prompt) { m_namePrompt = std::move(prompt); }
    void setColorPrompt(ColorPrompt prompt) { m_colorPrompt = std::move(prompt); }

    QTreeWidget* list() const { return m_list; }
    // Annotation index of the marker in list row `row`, or -1.
    int annotationAt(int row) const;
    int currentAnnotation() const;
    int rowCount() const;

    void renameCurrent();
    void recolorCurrent();
    void deleteCurrent();

Q_SIGNALS:
    void markerActivated(int annotationIndex);

protected:
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override; // Delete, F2 in the list

private:
    void rebuild();
    void retranslate();
    void followOverlaySelection(int annotationIndex);

    AnnotationOverlay* m_overlay;
    QLabel* m_hint = nullptr;
    QTreeWidget* m_list = nullptr;
    QPushButton* m_rename = nullptr;
    QPushButton* m_recolor = nullptr;
    QPushButton* m_delete = nullptr;
    NamePrompt m_namePrompt;
    ColorPrompt m_colorPrompt;
    bool m_rebuilding = false;
    // What the rows show (rebuilt only when it changes).
    const Profile* m_shownProfile = nullptr;
    std::vector<int> m_shownIndexes;
    std::vector<Annotation> m_shown;
};

} // namespace dspark::ui
