#include "cli/CliCommand.h"

#include "analysis/AnalysisRules.h"
#include "model/Profile.h"
#include "steps/StepRecords.h"

#include <QCoreApplication>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <iterator>
#include <utility>

namespace dspark::cli {

const std::vector<Command>& commands()
{
    static const std::vector<Command> list = {
        {"info", "info PATH [--json]", QT_TRANSLATE_NOOP("cli", "List the files, ranks, lanes and totals of a profile"),
         false, &runInfo},
        {"analyze", "analyze PATH [--json] [--rules FILE]",
         QT_TRANSLATE_NOOP("cli", "Stage bands, communication waits, pre-replay gaps and critical path per step; "
                                  "overlap per device"),
         false, &runAnalyze},
        {"steps", "steps PATH [--csv|--json] [--rank R] [--anomaly-threshold Z]",
         QT_TRANSLATE_NOOP("cli", "Print the DSpark step table (derived columns, anomalies, timeline alignment), or "
                                  "the profile's own steps (ProfilerStep#N, scheduler iterations) without records"),
         false, &runSteps},
        {"kernels", "kernels PATH [--step N|--from MS --to MS] [--rank R] [--json|--csv]",
         QT_TRANSLATE_NOOP("cli", "Kernel / operator summary of the profile, a step or a range: per kernel, per "
                                  "accelerator core and per stage"),
         false, &runKernels},
        {"compare", "compare BASELINE CHANGED [--json|--csv|--md] [--class MODE:BS:VT]",
         QT_TRANSLATE_NOOP("cli", "Compare two runs: configuration, step distributions by class with intervals, "
                                  "matched step pairs, kernel regressions"),
         false, &runCompare},
        {"demo", "demo OUTDIR [--steps N] [--seed S] [--scale K] [--trace-json] [--compare | --ranks N]",
         QT_TRANSLATE_NOOP("cli", "Write the simulated DeepSeek-V4 + DSpark demo profile with its ground truth"), false,
         &runDemo},
        {"export",
         "export PATH [--step N] --out FILE [--width W] [--height H] [--lanes PATTERN] [--scale S] [--rank R] "
         "[--from MS] [--to MS] [--annotations FILE] [--no-annotations] [--no-legend]",
         QT_TRANSLATE_NOOP("cli", "Render a step (or the whole profile) with its analyses to PNG, SVG or PDF"), true,
         &runExport},
        {"summarize", "summarize RANKDIR --out FILE.json [--rank R] [--rules FILE]",
         QT_TRANSLATE_NOOP("cli", "Write one rank's summary (steps, collectives, lanes) for opening a large cluster"),
         false, &runSummarize},
    };
    return list;
}

const Command* findCommand(const QString& name)
{
    for (const Command& c : commands())
        if (name == QLatin1String(c.name))
            return &c;
    return nullptr;
}

void printError(const QString& message)
{
    std::fflush(stdout);
    const QByteArray line = (QStringLiteral("dspark-timeline: ") + message.simplified()).toUtf8();
    std::fprintf(stderr, "%s\n", line.constData());
    std::fflush(stderr);
}

void warnIfStepsRefused(const Profile& profile)
{
    if (profile.stepRecords && !profile.stepRecords->alignment.attached)
        printError(QCoreApplication::translate("cli", "warning: %1; they are listed but not placed on the timeline, "
                                                      "and no per-step analysis is made for them")
                       .arg(profile.stepRecords->alignment.refusal));
}

LoadOutcome loadForCommand(const QString& path, std::shared_ptr<const AnalysisRules> rules)
{
    LoadOptions options;
    options.rules = rules ? std::move(rules) : std::make_shared<const AnalysisRules>(AnalysisRules::load({}, nullptr));
    return loadProfile(path.toStdString(), {}, options);
}

std::shared_ptr<const AnalysisRules> loadRulesOption(const QString& rulesPath)
{
    QString error;
    auto rules = std::make_shared<const AnalysisRules>(AnalysisRules::load(rulesPath, &error));
    if (!error.isEmpty()) {
        printError(error);
        return nullptr;
    }
    return rules;
}

void printOut(const std::string& text)
{
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
}

QString takeOption(QStringList& args, const QString& name, const QString& fallback)
{
    const int i = args.indexOf(name);
    if (i < 0 || i + 1 >= args.size())
        return fallback;
    const QString value = args.at(i + 1);
    args.remove(i, 2);
    return value;
}

bool takeFlag(QStringList& args, const QString& name)
{
    return args.removeAll(name) > 0;
}

// East_Asian_Width W or F (Unicode 15, UAX #11): the ranges terminals draw two cells wide.
static bool isWide(char32_t u)
{
    static constexpr std::pair<char32_t, char32_t> ranges[] = {
        {0x1100, 0x115F},   {0x231A, 0x231B},   {0x2329, 0x232A},   {0x23E9, 0x23EC},   {0x23F0, 0x23F0},
        {0x23F3, 0x23F3},   {0x25FD, 0x25FE},   {0x2614, 0x2615},   {0x2648, 0x2653},   {0x267F, 0x267F},
        {0x2693, 0x2693},   {0x26A1, 0x26A1},   {0x26AA, 0x26AB},   {0x26BD, 0x26BE},   {0x26C4, 0x26C5},
        {0x26CE, 0x26CE},   {0x26D4, 0x26D4},   {0x26EA, 0x26EA},   {0x26F2, 0x26F3},   {0x26F5, 0x26F5},
        {0x26FA, 0x26FA},   {0x26FD, 0x26FD},   {0x2705, 0x2705},   {0x270A, 0x270B},   {0x2728, 0x2728},
        {0x274C, 0x274C},   {0x274E, 0x274E},   {0x2753, 0x2755},   {0x2757, 0x2757},   {0x2795, 0x2797},
        {0x27B0, 0x27B0},   {0x27BF, 0x27BF},   {0x2B1B, 0x2B1C},   {0x2B50, 0x2B50},   {0x2B55, 0x2B55},
        {0x2E80, 0x303E},   {0x3041, 0x33FF},   {0x3400, 0x4DBF},   {0x4E00, 0x9FFF},   {0xA000, 0xA4CF},
        {0xA960, 0xA97F},   {0xAC00, 0xD7A3},   {0xF900, 0xFAFF},   {0xFE10, 0xFE19},   {0xFE30, 0xFE6F},
        {0xFF00, 0xFF60},   {0xFFE0, 0xFFE6},   {0x16FE0, 0x16FE4}, {0x17000, 0x18CFF}, {0x1AFF0, 0x1B2FF},
        {0x1F004, 0x1F004}, {0x1F0CF, 0x1F0CF}, {0x1F18E, 0x1F18E}, {0x1F191, 0x1F19A}, {0x1F200, 0x1F251},
        {0x1F260, 0x1F265}, {0x1F300, 0x1F320}, {0x1F32D, 0x1F335}, {0x1F337, 0x1F37C}, {0x1F37E, 0x1F393},
        {0x1F3A0, 0x1F3CA}, {0x1F3CF, 0x1F3D3}, {0x1F3E0, 0x1F3F0}, {0x1F3F4, 0x1F3F4}, {0x1F3F8, 0x1F43E},
        {0x1F440, 0x1F440}, {0x1F442, 0x1F4FC}, {0x1F4FF, 0x1F53D}, {0x1F54B, 0x1F54E}, {0x1F550, 0x1F567},
        {0x1F57A, 0x1F57A}, {0x1F595, 0x1F596}, {0x1F5A4, 0x1F5A4}, {0x1F5FB, 0x1F64F}, {0x1F680, 0x1F6C5},
        {0x1F6CC, 0x1F6CC}, {0x1F6D0, 0x1F6D2}, {0x1F6D5, 0x1F6D7}, {0x1F6DC, 0x1F6DF}, {0x1F6EB, 0x1F6EC},
        {0x1F6F4, 0x1F6FC}, {0x1F7E0, 0x1F7EB}, {0x1F7F0, 0x1F7F0}, {0x1F90C, 0x1F93A}, {0x1F93C, 0x1F945},
        {0x1F947, 0x1F9FF}, {0x1FA70, 0x1FAFF}, {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD},
    };
    const auto it = std::upper_bound(std::begin(ranges), std::end(ranges), u,
                                     [](char32_t v, const std::pair<char32_t, char32_t>& r) { return v < r.first; });
    return it != std::begin(ranges) && u <= std::prev(it)->second;
}

int displayWidth(const QString& text)
{
    int width = 0;
    for (const char32_t u : text.toUcs4()) {
        switch (QChar::category(u)) {
        case QChar::Mark_NonSpacing:
        case QChar::Mark_Enclosing:
        case QChar::Other_Format: continue; // drawn on the previous character / invisible (ZWJ, ...)
        default: width += isWide(u) ? 2 : 1;
        }
    }
    return width;
}

std::string alignedColumns(const std::vector<std::vector<QString>>& rows, const std::vector<bool>& right,
                           const QString& indent)
{
    std::vector<int> width(right.size(), 0);
    for (const auto& row : rows)
        for (size_t c = 0; c < row.size() && c < width.size(); ++c)
            width[c] = std::max(width[c], displayWidth(row[c]));
    std::string out;
    for (const auto& row : rows) {
        QString line = indent;
        for (size_t c = 0; c < row.size(); ++c) {
            const QString pad(c < width.size() ? width[c] - displayWidth(row[c]) : 0, QLatin1Char(' '));
            const bool alignRight = c < right.size() && right[c];
            line += alignRight ? pad + row[c] : row[c] + pad;
            if (c + 1 < row.size())
                line += QStringLiteral("  ");
        }
        while (line.endsWith(QLatin1Char(' '))) // an empty or left-aligned last cell
            line.chop(1);
        out += line.toStdString() + "\n";
    }
    return out;
}

} // namespace dspark::cli
