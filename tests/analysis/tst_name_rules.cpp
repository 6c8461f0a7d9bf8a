// Name rules decide plain patterns on printable-ASCII names without running the regular expression
// (and skip a pattern whose required run of characters a name lacks): the answer must be the regular
// expression's own for every pattern and name, the tricky ones included (optional and counted
// characters, classes, escapes, anchors, Unicode case folding, a final newline).
#include "analysis/AnalysisRules.h"
#include "model/StringTable.h"

#include <QFile>
#include <QTest>

#include <iterator>
#include <random>

#include <nlohmann/json.hpp>

using namespace dspark;

class TestNameRules : public QObject {
    Q_OBJECT

    static QStringList trickyPatterns()
    {
        return {QStringLiteral("accept"),
                QStringLiteral("^hcom_"),
                QStringLiteral("^aclrtMemcpy$"),
                QStringLiteral("Cache$"),
                QStringLiteral("^scheduler\\.run_batch$"),
                QStringLiteral("step\\[TARGET"),
                QStringLiteral("finali[sz]e"),
                QStringLiteral("kv_?inject"),
                QStringLiteral("\\bhook\\b"),
                QStringLiteral("^draft\\b"),
                QStringLiteral("ab?c"),
                QStringLiteral("ab*c"),
                QStringLiteral("ab+c"),
                QStringLiteral("x{2}y"),
                QStringLiteral("xy{1,3}z"),
                QStringLiteral("a.c"),
                QStringLiteral("foo\\d{3}"),
                QStringLiteral("\\x41bc"),
                QStringLiteral("\\Qa.c\\E"),
                QStringLiteral("a|zz"),
                QStringLiteral("(ab)+"),
                QStringLiteral("[]a]bc"),
                QStringLiteral("[^x]yz"),
                QStringLiteral("k"),
                QStringLiteral("s"),
                QStringLiteral("^$"),
                QStringLiteral(""),
                QStringLiteral("a\\$"),
                QStringLiteral("1,2"),
                QStringLiteral("^Hccl"),
                QStringLiteral("all_?reduce"),
                QStringLiteral("dispatch_b")};
    }

    static QStringList trickyNames()
    {
        return {QStringLiteral("accept"),
                QStringLiteral("FinalizeAcceptLens"),
                QStringLiteral("hcom_allReduce__210_0_1"),
                QStringLiteral("HCOM_x"),
                QStringLiteral("xhcom_"),
                QStringLiteral("aclrtMemcpy"),
                QStringLiteral("aclrtMemcpyAsync"),
                QStringLiteral("aclrtMemcpy\n"),
                QStringLiteral("ReshapeAndCache"),
                QStringLiteral("reshapeandcache\n"),
                QStringLiteral("scheduler.run_batch"),
                QStringLiteral("scheduler_run_batch"),
                QStringLiteral("step[TARGET_VERIFY]"),
                QStringLiteral("finalise"),
                QStringLiteral("FINALIZE"),
                QStringLiteral("kvinject"),
                QStringLiteral("kv_inject"),
                QStringLiteral("recv_hook"),
                QStringLiteral("a hook here"),
                QStringLiteral("draft_model"),
                QStringLiteral("draft model"),
                QStringLiteral("ac"),
                QStringLiteral("abc"),
                QStringLiteral("abbbc"),
                QStringLiteral("xxy"),
                QStringLiteral("xyyyz"),
                QStringLiteral("axc"),
                QStringLiteral("foo123"),
                QStringLiteral("Abc"),
                QStringLiteral("a.c"),
                QStringLiteral("zz"),
                QStringLiteral("ababab"),
                QStringLiteral("]bc"),
                QStringLiteral("ayz"),
                QStringLiteral("\u212A"),      // KELVIN SIGN: folds to k under Unicode case folding
                QStringLiteral("\u017F"),      // LATIN SMALL LETTER LONG S: folds to s
                QStringLiteral("acc\u00e9pt"), // non-ASCII: the regular expression decides
                QStringLiteral("a$"),
                QStringLiteral("1,2,3"),
                QStringLiteral("HcclAllReduce"),
                QStringLiteral("all_reduce"),
                QStringLiteral("DISPATCH_B"),
                QStringLiteral("tab\there"),
                QString()};
    }

    // One rule per pattern; its answer against the regular expression's for every name.
    static void compare(const QStringList& patterns, const QStringList& names)
    {
        for (const QString& p : patterns) {
            NameRule rule;
            QVERIFY2(rule.setPatterns({p}).isEmpty(), qPrintable(p));
            const QRegularExpression re(p, QRegularExpression::CaseInsensitiveOption);
            for (const QString& n : names) {
                const QByteArray utf8 = n.toUtf8();
                const bool expected = re.match(n).hasMatch();
                QVERIFY2(rule.matches(std::string_view(utf8.constData(), size_t(utf8.size()))) == expected,
                         qPrintable(QStringLiteral("pattern \"%1\", name \"%2\": expected %3")
                                        .arg(p, n, expected ? QStringLiteral("match") : QStringLiteral("none"))));
                QCOMPARE(rule.matches(n), expected);
            }
        }
    }

private Q_SLOTS:
    void trickyPatternsAnswerAsTheRegularExpression() { compare(trickyPatterns(), trickyNames()); }

    void plainPatternsStillMatchWhatTheyShould()
    {
        // Worked out by hand: the fast path must not only agree, it must agree on these answers.
        NameRule rule;
        QVERIFY(rule.setPatterns({QStringLiteral("^aclrtMemcpy$"), QStringLiteral("kv_?inject")}).isEmpty());
        QVERIFY(rule.matches(std::string_view("ACLRTMEMCPY")));
        QVERIFY(!rule.matches(std::string_view("aclrtMemcpyAsync")));
        QVERIFY(rule.matches(std::string_view("do_KVinject_now")));
        QVERIFY(rule.matches(std::string_view("kv_inject")));
        QVERIFY(!rule.matches(std::string_view("kv__inject")));
        QVERIFY(!rule.matches(std::string_view("")));
    }

