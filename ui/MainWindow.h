#pragma once

#include "model/Profile.h"

#include <QMainWindow>

#include <memory>

class QLabel;
class QProgressBar;
class QPushButton;
class QTreeWidget;
class QStackedWidget;

namespace dspark::ui {

class ProfileLoadTask;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens a path (folder or file) in the background.
    void openPath(const QString& path);
    // Handles the GUI's command line: a path, or nothing.
    void openFromCommandLine(const QStringList& args);
    std::shared_ptr<const Profile> profile() const { return m_profile; }
    bool isLoading() const;

Q_SIGNALS:
    void profileLoaded();
    void loadFailed(const QString& error);

private:
    void buildMenus();
    void openFolderDialog();
    void openFileDialog();
    void cancelLoading();
    void onLoadFinished(std::shared_ptr<Profile> profile, const QString& error, bool cancelled);
    void showProfile();

    std::shared_ptr<const Profile> m_profile;
    ProfileLoadTask* m_task = nullptr;
    QStackedWidget* m_stack = nullptr;
    QLabel* m_emptyLabel = nullptr;
    QTreeWidget* m_laneTree = nullptr;
    QProgressBar* m_progress = nullptr;
    QPushButton* m_cancelButton = nullptr;
    QLabel* m_status = nullptr;
};

} // namespace dspark::ui
