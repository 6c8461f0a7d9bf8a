#pragma once

#include "analysis/StepAnalysis.h"
#include "report/ReportPainter.h"

#include <vector>

namespace dspark::ui {

// Which analysis layers a report shows (each adds its legend entries).
struct ReportParts {
    bool stageBands = true;
    bool commBrackets = true;
    bool criticalPath = true;
    bool annotations = true;
    bool legend = true;
};

// Short name of a profile for titles: the opened folder's or file's name.
QString profileDisplayName(const Profile& profile);
// Header of a one-step report: title line (profile · rank · forward_ct · bs · verify tokens · step wall
// · effective TPOT), the record's segment times, the critical path by category, the communication
// figures, and the step's anomaly as a warning.
ReportHeader stepReportHeader(const Profile& profile, const StepAnalysis& analysis, const RecordWindow& step);
// Header of a plain time-range report (no step).
ReportHeader rangeReportHeader(const Profile& profile, TimeNs startNs, TimeNs endNs);
// Legend entries of what the shown layers draw for `shown` (the analyses of the steps in the
// picture): a profile without DSpark steps gets no stage entries, a step without a replay no
// replay-gap entry.
std::vector<LegendItem> analysisLegend(const ReportParts& parts, const std::vector<const StepAnalysis*>& shown);
// The rows under a step figure that carry its headline figures: exposed communication per consumer
// stream (merged intervals, with the total and its share of the step), and the critical path by
// category as one bar drawn to the time scale; each with its layer (parts.commBrackets, criticalPath).
std::vector<SummaryRow> stepSummaryRows(const StepAnalysis& analysis, const ReportParts& parts);

} // namespace dspark::ui
