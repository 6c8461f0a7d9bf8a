// Timestamps and durations as integer nanoseconds, every digit kept (core/io/trace/JsonText.h).
#include "io/trace/JsonText.h"

#include <QTest>

#include <cstdint>
#include <limits>
#include <random>
#include <string>

using dspark::trace::parseJsonInteger;
using dspark::trace::parseScaledDecimal;

namespace {

// The exact value, with 128-bit arithmetic: integer part scaled by 10^scaleDigits, plus the first
// scaleDigits fraction digits, plus one when the next digit is 5 or more. False when it does not
// fit int64.
bool reference(const std::string& text, int scaleDigits, int64_t& out)
{
    size_t i = 0;
    bool negative = false;
    if (i < text.size() && (text[i] == '-' || text[i] == '+'))
        negative = text[i++] == '-';
    __int128 value = 0;
    while (i < text.size() && text[i] != '.')
        value = value * 10 + (text[i++] - '0');
    std::string frac = i < text.size() ? text.substr(i + 1) : std::string();
    const bool roundUp = frac.size() > size_t(scaleDigits) && frac[scaleDigits] >= '5';
    frac.resize(scaleDigits, '0');
    for (const char c : frac)
        value = value * 10 + (c - '0');
    value += roundUp ? 1 : 0;
    if (value > std::numeric_limits<int64_t>::max())
        return false;
    out = negative ? -static_cast<int64_t>(value) : static_cast<int64_t>(value);
    return true;
}

} // namespace

class TestJsonText : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void scaledDecimalsAreExact_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("scale");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<qint64>("value");
        QTest::newRow("ascend ts") << "1736408883010945.452" << 3 << true << qint64(1736408883010945452);
        QTest::newRow("duration, rounded") << "7.3187097" << 3 << true << qint64(7319);
        QTest::newRow("int64 max") << "9223372036854775.807" << 3 << true << std::numeric_limits<qint64>::max();
        QTest::newRow("one past int64 max") << "9223372036854775.808" << 3 << false << qint64(0);
        QTest::newRow("rounded up to int64 max")
            << "9223372036854775.8065" << 3 << true << std::numeric_limits<qint64>::max();
        QTest::newRow("rounded up past int64 max") << "9223372036854775.8075" << 3 << false << qint64(0);
        QTest::newRow("18 digits times 1000") << "999999999999999999" << 3 << false << qint64(0);
        QTest::newRow("negative half") << "-0.5" << 0 << true << qint64(-1);
        QTest::newRow("no integer digits") << ".25" << 3 << true << qint64(250);
        QTest::newRow("no fraction digits") << "12." << 3 << true << qint64(12000);
        QTest::newRow("a point alone") << "." << 3 << false << qint64(0);
        QTest::newRow("exponent") << "1.5e3" << 3 << true << qint64(1500000);
        QTest::newRow("fraction then exponent, past the kept digits") << "2.12345E-1" << 3 << true << qint64(212);
        QTest::newRow("short fraction, scale 9") << "3.25" << 9 << true << qint64(3250000000);
        QTest::newRow("letter in the fraction") << "3.2x" << 3 << false << qint64(0);
        QTest::newRow("letter past the kept digits") << "3.2500x" << 3 << false << qint64(0);
    }
    void scaledDecimalsAreExact()
    {
        QFETCH(QString, text);
        QFETCH(int, scale);
        QFETCH(bool, ok);
        QFETCH(qint64, value);
        int64_t out = 0;
        QCOMPARE(parseScaledDecimal(text.toStdString(), scale, out), ok);
        if (ok)
            QCOMPARE(qint64(out), value);
    }
    void integersAreExact_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<quint64>("bits");
        QTest::addColumn<bool>("big");
        QTest::newRow("zero") << "0" << true << quint64(0) << false;
        QTest::newRow("19 digits") << "9999999999999999999" << true << quint64(9999999999999999999ull) << true;
        QTest::newRow("int64 max") << "9223372036854775807" << true << quint64(INT64_MAX) << false;
        QTest::newRow("uint64 max") << "18446744073709551615" << true << quint64(UINT64_MAX) << true;
        QTest::newRow("uint64 max + 1") << "18446744073709551616" << false << quint64(0) << false;
        QTest::newRow("21 digits") << "100000000000000000000" << false << quint64(0) << false;
        QTest::newRow("int64 min") << "-9223372036854775808" << true << (quint64(1) << 63) << false;
        QTest::newRow("below int64 min") << "-9223372036854775809" << false << quint64(0) << false;
        QTest::newRow("minus one") << "-1" << true << quint64(UINT64_MAX) << false;
        QTest::newRow("a letter") << "12a" << false << quint64(0) << false;
        QTest::newRow("a letter as the 20th") << "1234567890123456789x" << false << quint64(0) << false;
        QTest::newRow("minus alone") << "-" << false << quint64(0) << false;
    }
    void integersAreExact()
    {
        QFETCH(QString, text);
        QFETCH(bool, ok);
        QFETCH(quint64, bits);
        QFETCH(bool, big);
        uint64_t got = 0;
        bool gotBig = false;
        QCOMPARE(parseJsonInteger(text.toStdString(), got, gotBig), ok);
        if (ok) {
            QCOMPARE(quint64(got), bits);
            QCOMPARE(gotBig, big);
        }
    }
    void randomDecimalsMatchExactArithmetic()
    {
        // Up to 18 integer digits and 9 fraction digits, around int64's limit for every scale.
        std::mt19937_64 random(7);
        int checked = 0, overflowed = 0;
        for (int n = 0; n < 300000; ++n) {
            std::string text = n % 3 == 0 ? "-" : n % 7 == 0 ? "+" : "";
            const int intDigits = int(random() % 19), fracDigits = int(random() % 10);
            for (int d = 0; d < intDigits; ++d)
                text += char('0' + (d == 0 && n % 5 == 0 ? 9 : random() % 10));
            if (fracDigits > 0 || intDigits == 0 || n % 2 == 0) {
                text += '.';
                for (int d = 0; d < std::max(fracDigits, intDigits == 0 ? 1 : 0); ++d)
                    text += char('0' + random() % 10);
            }
            const int scale = int(n % 4) * 3; // 0, 3, 6, 9
            int64_t expected = 0, got = 0;
            const bool fits = reference(text, scale, expected);
            const bool ok = parseScaledDecimal(text, scale, got);
            if (ok != fits || (ok && got != expected))
                QFAIL(qPrintable(QStringLiteral("%1 at scale %2: got %3 (%4), expected %5 (%6)")
                                     .arg(QString::fromStdString(text))
                                     .arg(scale)
                                     .arg(got)
                                     .arg(ok)
                                     .arg(expected)
                                     .arg(fits)));
            ++checked;
            overflowed += fits ? 0 : 1;
        }
        QVERIFY(overflowed > 1000); // the limit was reached often enough to be tested
        QCOMPARE(checked, 300000);
    }
};

QTEST_GUILESS_MAIN(TestJsonText)
#include "tst_json_text.moc"
