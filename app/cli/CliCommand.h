#pragma once

#include "io/ProfileLoader.h"

#include <QStringList>

#include <memory>
#include <string>
#include <vector>

namespace dspark {
class Profile;
struct PlainSteps;
struct AnalysisRules;
} // namespace dspark

namespace dspark::cli {

// One headless sub-command of `dspark-timeline`. Adding a command = one entry in Commands.cpp.
struct Command {
    const char* name;
    const char* usage;                   // e.g. "info PATH [--json]"
    const char* summary;                 // one line for --help
    bool needsGui;                       // renders images (QGuiApplication on the offscreen platform)
    int (*run)(const QStringList& args); // args after the command name; returns the exit code
};

const std::vector<Command>& commands();
const Command* findCommand(const QString& name);

// Helpers shared by commands.
void printError(const QString& message); // "dspark-timeline: <message>" on stderr
void printOut(const std::string& text);  // stdout, flushed
QString takeOption(QStringList& args, const QString& name, const QString& fallback = {}); // --name VALUE
bool takeFlag(QStringList& args, const QString& name);
// Terminal columns `text` takes: East Asian wide and fullwidth characters (CJK, Hangul, fullwidth
// forms, emoji) count 2, combining marks and zero-width formatting characters 0, anything else 1.
int displayWidth(const QString& text);
// The rows as lines padded to terminal columns (displayWidth), columns two spaces apart, each line
// after `indent`; columns marked in `right` are right-aligned. Trailing spaces are dropped.
std::string alignedColumns(const std::vector<std::vector<QString>>& rows, const std::vector<bool>& right,
                           const QString& indent = {});

// The profile's own steps (no DSpark records) as a table for people: their source, the rows, a count.
std::string plainStepsText(const Profile& profile, const PlainSteps& steps);

// loadProfile() with the analysis rules the command uses (null: the user's rules file over the defaults,
// as the window does), so that the step alignment reads the same step_span rule as the analyses.
LoadOutcome loadForCommand(const QString& path, std::shared_ptr<const AnalysisRules> rules = {});
// The analysis rules of a `--rules FILE` option (empty: the user's rules file over the defaults), or null
// once the reason it does not load is on stderr (the command then exits with 1).
std::shared_ptr<const AnalysisRules> loadRulesOption(const QString& rulesPath);
// Says on stderr when the profile's step records were not attached (they disagree with its timeline).
void warnIfStepsRefused(const Profile& profile);

int runInfo(const QStringList& args);
int runAnalyze(const QStringList& args);
int runSteps(const QStringList& args);
int runDemo(const QStringList& args);
int runExport(const QStringList& args);
int runCompare(const QStringList& args);
int runSummarize(const QStringList& args);
int runKernels(const QStringList& args);

} // namespace dspark::cli
