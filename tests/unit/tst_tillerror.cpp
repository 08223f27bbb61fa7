// TillError: every kind has words, in English and in the shipped Simplified Chinese, and the
// words name what the error carries. The suites compare kinds; this one alone reads the words,
// so that a kind added without words (or without a translation) fails here and nowhere else.
#include "tillerror.h"

#include <QMetaEnum>
#include <QTest>
#include <QTranslator>

using namespace OncePay;

class TestTillError final : public QObject
{
    Q_OBJECT

private slots:
    void everyKindHasWords_data();
    void everyKindHasWords();
    void storageSaysWhatTheStoreSaid();
    void valuesAreNeverReadAsPlaceMarkers();
};

namespace {

// Values no translation could contain by chance.
const QStringList kValues{QStringLiteral("⟦one⟧"), QStringLiteral("⟦two⟧"), QStringLiteral("⟦three⟧")};

QString wordsOf(TillError::Kind kind)
{
    return TillError(kind, kValues, QStringLiteral("⟦detail⟧")).text();
}

}   // namespace

void TestTillError::everyKindHasWords_data()
{
    QTest::addColumn<TillError::Kind>("kind");
    const QMetaEnum kinds = QMetaEnum::fromType<TillError::Kind>();
    for (int i = 0; i < kinds.keyCount(); ++i) {
        const auto kind = TillError::Kind(kinds.value(i));
        if (kind != TillError::Kind::None && kind != TillError::Kind::Storage)
            QTest::newRow(kinds.key(i)) << kind;
    }
}

void TestTillError::everyKindHasWords()
{
    QFETCH(TillError::Kind, kind);
    const QString english = wordsOf(kind);
    QVERIFY2(english.size() > 10, qPrintable(english));
    QVERIFY2(!english.contains(QLatin1Char('%')), qPrintable(english));   // every place marker filled
    QVERIFY(TillError(kind).isError());

    QTranslator chinese;
    QVERIFY2(chinese.load(QStringLiteral("oncepay_zh_CN"), QStringLiteral(ONCEPAY_QM_DIR)), ONCEPAY_QM_DIR);
    QVERIFY(QCoreApplication::installTranslator(&chinese));
    const QString translated = wordsOf(kind);
    QCoreApplication::removeTranslator(&chinese);
    QVERIFY2(translated != english, qPrintable(english));
    QVERIFY2(!translated.contains(QLatin1Char('%')), qPrintable(translated));
    // The same values are named in both languages.
    for (const QString &value : kValues)
        QCOMPARE(translated.contains(value), english.contains(value));
}

void TestTillError::storageSaysWhatTheStoreSaid()
{
    const TillError e = TillError::storage(QStringLiteral("database or disk is full"));
    QCOMPARE(e.kind(), TillError::Kind::Storage);
    QCOMPARE(e.text(), QStringLiteral("database or disk is full"));
    QVERIFY(!TillError().isError());
    QVERIFY(TillError().text().isEmpty());
}

void TestTillError::valuesAreNeverReadAsPlaceMarkers()
{
    // A path holding "%2" stays as it is: the values are put in all at once.
    const TillError e(TillError::Kind::OldSalesUnreadable, {QStringLiteral("/tmp/a%2b.db")}, QStringLiteral("bad"));
    QCOMPARE(e.text(), QStringLiteral("The old sales file /tmp/a%2b.db cannot be read: bad"));
}

QTEST_GUILESS_MAIN(TestTillError)
#include "tst_tillerror.moc"
