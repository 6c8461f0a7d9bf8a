#include "panels/FileListPanel.h"

#include "io/FileFormat.h"

#include <QDir>
#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace dspark::ui {

namespace {
enum Column { StatusColumn, FormatColumn, FileColumn, NoteColumn, ColumnCount };
}

FileListPanel::FileListPanel(QWidget* parent) : QWidget(parent)
{
    m_tree = new QTreeWidget(this);
    m_tree->setObjectName(QStringLiteral("fileList"));
    m_tree->setColumnCount(ColumnCount);
    m_tree->setRootIsDecorated(false);
    m_tree->setAlternatingRowColors(true);
    m_tree->setWordWrap(false);
    // Paths elided in the middle: the end names the file; the tooltip is whole (fitColumns() sizes them).
    m_tree->setTextElideMode(Qt::ElideMiddle);
    m_tree->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_tree->header()->setSectionResizeMode(FileColumn, QHeaderView::Interactive);
    m_tree->header()->setStretchLastSection(true);
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_summary->setContentsMargins(4, 2, 4, 2);
    auto* box = new QVBoxLayout(this);
    box->setContentsMargins(0, 0, 0, 0);
    box->setSpacing(0);
    box->addWidget(m_summary);
    box->addWidget(m_tree, 1);
    rebuild();
}

void FileListPanel::setProfile(std::shared_ptr<const Profile> profile)
{
    m_profile = std::move(profile);
    rebuild();
}

void FileListPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        rebuild();
}

void FileListPanel::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    fitColumns();
}

void FileListPanel::fitColumns()
{
    // Status and format as wide as they read; the path stretches to the edge, elided in the middle. The
    // notes get a column when some file has one and the list has room for it (a narrow dock: the path
    // first, the note in the status's tooltip).
    bool noted = false;
    for (int i = 0; i < m_tree->topLevelItemCount() && !noted; ++i)
        noted = !m_tree->topLevelItem(i)->text(NoteColumn).isEmpty();
    const int room =
        m_tree->viewport()->width() - m_tree->columnWidth(StatusColumn) - m_tree->columnWidth(FormatColumn);
    constexpr int kPathAtLeast = 240, kNoteAtLeast = 160; // px
    const bool shown = noted && room >= kPathAtLeast + kNoteAtLeast;
    m_tree->setColumnHidden(NoteColumn, !shown); // (no empty "Why" stretching)
    if (shown) {
        m_tree->resizeColumnToContents(FileColumn);
        m_tree->setColumnWidth(FileColumn,
                               std::clamp(m_tree->columnWidth(FileColumn), kPathAtLeast, room - kNoteAtLeast));
    }
}

void FileListPanel::rebuild()
{
    m_tree->setHeaderLabels({tr("Status"), tr("Format"), tr("File"), tr("Why")});
    m_tree->clear();
    if (!m_profile) {
        m_summary->setText(tr("No profile open."));
        return;
    }
    const QDir root(QString::fromStdString(m_profile->rootPath));
    size_t loaded = 0;
    for (const SourceFile& f : m_profile->files) {
        auto* item = new QTreeWidgetItem(m_tree);
        const QString path = QString::fromStdString(f.path);
        const QString relative = root.exists() && root.path() != path ? root.relativeFilePath(path) : path;
        QString status = tr("not loaded");
        if (f.loaded) {
            status = tr("loaded");
            ++loaded;
        } else if (!f.duplicateOf.empty()) {
            status = tr("duplicate");
        }
        item->setText(StatusColumn, status);
        item->setText(FormatColumn, fileFormatDisplayName(f.format));
        item->setText(FileColumn, QDir::toNativeSeparators(relative));
        item->setToolTip(FileColumn, QDir::toNativeSeparators(path));
        const QString note =
            !f.duplicateOf.empty()
                ? tr("same content as %1")
                      .arg(QDir::toNativeSeparators(root.relativeFilePath(QString::fromStdString(f.duplicateOf))))
                : QString::fromStdString(f.note);
        item->setText(NoteColumn, note);
        item->setToolTip(NoteColumn, note);
        item->setToolTip(StatusColumn, note); // (the note's column may be hidden)
        if (!f.loaded)
            for (int c = 0; c < ColumnCount; ++c)
                item->setForeground(c, palette().color(QPalette::Disabled, QPalette::Text));
    }
    fitColumns();
    const ScanSummary& scan = m_profile->scan;
    QString text = tr("%1 of %2 files loaded; %3 files looked at (at most %4, %5 folder levels)")
                       .arg(loaded)
                       .arg(m_profile->files.size())
                       .arg(scan.examined)
                       .arg(scan.maxFiles)
                       .arg(scan.maxDepth);
    if (scan.stoppedAtDepth || scan.stoppedAtCount)
        text += tr(" — the scan stopped before the end of the folder");
    const int rawFolders = static_cast<int>(scan.rawFolders.size()); // a plain name: lupdate skips casts
    if (rawFolders > 0)
        text += tr("; %n raw data folder(s) not read", nullptr, rawFolders);
    m_summary->setText(text);
}

} // namespace dspark::ui
