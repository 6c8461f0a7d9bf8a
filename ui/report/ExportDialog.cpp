#include "report/ExportDialog.h"

#include "overlays/AnnotationOverlay.h"
#include "report/TimelineReport.h"
#include "report/ViewReport.h"
#include "session/StepAnalyses.h"
#include "steps/StepRecords.h"
#include "timeline/TimelineSelection.h"
#include "timeline/TimelineView.h"
#include "timeline/TimelineWidget.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTimer>
#include <QVBoxLayout>

namespace dspark::ui {

ExportDialog::ExportDialog(TimelineWidget* timeline, StepAnalyses* analyses, AnnotationOverlay* annotations,
                           QWidget* parent)
    : QDialog(parent), m_timeline(timeline), m_analyses(analyses), m_annotations(annotations)
{
    setWindowTitle(tr("Export Image"));
    auto* layout = new QHBoxLayout(this);
    auto* left = new QVBoxLayout;
    layout->addLayout(left);

    auto* what = new QGroupBox(tr("What"), this);
    auto* whatLayout = new QFormLayout(what);
    m_viewButton = new QRadioButton(tr("Current view"), what);
    m_stepButton = new QRadioButton(tr("Step:"), what);
    m_stepBox = new QComboBox(what);
    m_allLanes = new QCheckBox(tr("All lanes (full height)"), what);
    m_lanes = new QLineEdit(what);
    m_lanes->setPlaceholderText(tr("e.g. Stream|Python (regular expression, empty = lanes with events)"));
    whatLayout->addRow(m_viewButton, m_allLanes);
    whatLayout->addRow(m_stepButton, m_stepBox);
    whatLayout->addRow(tr("Lanes:"), m_lanes);
    left->addWidget(what);

    auto* size = new QGroupBox(tr("Size"), this);
    auto* sizeLayout = new QFormLayout(size);
    m_width = new QSpinBox(size);
    m_width->setRange(400, 20000);
    m_width->setSuffix(tr(" px"));
    m_height = new QSpinBox(size);
    m_height->setRange(0, 20000);
    m_height->setSuffix(tr(" px"));
    m_height->setSpecialValueText(tr("fit all lanes"));
    m_scale = new QDoubleSpinBox(size);
    m_scale->setRange(0.5, 8);
    m_scale->setSingleStep(0.5);
    m_scale->setDecimals(1);
    m_scale->setSuffix(QStringLiteral("×"));
    m_scale->setToolTip(tr("Pixels per logical pixel of PNG output (2× for high-DPI screens and print)"));
    sizeLayout->addRow(tr("Width:"), m_width);
    sizeLayout->addRow(tr("Height:"), m_height);
    sizeLayout->addRow(tr("Scale:"), m_scale);
    left->addWidget(size);

    auto* include = new QGroupBox(tr("Include"), this);
    auto* includeLayout = new QVBoxLayout(include);
    m_bands = new QCheckBox(tr("Stage bands"), include);
    m_comm = new QCheckBox(tr("Communication brackets"), include);
    m_path = new QCheckBox(tr("Critical path"), include);
    m_notes = new QCheckBox(tr("Annotations"), include);
    m_legend = new QCheckBox(tr("Legend"), include);
    for (QCheckBox* c : {m_bands, m_comm, m_path, m_notes, m_legend}) {
        c->setChecked(true);
        includeLayout->addWidget(c);
    }
    left->addWidget(include);

    auto* fileRow = new QHBoxLayout;
    m_file = new QLineEdit(this);
    auto* browse = new QPushButton(tr("Browse…"), this);
    fileRow->addWidget(new QLabel(tr("File:"), this));
    fileRow->addWidget(m_file, 1);
    fileRow->addWidget(browse);
    left->addLayout(fileRow);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    left->addWidget(m_status);
    auto* buttons = new QDialogButtonBox(this);
    QPushButton* exportButton = buttons->addButton(tr("Export"), QDialogButtonBox::AcceptRole);
    QPushButton* copyButton = buttons->addButton(tr("Copy Image"), QDialogButtonBox::ActionRole);
    buttons->addButton(QDialogButtonBox::Cancel);
    left->addWidget(buttons);
    left->addStretch(1);

    m_preview = new QLabel(this);
    m_preview->setMinimumSize(480, 320);
    m_preview->setAlignment(Qt::AlignCenter);
    m_preview->setFrameShape(QFrame::StyledPanel);
    layout->addWidget(m_preview, 1);

    // Steps of the analyses, labelled as in the step table.
    int preselect = -1;
    if (analyses) {
        const Profile* profile = analyses->profile();
        const StepRecordSet* set = profile ? profile->stepRecords.get() : nullptr;
        const TimeNs centre = timeline ? (timeline->visibleStartNs() + timeline->visibleEndNs()) / 2 : 0;
        for (size_t i = 0; i < analyses->stepCount(); ++i) {
            const RecordWindow& w = analyses->step(i);
            const int rank = set && w.row < set->size() ? set->rows[w.row].dpRank : w.window.rankIndex;
            QString label = tr("forward_ct %1 (rank %2)").arg(w.window.forwardCt).arg(rank);
            if (set && w.row < set->anomalies.size() && !set->anomalies[w.row].isEmpty())
                label += tr(" — anomalous");
            m_stepBox->addItem(label, QVariant::fromValue<qulonglong>(i));
            if (w.window.startNs <= centre && centre < w.window.endNs)
                preselect = int(i);
        }
    }
    m_stepButton->setEnabled(m_stepBox->count() > 0);
    m_stepBox->setEnabled(m_stepBox->count() > 0);
    if (preselect >= 0)
        m_stepBox->setCurrentIndex(preselect);
    m_viewButton->setChecked(true);

    const int viewWidth = timeline ? timeline->view()->viewport()->width() : 1600;
    m_width->setValue(std::max(800, viewWidth));
    m_height->setValue(0);
    const double dpr = timeline ? timeline->devicePixelRatioF() : 1.0;
    m_scale->setValue(dpr > 1 ? dpr : 2.0);
    const QString base =
        timeline && timeline->profile() ? profileDisplayName(*timeline->profile()) : QStringLiteral("timeline");
    m_file->setText(QDir(defaultFolder()).filePath(base + QStringLiteral(".png")));

    auto* previewTimer = new QTimer(this);
    previewTimer->setSingleShot(true);
    previewTimer->setInterval(150);
    connect(previewTimer, &QTimer::timeout, this, &ExportDialog::updatePreview);
    auto changed = [this, previewTimer]() {
        updateControls();
        previewTimer->start();
    };
    for (QRadioButton* b : {m_viewButton, m_stepButton})
        connect(b, &QRadioButton::toggled, this, changed);
    for (QCheckBox* c : {m_allLanes, m_bands, m_comm, m_path, m_notes, m_legend})
        connect(c, &QCheckBox::toggled, this, changed);
    connect(m_stepBox, &QComboBox::currentIndexChanged, this, changed);
    connect(m_lanes, &QLineEdit::textChanged, this, changed);
    connect(m_width, &QSpinBox::valueChanged, this, changed);
    connect(m_height, &QSpinBox::valueChanged, this, changed);
    connect(browse, &QPushButton::clicked, this, &ExportDialog::browse);
    connect(exportButton, &QPushButton::clicked, this, [this]() {
        if (exportNow().isEmpty())
            accept();
    });
    connect(copyButton, &QPushButton::clicked, this, [this]() {
        const QImage img = image(m_scale->value());
        if (img.isNull())
            return;
        QGuiApplication::clipboard()->setImage(img);
        m_status->setText(tr("Copied a %1×%2 image to the clipboard.").arg(img.width()).arg(img.height()));
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    updateControls();
    previewTimer->start();
}

static const char* const kLastFolderKey = "export/lastFolder";

static bool isWritableFolder(const QString& dir)
{
    const QFileInfo info(dir);
    return !dir.isEmpty() && info.isDir() && info.isWritable();
}

QString ExportDialog::defaultFolder()
{
    const QString last = QSettings().value(QLatin1String(kLastFolderKey)).toString();
    if (isWritableFolder(last))
        return last;
    // The Pictures folder is created when missing (XDG names it even where nobody made it).
    const QString pictures = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
    if (!pictures.isEmpty() && (QFileInfo(pictures).isDir() || QDir().mkpath(pictures)) && isWritableFolder(pictures))
        return pictures;
    for (const QString& dir : {QDir::homePath(), QDir::currentPath(), QDir::tempPath()})
        if (isWritableFolder(dir))
            return dir;
    return QDir::tempPath();
}

void ExportDialog::rememberFolderOf(const QString& file)
{
    QSettings().setValue(QLatin1String(kLastFolderKey), QFileInfo(file).absolutePath());
}

void ExportDialog::setSource(Source source)
{
    (source == Source::Step ? m_stepButton : m_viewButton)->setChecked(true);
    updateControls();
}

void ExportDialog::setStep(size_t step)
{
    const int i = m_stepBox->findData(QVariant::fromValue<qulonglong>(step));
    if (i >= 0)
        m_stepBox->setCurrentIndex(i);
    setSource(Source::Step);
}

void ExportDialog::setPath(const QString& path)
{
    m_file->setText(path);
}

void ExportDialog::setImageSize(int width, int height)
{
    m_width->setValue(width);
    m_height->setValue(height);
}

void ExportDialog::setScale(double scale)
{
    m_scale->setValue(scale);
}

void ExportDialog::setLanePattern(const QString& pattern)
{
    m_lanes->setText(pattern);
}

void ExportDialog::setParts(const ReportParts& parts)
{
    m_bands->setChecked(parts.stageBands);
    m_comm->setChecked(parts.commBrackets);
    m_path->setChecked(parts.criticalPath);
    m_notes->setChecked(parts.annotations);
    m_legend->setChecked(parts.legend);
}

QString ExportDialog::path() const
{
    return m_file->text();
}

ReportParts ExportDialog::parts() const
{
    ReportParts p;
    p.stageBands = m_bands->isChecked();
    p.commBrackets = m_comm->isChecked();
    p.criticalPath = m_path->isChecked();
    p.annotations = m_notes->isChecked();
    p.legend = m_legend->isChecked();
    return p;
}

void ExportDialog::updateControls()
{
    const bool step = m_stepButton->isChecked();
    m_stepBox->setEnabled(step && m_stepBox->count() > 0);
    m_lanes->setEnabled(step);
    m_allLanes->setEnabled(!step);
}

QImage ExportDialog::image(double scale) const
{
    if (!m_timeline || !m_timeline->profile())
        return {};
    const QSize size(m_width->value(), m_height->value());
    if (m_stepButton->isChecked() && m_analyses && m_stepBox->currentIndex() >= 0) {
        TimelineReport report(m_analyses);
        report.setParts(parts());
        if (!report.setLanePattern(m_lanes->text()).isEmpty())
            return {};
        if (m_annotations)
            report.setAnnotations(m_annotations->annotations());
        report.showStep(size_t(m_stepBox->currentData().toULongLong()));
        return report.toImage(size, scale);
    }
    const ViewReport report(*m_timeline, m_analyses, parts(), m_allLanes->isChecked());
    QSize viewSize = report.preferredSize();
    viewSize.setWidth(size.width());
    if (size.height() > 0)
        viewSize.setHeight(size.height());
    return report.toImage(viewSize, scale);
}

void ExportDialog::updatePreview()
{
    const QImage img = image(1.0);
    if (img.isNull()) {
        m_preview->setText(tr("Nothing to export"));
        return;
    }
    m_preview->setPixmap(QPixmap::fromImage(
        img.scaled(m_preview->size().boundedTo(QSize(900, 700)), Qt::KeepAspectRatio, Qt::SmoothTransformation)));
    m_status->setText(tr("%1×%2 px at %3× = %4×%5 pixels")
                          .arg(img.width())
                          .arg(img.height())
                          .arg(m_scale->value())
                          .arg(int(img.width() * m_scale->value()))
                          .arg(int(img.height() * m_scale->value())));
}

void ExportDialog::browse()
{
    const QString file = QFileDialog::getSaveFileName(this, tr("Export Image"), m_file->text(),
                                                      tr("PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf)"));
    if (!file.isEmpty())
        m_file->setText(file);
}

QString ExportDialog::exportNow()
{
    const QString file = m_file->text().trimmed();
    QString error;
    const std::optional<ImageFormat> format = imageFormatForPath(file);
    if (file.isEmpty() || !format)
        error = tr("%1: choose a file ending in .png, .svg or .pdf").arg(file);
    else if (!m_timeline || !m_timeline->profile())
        error = tr("No profile is open.");
    if (error.isEmpty() && m_timeline->selection())
        m_timeline->selection()->setHovered({}); // no hover outline in a report
    const QString folder = QFileInfo(file).absolutePath();
    if (error.isEmpty() && !QFileInfo(folder).isDir() && !QDir().mkpath(folder))
        error = tr("%1: the folder cannot be created").arg(QDir::toNativeSeparators(folder));
    if (error.isEmpty()) {
        const QSize size(m_width->value(), m_height->value());
        if (m_stepButton->isChecked() && m_analyses && m_stepBox->currentIndex() >= 0) {
            TimelineReport report(m_analyses);
            report.setParts(parts());
            error = report.setLanePattern(m_lanes->text());
            if (error.isEmpty()) {
                if (m_annotations)
                    report.setAnnotations(m_annotations->annotations());
                report.showStep(size_t(m_stepBox->currentData().toULongLong()));
                error = report.exportTo(file, *format, size, m_scale->value());
            }
        } else {
            const ViewReport report(*m_timeline, m_analyses, parts(), m_allLanes->isChecked());
            QSize viewSize = report.preferredSize();
            viewSize.setWidth(size.width());
            if (size.height() > 0)
                viewSize.setHeight(size.height());
            error = report.exportTo(file, *format, viewSize, m_scale->value());
        }
    }
    if (!error.isEmpty()) {
        m_status->setText(error);
        if (isVisible())
            QMessageBox::warning(this, tr("Export Image"), error);
    } else {
        m_status->setText(tr("Wrote %1").arg(QDir::toNativeSeparators(file)));
        rememberFolderOf(file);
    }
    return error;
}

void ExportDialog::copyViewToClipboard(const TimelineWidget& timeline, const StepAnalyses* analyses, double scale)
{
    const ViewReport report(timeline, analyses, ReportParts{}, false);
    const QImage img = report.toImage({}, scale);
    if (!img.isNull())
        QGuiApplication::clipboard()->setImage(img);
}

} // namespace dspark::ui
