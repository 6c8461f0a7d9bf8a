#pragma once

#include "model/Profile.h"

#include <QWidget>

#include <memory>

class QLabel;
class QTreeWidget;

namespace dspark::ui {

// Every file the scan of the opened path looked at: loaded, not loaded (why) or a duplicate (of which),
// with its recognised format, and how far the scan went.
class FileListPanel : public QWidget {
    Q_OBJECT
public:
    explicit FileListPanel(QWidget* parent = nullptr);
    void setProfile(std::shared_ptr<const Profile> profile);
    QTreeWidget* tree() const { return m_tree; }

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void rebuild();
    void fitColumns(); // the path first; a note (when some file has one) gets what is left

    std::shared_ptr<const Profile> m_profile;
    QTreeWidget* m_tree = nullptr;
    QLabel* m_summary = nullptr;
};

} // namespace dspark::ui
