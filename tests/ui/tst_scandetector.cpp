// ScanDetector (issue 36): a barcode scanner's burst of keys ending in Enter is a scan; a person's
// keys, a program's keys without a time, a burst too short or an Enter that comes late are not.
#include "scandetector.h"

#include <QKeyEvent>
#include <QtTest>

using namespace OncePay::Ui;

class TestScanDetector final : public QObject
{
    Q_OBJECT

private slots:
    void tellsScansFromTyping_data();
    void tellsScansFromTyping();
    void tellsABurstAsItGoes();
};

void TestScanDetector::tellsScansFromTyping_data()
{
    // `keys`: one key each, then Enter; '|' is a pause of a second before the next key, '^' a
    // Shift, '\b' Backspace. `gapMs`: between two keys (0: keys without a time).
    QTest::addColumn<QString>("keys");
    QTest::addColumn<int>("gapMs");
    QTest::addColumn<int>("longestTyped");
    QTest::addColumn<bool>("scanned");
    QTest::addColumn<QString>("code");
    const QString ean = QStringLiteral("6901234500011");
    QTest::newRow("a scanner, 8 ms a key") << ean << 8 << 0 << true << ean;
    QTest::newRow("a scanner at 40 ms a key") << ean << 40 << 0 << true << ean;
    QTest::newRow("a person's PIN") << QStringLiteral("1357") << 250 << 8 << false << QStringLiteral("1357");
    QTest::newRow("quick fingers, three keys") << QStringLiteral("135") << 20 << 8 << false << QStringLiteral("135");
    QTest::newRow("a program's keys, no time") << ean << 0 << 0 << false << ean;
    QTest::newRow("longer than any PIN, no time") << ean << 0 << 8 << true << ean;
    QTest::newRow("two keys typed, then a scan") << QStringLiteral("12|") + ean << 8 << 8 << true << ean;
    QTest::newRow("a burst, then Enter a second later") << ean + QStringLiteral("|") << 8 << 0 << false << ean;
    QTest::newRow("Shift for a capital inside a scan") << QStringLiteral("AB^C123") << 8 << 0 << true << QStringLiteral("ABC123");
    QTest::newRow("Backspace ends a burst") << QStringLiteral("69\b01") << 8 << 8 << false << QStringLiteral("601");
    QTest::newRow("Enter alone") << QString() << 8 << 8 << false << QString();
}

void TestScanDetector::tellsScansFromTyping()
{
    QFETCH(QString, keys);
    QFETCH(int, gapMs);
    QFETCH(int, longestTyped);
    QFETCH(bool, scanned);
    QFETCH(QString, code);
    ScanDetector detector(longestTyped);
    quint64 at = gapMs > 0 ? 1'000'000 : 0;
    auto press = [&](int key, const QString &text) {
        QKeyEvent event(QEvent::KeyPress, key, Qt::NoModifier, text);
        event.setTimestamp(at);
        if (at > 0)
            at += quint64(gapMs);
        return detector.press(event);
    };
    for (const QChar c : keys) {
        if (c == QLatin1Char('|')) {
            at += at > 0 ? 1'000 : 0;
            continue;
        }
        const ScanDetector::Verdict verdict = c == QLatin1Char('^') ? press(Qt::Key_Shift, {})
            : c == QLatin1Char('\b')                                ? press(Qt::Key_Backspace, QStringLiteral("\b"))
                                                                    : press(c.toUpper().unicode(), QString(c));
        QCOMPARE(verdict, ScanDetector::Verdict::None);
    }
    const ScanDetector::Verdict verdict = press(Qt::Key_Return, QStringLiteral("\r"));
    QCOMPARE(verdict, scanned ? ScanDetector::Verdict::Scanned : ScanDetector::Verdict::Typed);
    if (scanned)
        QCOMPARE(detector.code(), code);
    // Each Enter starts afresh: a person's key right after is no scan.
    at += at > 0 ? 1'000 : 0;
    press(Qt::Key_1, QStringLiteral("1"));
    QCOMPARE(press(Qt::Key_Return, QStringLiteral("\r")), ScanDetector::Verdict::Typed);
}

void TestScanDetector::tellsABurstAsItGoes()
{
    // What the window needs before the Enter (issue 36): whether a key goes on with a burst, so
    // that a scanner's keys after the first are swallowed where they would do something else.
    ScanDetector detector;
    auto press = [&detector](int key, const QString &text, quint64 at) {
        QKeyEvent event(QEvent::KeyPress, key, Qt::NoModifier, text);
        event.setTimestamp(at);
        detector.press(event);
    };
    auto continues = [&detector](quint64 at) {   // the next key's shortcut override, at `at`
        QKeyEvent event(QEvent::ShortcutOverride, Qt::Key_9, Qt::NoModifier, QStringLiteral("9"));
        event.setTimestamp(at);
        return detector.continuesBurst(event);
    };
    QVERIFY(!continues(1'000));
    press(Qt::Key_6, QStringLiteral("6"), 1'000);
    QVERIFY(!detector.inBurst());   // a first key: a person's as much as a scanner's
    QVERIFY(continues(1'008));
    QVERIFY(!continues(1'100));
    QVERIFY(!continues(0));
    press(Qt::Key_9, QStringLiteral("9"), 1'008);
    QVERIFY(detector.inBurst());
    press(Qt::Key_0, QStringLiteral("0"), 1'300);   // after a pause: a new burst
    QVERIFY(!detector.inBurst());
    press(Qt::Key_Return, QStringLiteral("\r"), 1'308);
    QVERIFY(!detector.inBurst());
    QVERIFY(!continues(1'316));
}

QTEST_GUILESS_MAIN(TestScanDetector)
#include "tst_scandetector.moc"
