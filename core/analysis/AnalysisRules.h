#pragma once

#include "model/StringTable.h"

#include <QRegularExpression>
#include <QString>
#include <QStringList>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dspark {

// The user-editable name rules of the analyses (resources/analysis_rules.json, docs/analysis.md).
// Analyses look at lane and event kinds and links; names matter only where the profile carries no
// other signal: which host span is the draft / verify forward, which eager kernels are accept or
// commit work, which device kernels are communication.
enum class RuleId : uint8_t {
    StepSpan,       // host span of one scheduler iteration
    DraftSpan,      // host span of the draft forward / proposer
    VerifySpan,     // host span of the target verify forward
    AcceptSpan,     // host span of the eager accept / finalize after verify
    CommitSpan,     // host span of the eager commit of target hidden / KV after verify
    ReplayCall,     // host call that replays the verify graph
    AcceptKernels,  // eager Accept / Finalize / TP-sync kernels after verify (when no accept span)
    CommitKernels,  // eager commit of target hidden / KV after verify (when no commit span)
    CommKernels,    // device kernels that are communication (collectives)
    DeepepDispatch, // DeepEP dispatch kernels (communication)
    DeepepCombine,  // DeepEP combine kernels (communication)
    CommHookCalls,  // host calls that wait for communication (recv hook, dispatch_b / combine_b)
    HostSyncCalls,  // host calls that block until device work is done (synchronize, blocking memcpy)
    Count
};
constexpr size_t kRuleCount = static_cast<size_t>(RuleId::Count);
const char* ruleKey(RuleId id); // the JSON key, e.g. "accept_kernels"

// A list of case-insensitive regular expressions; a name matches when any of them matches.
class NameRule {
public:
    // Compiles the patterns; returns an error naming the bad pattern, or empty.
    QString setPatterns(const QStringList& patterns);
    const QStringList& patterns() const { return m_patterns; }
    bool matches(std::string_view name) const;
    bool matches(const QString& name) const;
    // `folded`: `name` lower-cased by foldAscii, which returned true.
    bool matchesFolded(std::string_view name, std::string_view folded) const;
    // ASCII lower case of a printable-ASCII `name` into `folded`; false (and `folded` unfinished) when
    // `name` has another byte, which only the regular expressions decide.
    static bool foldAscii(std::string_view name, std::string& folded);

private:
    // What a pattern says without running it on a printable-ASCII name (where PCRE's caseless match is
    // ASCII case folding): a pattern of plain characters (with ^ / $) is decided by comparing, any other
    // is skipped when the name lacks the plain run that every match of it contains (`needle`, empty:
    // none known). Names with other bytes always go to the regular expression.
    struct Literal {
        enum class Kind : uint8_t { None, Anywhere, Prefix, Suffix, Whole } kind = Kind::None;
        std::string text;   // lower case; the whole pattern's text when kind != None
        std::string needle; // lower case; kind == None only
    };
    static Literal literalOf(const QString& pattern);
    QStringList m_patterns;
    std::vector<QRegularExpression> m_regex;
    std::vector<Literal> m_literals; // one per pattern
};

struct AnalysisRules {
    std::array<NameRule, kRuleCount> rules;
    std::vector<int64_t> commStreams; // device stream ids that are communication streams (besides auto)

    const NameRule& rule(RuleId id) const { return rules[static_cast<size_t>(id)]; }

    // The embedded defaults (:/analysis/analysis_rules.json).
    static AnalysisRules defaults();
    // The same defaults, made once per process (for callers given no rules).
    static const AnalysisRules& builtin();
    // Defaults, then the user's rules file (userRulesPath()) when it exists, then `overridePath` when
    // not empty. On a bad file: the defaults plus what was valid before it, and `error` names the file.
    static AnalysisRules load(const QString& overridePath, QString* error);
    // Where the user's own rules live: <config>/analysis_rules.json.
    static QString userRulesPath();

    // Applies one rules document: every key given replaces that rule. Returns an error naming
    // `fileName` and the problem, or empty.
    QString apply(const QByteArray& json, const QString& fileName);
};

// Which rules each interned name of a profile matches, computed once per name on first use (so a
// rule costs one regex run per distinct name, not per event). Not thread-safe: one per analysis run.
class NameClassifier {
public:
    NameClassifier(const StringTable& strings, const AnalysisRules& rules);
    bool matches(uint32_t nameId, RuleId id) const;
    const AnalysisRules& rules() const { return m_rules; }

private:
    uint16_t classify(std::string_view name) const;
    const StringTable& m_strings;
    const AnalysisRules& m_rules;
    mutable std::vector<uint16_t> m_bits; // bit 15: computed; bit i: rule i matches
    mutable std::string m_folded;         // classify's buffer, reused across names
};

} // namespace dspark
