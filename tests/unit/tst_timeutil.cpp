#include "timeutil.h"

#include <QDateTime>
#include <QTest>

using namespace OncePay;

namespace {
constexpr qint64 k20251202 = 1764662400000;   // 2025-12-02T08:00:00Z
}   // namespace

class TestTimeUtil final : public QObject
{
    Q_OBJECT

private slots:
    void nowIsNow();
    void toRfc3339_data();
    void toRfc3339();
    void fromRfc3339_data();
    void fromRfc3339();
    void fromRfc3339Rejects_data();
    void fromRfc3339Rejects();
    void rfc3339RoundTrip_data();
    void rfc3339RoundTrip();
    void duration_data();
    void duration();
    void durationRejects_data();
    void durationRejects();
};

void TestTimeUtil::nowIsNow()
{
    const qint64 before = QDateTime::currentMSecsSinceEpoch();
    const qint64 now = nowMs();
    const qint64 after = QDateTime::currentMSecsSinceEpoch();
    QVERIFY(now >= before);
    QVERIFY(now <= after);
}

void TestTimeUtil::toRfc3339_data()
{
    QTest::addColumn<qint64>("ms");
    QTest::addColumn<QString>("text");

    QTest::newRow("epoch") << qint64(0) << QStringLiteral("1970-01-01T00:00:00.000Z");
    QTest::newRow("header example") << qint64(1764662400123) << QStringLiteral("2025-12-02T08:00:00.123Z");
    QTest::newRow("API example") << qint64(1796198400123) << QStringLiteral("2026-12-02T08:00:00.123Z");
    QTest::newRow("whole second keeps .000") << k20251202 << QStringLiteral("2025-12-02T08:00:00.000Z");
    QTest::newRow("leap day") << qint64(951782400000) << QStringLiteral("2000-02-29T00:00:00.000Z");
    QTest::newRow("before the epoch") << qint64(-1) << QStringLiteral("1969-12-31T23:59:59.999Z");
    QTest::newRow("last ms of 9999") << qint64(253402300799999) << QStringLiteral("9999-12-31T23:59:59.999Z");
}

void TestTimeUtil::toRfc3339()
{
    QFETCH(qint64, ms);
    QFETCH(QString, text);
    QCOMPARE(OncePay::toRfc3339(ms), text);
}

void TestTimeUtil::fromRfc3339_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<qint64>("ms");

    QTest::newRow("Z with ms") << QStringLiteral("2025-12-02T08:00:00.123Z") << k20251202 + 123;
    QTest::newRow("Z without fraction") << QStringLiteral("2025-12-02T08:00:00Z") << k20251202;
    QTest::newRow("one fraction digit") << QStringLiteral("2025-12-02T08:00:00.5Z") << k20251202 + 500;
    QTest::newRow("two fraction digits") << QStringLiteral("2025-12-02T08:00:00.12Z") << k20251202 + 120;
    QTest::newRow("microseconds") << QStringLiteral("2025-12-02T08:00:00.123456Z") << k20251202 + 123;
    QTest::newRow("+08:00") << QStringLiteral("2025-12-02T16:00:00.123+08:00") << k20251202 + 123;
    QTest::newRow("-04:30") << QStringLiteral("2025-12-02T03:30:00-04:30") << k20251202;
    QTest::newRow("+00:00") << QStringLiteral("2025-12-02T08:00:00+00:00") << k20251202;
    QTest::newRow("-00:00") << QStringLiteral("2025-12-02T08:00:00-00:00") << k20251202;
    QTest::newRow("offset crosses the date") << QStringLiteral("2025-12-01T23:00:00.001-09:00") << k20251202 + 1;
    QTest::newRow("offset crosses the year") << QStringLiteral("2026-01-01T07:59:59.999+08:00")
                                             << qint64(1767225599999);
    QTest::newRow("leap day") << QStringLiteral("2024-02-29T12:00:00Z") << qint64(1709208000000);
    QTest::newRow("epoch") << QStringLiteral("1970-01-01T00:00:00.000Z") << qint64(0);
    QTest::newRow("before the epoch") << QStringLiteral("1969-12-31T23:59:59.999Z") << qint64(-1);
}

void TestTimeUtil::fromRfc3339()
{
    QFETCH(QString, text);
    QFETCH(qint64, ms);

    const std::optional<qint64> parsed = OncePay::fromRfc3339(text);
    QVERIFY2(parsed.has_value(), qPrintable(text));
    QCOMPARE(*parsed, ms);
}