    void posixClassesInsideAClassAreNotRequiredCharacters()
    {
        // "[[:digit:]x]y" is one character (a digit or x) then y: "3y" matches without any x. A reading that
        // stops the class at the POSIX class's ']' takes the x for a required character and skips "3y".
        NameRule rule;
        QVERIFY(rule.setPatterns({QStringLiteral("[[:digit:]x]y")}).isEmpty());
        QVERIFY(rule.matches(std::string_view("3y")));
        QVERIFY(rule.matches(std::string_view("XY")));
        QVERIFY(!rule.matches(std::string_view("ay")));
        QVERIFY(rule.setPatterns({QStringLiteral("^[[:alpha:]_]kernel$")}).isEmpty());
        QVERIFY(rule.matches(std::string_view("Akernel")));
        QVERIFY(rule.matches(std::string_view("_KERNEL")));
        QVERIFY(!rule.matches(std::string_view("1kernel")));
        QVERIFY(rule.setPatterns({QStringLiteral("[^[:space:]q]z")}).isEmpty());
        QVERIFY(rule.matches(std::string_view("az")));
        QVERIFY(!rule.matches(std::string_view(" z")));
        QVERIFY(!rule.matches(std::string_view("Qz")));
    }

    // Patterns put together from the pieces the reading of patterns treats apart (anchors, classes,
    // quantifiers, escapes, counted repeats), on names of the characters they involve: the regular
    // expression's answer every time. The generator is fixed (mt19937, seed 19): the same cases each run.
    void randomPatternsAnswerAsTheRegularExpression()
    {
        // The pieces, separated by single spaces (a space is a piece of its own below).
        const QStringList pieces =
            QStringLiteral(R"(a b A _ x - . * + ? {2} {1,2} {,2} { } ] [ab] [^a] []a] [a-c] [[] [\]] [[:digit:]a] )"
                           R"([[:alpha:]] [[.a.]] \b \d \. \\ \$ \^ ^ $ # 1 \- {0} {0,} *? +? ?? \] [^]a] \B \w \s )"
                           R"([\d] {1} {2,}? \{ \[ [a\]] {a} {1,a} x{ \} % @ ^^ $$ (?i) (?-i) |)")
                .split(QLatin1Char(' '))
            << QStringLiteral(" ");
        static const char* const letters[] = {"a", "b", "A", "B", "x", "_", "1", ".", "$", "\\",
                                              "{", "}", "-", " ", "]", "[", "2", "#", "^"};
        std::mt19937 random(19);
        const auto pick = [&](auto& list) { return list[random() % std::size(list)]; };
        int tried = 0;
        for (int i = 0; i < 20000; ++i) {
            QString pattern;
            for (int k = 1 + int(random() % 5); k > 0; --k)
                pattern += pieces[qsizetype(random() % size_t(pieces.size()))];
            const QRegularExpression re(pattern, QRegularExpression::CaseInsensitiveOption);
            NameRule rule;
            if (!re.isValid() || !rule.setPatterns({pattern}).isEmpty())
                continue;
            ++tried;
            for (int n = 0; n < 12; ++n) {
                std::string name;
                for (int k = int(random() % 6); k > 0; --k)
                    name += pick(letters);
                const bool expected = re.match(QString::fromStdString(name)).hasMatch();
                QVERIFY2(rule.matches(std::string_view(name)) == expected,
                         qPrintable(QStringLiteral("pattern \"%1\", name \"%2\": expected %3")
                                        .arg(pattern, QString::fromStdString(name),
                                             expected ? QStringLiteral("match") : QStringLiteral("none"))));
            }
        }
        QVERIFY(tried > 8000); // most of them are valid patterns
    }

    void defaultRulesAnswerAsTheirRegularExpressions()
    {
        // Every default pattern against names made from every default pattern's words, changed in case.
        QFile f(QStringLiteral(":/analysis/analysis_rules.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const nlohmann::json j = nlohmann::json::parse(f.readAll().toStdString());
        QStringList patterns, names = trickyNames();
        for (auto it = j.begin(); it != j.end(); ++it)
            if (it->is_array())
                for (const auto& v : *it)
                    if (v.is_string()) {
                        const QString p = QString::fromStdString(v.get<std::string>());
                        patterns << p;
                        QString word = p;
                        word.remove(QLatin1Char('^')).remove(QLatin1Char('$')).remove(QLatin1Char('\\'));
                        names << word << word.toUpper() << QStringLiteral("x_") + word + QStringLiteral("_3")
                              << word.left(word.size() - 1);
                    }
        QVERIFY(patterns.size() > 30);
        compare(patterns, names);

        // The classifier (one bit per rule per name) answers as the rules do.
        const AnalysisRules& rules = AnalysisRules::builtin();
        StringTable strings;
        std::vector<uint32_t> ids;
        for (const QString& n : names)
            ids.push_back(strings.intern(n.toStdString()));
        const NameClassifier classifier(strings, rules);
        for (size_t k = 0; k < ids.size(); ++k)
            for (size_t r = 0; r < kRuleCount; ++r)
                QCOMPARE(classifier.matches(ids[k], static_cast<RuleId>(r)), rules.rules[r].matches(names[int(k)]));
    }
};

QTEST_GUILESS_MAIN(TestNameRules)
#include "tst_name_rules.moc"
