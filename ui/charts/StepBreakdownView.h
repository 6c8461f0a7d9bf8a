#pragma once

#include "analysis/StepAnalysis.h"

#include <QWidget>

class QChartView;
class QLabel;
class QTreeWidget;

namespace dspark::ui {

// The breakdown of one step (issue 7 §3): where its wall time went on the critical path — one bar
// split by category and a table of the categories (time, share of the wall) — next to the stage bands
// checked against the record's segment times and the communication figures.
class StepBreakdownView : public QWidget {
    Q_OBJECT
public:
    explicit StepBreakdownView(QWidget* parent = nullptr);

    // The step's analysis and, when it has one, its record row (null clears the view).
    void setStep(const Profile* profile, const StepAnalysis* analysis, const RecordWindow* step);
    QTreeWidget* table() const { return m_table; }
    QChartView* chartView() const { return m_chart; }
    QString caption() const;
    // Header texts in the current language (the panel calls it on a language change).
    void retranslate();

private:
    QLabel* m_title = nullptr;
    QChartView* m_chart = nullptr;
    QTreeWidget* m_table = nullptr;
};

} // namespace dspark::ui