void TestTimeUtil::fromRfc3339Rejects_data()
{
    QTest::addColumn<QString>("text");

    QTest::newRow("empty") << QString();
    QTest::newRow("date only") << QStringLiteral("2025-12-02");
    // Without an offset the time would be read as local time: ambiguous, so refused.
    QTest::newRow("no offset") << QStringLiteral("2025-12-02T08:00:00");
    QTest::newRow("no offset, ms") << QStringLiteral("2025-12-02T08:00:00.123");
    QTest::newRow("no seconds") << QStringLiteral("2025-12-02T08:00Z");
    QTest::newRow("month 13") << QStringLiteral("2025-13-02T08:00:00Z");
    QTest::newRow("30 February") << QStringLiteral("2025-02-30T08:00:00Z");
    QTest::newRow("29 February, no leap year") << QStringLiteral("2025-02-29T08:00:00Z");
    QTest::newRow("hour 25") << QStringLiteral("2025-12-02T25:00:00Z");
    QTest::newRow("minute 60") << QStringLiteral("2025-12-02T08:60:00Z");
    QTest::newRow("empty fraction") << QStringLiteral("2025-12-02T08:00:00.Z");
    QTest::newRow("10 fraction digits") << QStringLiteral("2025-12-02T08:00:00.1234567890Z");
    QTest::newRow("offset without colon") << QStringLiteral("2025-12-02T08:00:00+0800");
    QTest::newRow("offset hours only") << QStringLiteral("2025-12-02T08:00:00+08");
    QTest::newRow("offset 24:00") << QStringLiteral("2025-12-02T08:00:00+24:00");
    QTest::newRow("zone name") << QStringLiteral("2025-12-02T08:00:00GMT");
    QTest::newRow("leading space") << QStringLiteral(" 2025-12-02T08:00:00Z");
    QTest::newRow("trailing space") << QStringLiteral("2025-12-02T08:00:00Z ");
    QTest::newRow("trailing junk") << QStringLiteral("2025-12-02T08:00:00Zjunk");
    QTest::newRow("two-digit year") << QStringLiteral("25-12-02T08:00:00Z");
    QTest::newRow("basic format") << QStringLiteral("20251202T080000Z");
    QTest::newRow("epoch number") << QStringLiteral("1764662400123");
    QTest::newRow("RFC 2822") << QStringLiteral("Tue, 02 Dec 2025 08:00:00 GMT");
    QTest::newRow("non-ASCII digits") << QStringLiteral(u"\u0662\u0660\u0662\u0665-12-02T08:00:00Z");
}

void TestTimeUtil::fromRfc3339Rejects()
{
    QFETCH(QString, text);
    const std::optional<qint64> parsed = OncePay::fromRfc3339(text);
    QVERIFY2(!parsed.has_value(), qPrintable(QString::number(parsed.value_or(0))));
}

void TestTimeUtil::rfc3339RoundTrip_data()
{
    QTest::addColumn<qint64>("ms");

    QTest::newRow("epoch") << qint64(0);
    QTest::newRow("now-ish") << qint64(1764662400123);
    QTest::newRow("before the epoch") << qint64(-1);
    QTest::newRow("one ms") << qint64(1);
    QTest::newRow("last ms of 9999") << qint64(253402300799999);
}

void TestTimeUtil::rfc3339RoundTrip()
{
    QFETCH(qint64, ms);
    const QString text = OncePay::toRfc3339(ms);
    QVERIFY(text.endsWith(QLatin1Char('Z')));
    QCOMPARE(OncePay::fromRfc3339(text).value_or(-42), ms);
}

void TestTimeUtil::duration_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<qint64>("ms");

    QTest::newRow("500ms") << QStringLiteral("500ms") << qint64(500);
    QTest::newRow("1ms") << QStringLiteral("1ms") << qint64(1);
    QTest::newRow("30s") << QStringLiteral("30s") << qint64(30000);
    QTest::newRow("5m") << QStringLiteral("5m") << qint64(300000);
    QTest::newRow("24h") << QStringLiteral("24h") << qint64(86400000);
    QTest::newRow("7d") << QStringLiteral("7d") << qint64(604800000);
    QTest::newRow("bare seconds") << QStringLiteral("30") << qint64(30000);
    QTest::newRow("bare zero") << QStringLiteral("0") << qint64(0);
    QTest::newRow("0s") << QStringLiteral("0s") << qint64(0);
    QTest::newRow("leading zeros") << QStringLiteral("007s") << qint64(7000);
    // Nine digits of days is the largest input; it must not overflow.
    QTest::newRow("999999999d") << QStringLiteral("999999999d") << qint64(86399999913600000);
    QTest::newRow("999999999 bare") << QStringLiteral("999999999") << qint64(999999999000);
}

void TestTimeUtil::duration()
{
    QFETCH(QString, text);
    QFETCH(qint64, ms);

    const std::optional<qint64> parsed = parseDurationMs(text);
    QVERIFY2(parsed.has_value(), qPrintable(text));
    QCOMPARE(*parsed, ms);
}

void TestTimeUtil::durationRejects_data()
{
    QTest::addColumn<QString>("text");

    QTest::newRow("5x") << QStringLiteral("5x");
    QTest::newRow("empty") << QString();
    QTest::newRow("only spaces") << QStringLiteral("   ");
    QTest::newRow("-1s") << QStringLiteral("-1s");
    QTest::newRow("-1") << QStringLiteral("-1");
    QTest::newRow("+5s") << QStringLiteral("+5s");
    QTest::newRow("unit only") << QStringLiteral("s");
    QTest::newRow("ms only") << QStringLiteral("ms");
    QTest::newRow("fraction") << QStringLiteral("1.5s");
    QTest::newRow("exponent") << QStringLiteral("1e3");
    QTest::newRow("space before unit") << QStringLiteral("5 s");
    QTest::newRow("two units") << QStringLiteral("5m30s");
    QTest::newRow("unit twice") << QStringLiteral("5ss");
    QTest::newRow("unit first") << QStringLiteral("s5");
    QTest::newRow("microseconds") << QStringLiteral("5us");
    QTest::newRow("weeks") << QStringLiteral("1w");
    QTest::newRow("hex") << QStringLiteral("0x10");
    QTest::newRow("ten digits") << QStringLiteral("1234567890s");
    QTest::newRow("non-ASCII digit") << QStringLiteral(u"\u0665s");
    QTest::newRow("full-width digit") << QStringLiteral(u"\uFF15s");
}

void TestTimeUtil::durationRejects()
{
    QFETCH(QString, text);
    const std::optional<qint64> parsed = parseDurationMs(text);
    QVERIFY2(!parsed.has_value(), qPrintable(QString::number(parsed.value_or(0))));
}

QTEST_GUILESS_MAIN(TestTimeUtil)
#include "tst_timeutil.moc"
