#include "MainWindow.h"

#include "ProfileLoadTask.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTreeWidget>

namespace dspark::ui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent)
{
    setWindowTitle(tr("DSpark Timeline"));
    resize(1280, 800);
    m_stack = new QStackedWidget(this);
    m_emptyLabel = new QLabel(tr("Open a profile folder (File › Open Profile Folder…) or drop one here."), m_stack);
    m_emptyLabel->setAlignment(Qt::AlignCenter);
    m_laneTree = new QTreeWidget(m_stack);
    m_laneTree->setHeaderLabels({tr("Lane"), tr("Kind"), tr("Events")});
    m_laneTree->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_stack->addWidget(m_emptyLabel);
    m_stack->addWidget(m_laneTree);
    setCentralWidget(m_stack);

    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
    m_progress->setMaximumWidth(240);
    m_progress->hide();
    m_cancelButton = new QPushButton(tr("Cancel"), this);
    m_cancelButton->hide();
    connect(m_cancelButton, &QPushButton::clicked, this, &MainWindow::cancelLoading);
    m_status = new QLabel(this);
    statusBar()->addWidget(m_status, 1);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancelButton);
    buildMenus();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* openFolder = file->addAction(tr("Open Profile &Folder…"), this, &MainWindow::openFolderDialog);
    openFolder->setShortcut(QKeySequence::Open);
    QAction* openFile = file->addAction(tr("Open F&ile…"), this, &MainWindow::openFileDialog);
    openFile->setShortcut(QKeySequence(tr("Ctrl+Shift+O")));
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
}

void MainWindow::openFolderDialog()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open Profile Folder"));
    if (!dir.isEmpty())
        openPath(dir);
}

void MainWindow::openFileDialog()
{
    const QString file = QFileDialog::getOpenFileName(
        this, tr("Open Profile File"), {},
        tr("Profiles (*.db *.json *.json.gz *.jsonl);;All files (*)"));
    if (!file.isEmpty())
        openPath(file);
}

void MainWindow::openFromCommandLine(const QStringList& args)
{
    for (const QString& a : args)
        if (!a.startsWith(QLatin1Char('-'))) {
            openPath(a);
            return;
        }
}

bool MainWindow::isLoading() const
{
    return m_task && m_task->isRunning();
}

void MainWindow::openPath(const QString& path)
{
    if (m_task) {
        m_task->cancel();
        m_task->deleteLater();
    }
    m_task = new ProfileLoadTask(path, this);
    connect(m_task, &ProfileLoadTask::progress, this, [this](double fraction, const QString& phase) {
        m_progress->setValue(static_cast<int>(fraction * 1000));
        if (!phase.isEmpty())
            m_status->setText(phase);
    });
    connect(m_task, &ProfileLoadTask::finished, this, &MainWindow::onLoadFinished);
    m_progress->setValue(0);
    m_progress->show();
    m_cancelButton->show();
    m_status->setText(tr("Loading %1…").arg(path));
    m_task->start();
}

void MainWindow::cancelLoading()
{
    if (m_task)
        m_task->cancel();
}

void MainWindow::onLoadFinished(std::shared_ptr<Profile> profile, const QString& error, bool cancelled)
{
    m_progress->hide();
    m_cancelButton->hide();
    if (cancelled) {
        m_status->setText(tr("Loading cancelled"));
        return;
    }
    if (!profile) {
        m_status->setText(error);
        Q_EMIT loadFailed(error);
        QMessageBox::warning(this, tr("Cannot open profile"), error);
        return;
    }
    m_profile = std::move(profile);
    showProfile();
    Q_EMIT profileLoaded();
}

void MainWindow::showProfile()
{
    m_laneTree->clear();
    for (const Lane& lane : m_profile->lanes) {
        auto* item = new QTreeWidgetItem(m_laneTree);
        item->setText(0, QString::fromStdString(lane.info.process + " / " + lane.info.name));
        item->setText(1, QString::fromLatin1(laneKindName(lane.info.kind)));
        item->setText(2, QString::number(lane.size()));
    }
    m_stack->setCurrentWidget(m_laneTree);
    setWindowTitle(tr("%1 — DSpark Timeline").arg(QFileInfo(QString::fromStdString(m_profile->rootPath)).fileName()));
    m_status->setText(tr("%n lane(s), %1 warning(s)", nullptr, static_cast<int>(m_profile->lanes.size()))
                          .arg(m_profile->warnings.size()));
}

} // namespace dspark::ui
