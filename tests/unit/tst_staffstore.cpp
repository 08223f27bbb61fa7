// The till's staff (issue 23): names, roles and PINs kept as salted PBKDF2 hashes (never the
// PIN itself, in the file or a log); a wrong PIN five times locks that person out, across a
// restart; a right one clears the count.
#include "staffstore.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace OncePay;

namespace {

template <typename T, typename Call>
T wait(Call call)
{
    QObject context;
    bool done = false;
    T value{};
    call(&context, [&](bool ok, const QString &error, T v) {
        if (!ok)
            qWarning() << error;
        value = std::move(v);
        done = true;
    });
    if (!QTest::qWaitFor([&] {
            return done;
        }))
        qFatal("the staff store never answered");
    return value;
}

}   // namespace

Q_DECLARE_METATYPE(StaffStore::Refusal)

class TestStaffStore final : public QObject
{
    Q_OBJECT

private slots:
    void pins_data();
    void pins();
    void addAndSignIn();
    void fiveWrongPinsLockOutAcrossARestart();
    void thePinIsNeverInTheFile();
    void theHashesAreTheTillsAccountsAlone();

private:
    StaffStore::Answer add(StaffStore &s, const QString &name, StaffRole role, const QString &pin)
    {
        return wait<StaffStore::Answer>([&](QObject *c, auto reply) {
            s.add(name, role, pin, c, reply);
        });
    }
    StaffStore::Answer verify(StaffStore &s, const QString &name, const QString &pin)
    {
        return wait<StaffStore::Answer>([&](QObject *c, auto reply) {
            s.verify(name, pin, c, reply);
        });
    }
};

void TestStaffStore::pins_data()
{
    QTest::addColumn<QString>("pin");
    QTest::addColumn<bool>("valid");
    QTest::newRow("four digits") << "1234" << true;
    QTest::newRow("eight digits") << "12345678" << true;
    QTest::newRow("three") << "123" << false;
    QTest::newRow("nine") << "123456789" << false;
    QTest::newRow("letters") << "12a4" << false;
    QTest::newRow("full-width digits") << QStringLiteral("１２３４") << false;
    QTest::newRow("empty") << "" << false;
}

void TestStaffStore::pins()
{
    QFETCH(QString, pin);
    QTEST(StaffStore::isValidPin(pin), "valid");
}

void TestStaffStore::addAndSignIn()
{
    QTemporaryDir dir;
    StaffStore s(StaffStore::pathBeside(dir.filePath(QStringLiteral("till.db"))));
    QCOMPARE(s.path(), dir.filePath(QStringLiteral("till-staff.db")));
    QString error;
    QVERIFY2(s.open(&error), qPrintable(error));
    QCOMPARE(add(s, QStringLiteral("Li Na"), StaffRole::Manager, QStringLiteral("482916")).refusal, StaffStore::Refusal::None);
    QCOMPARE(add(s, QStringLiteral("Wang Wei"), StaffRole::Cashier, QStringLiteral("1357")).refusal, StaffStore::Refusal::None);
    QCOMPARE(add(s, QStringLiteral("li na"), StaffRole::Cashier, QStringLiteral("1111")).refusal, StaffStore::Refusal::NameTaken);
    QCOMPARE(add(s, QStringLiteral(" "), StaffRole::Cashier, QStringLiteral("1111")).refusal, StaffStore::Refusal::NameEmpty);
    QCOMPARE(add(s, QStringLiteral("Zhao"), StaffRole::Cashier, QStringLiteral("12")).refusal, StaffStore::Refusal::PinNotDigits);

    const auto members = wait<QList<StaffMember>>([&](QObject *c, auto reply) {
        s.list(c, reply);
    });
    QCOMPARE(members.size(), 2);
    QCOMPARE(members.at(0).name, QStringLiteral("Li Na"));
    QVERIFY(members.at(0).isManager());
    QVERIFY(!members.at(1).isManager());

    const auto ok = verify(s, QStringLiteral("LI NA"), QStringLiteral("482916"));   // names in any case
    QCOMPARE(ok.refusal, StaffStore::Refusal::None);
    QCOMPARE(ok.member.name, QStringLiteral("Li Na"));
    QCOMPARE(verify(s, QStringLiteral("Wang Wei"), QStringLiteral("482916")).refusal, StaffStore::Refusal::WrongPin);
    QCOMPARE(verify(s, QStringLiteral("Nobody"), QStringLiteral("1234")).refusal, StaffStore::Refusal::NoSuchPerson);
    QVERIFY(!StaffStore::describe(verify(s, QStringLiteral("Wang Wei"), QStringLiteral("0000"))).isEmpty());
}

void TestStaffStore::fiveWrongPinsLockOutAcrossARestart()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("till-staff.db"));
    {
        StaffStore s(path);
        QString error;
        QVERIFY2(s.open(&error), qPrintable(error));
        add(s, QStringLiteral("Wang Wei"), StaffRole::Cashier, QStringLiteral("1357"));
        // Four wrong, then the right one: the count starts again.
        for (int i = 0; i < 4; ++i) {
            const auto a = verify(s, QStringLiteral("Wang Wei"), QStringLiteral("0000"));
            QCOMPARE(a.refusal, StaffStore::Refusal::WrongPin);
            QCOMPARE(a.attemptsLeft, 4 - i);
        }
        QCOMPARE(verify(s, QStringLiteral("Wang Wei"), QStringLiteral("1357")).refusal, StaffStore::Refusal::None);
        for (int i = 0; i < 4; ++i)
            QCOMPARE(verify(s, QStringLiteral("Wang Wei"), QStringLiteral("0000")).refusal, StaffStore::Refusal::WrongPin);
        const auto fifth = verify(s, QStringLiteral("Wang Wei"), QStringLiteral("0000"));
        QCOMPARE(fifth.refusal, StaffStore::Refusal::LockedOut);
        QVERIFY(fifth.lockedUntil > 0);
    }
    // The till restarted: still locked out, even with the right PIN.
    StaffStore again(path);
    QString error;
    QVERIFY2(again.open(&error), qPrintable(error));
    QCOMPARE(verify(again, QStringLiteral("Wang Wei"), QStringLiteral("1357")).refusal, StaffStore::Refusal::LockedOut);
}

void TestStaffStore::thePinIsNeverInTheFile()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("till-staff.db"));
    {
        StaffStore s(path);
        QString error;
        QVERIFY2(s.open(&error), qPrintable(error));
        add(s, QStringLiteral("Li Na"), StaffRole::Manager, QStringLiteral("48291673"));
        add(s, QStringLiteral("Zhao Lei"), StaffRole::Manager, QStringLiteral("48291673"));
    }
    QByteArray bytes;
    for (const QString &file : {path, path + QStringLiteral("-wal")}) {
        QFile f(file);
        if (f.open(QIODevice::ReadOnly))
            bytes += f.readAll();
    }
    QVERIFY(bytes.contains("Li Na"));
    QVERIFY(!bytes.contains("48291673"));
}

void TestStaffStore::theHashesAreTheTillsAccountsAlone()
{
    // A PIN of 4 to 8 digits falls to a brute force of its hash in minutes to hours: the file is
    // 0600, its -wal and -shm too, whatever the umask (docs/operations.md, "The till's files").
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("till-staff.db"));
    {
        StaffStore s(path);
        QString error;
        QVERIFY2(s.open(&error), qPrintable(error));
        add(s, QStringLiteral("Li Na"), StaffRole::Manager, QStringLiteral("482916"));
        for (const QString &file : {path, path + QStringLiteral("-wal"), path + QStringLiteral("-shm")})
            QCOMPARE(QFileInfo(file).permissions() & 0x0077, QFileDevice::Permissions());   // nothing for group or others
    }
    // Nor in a folder another account may write: it could make the -wal before SQLite does.
    const QString shared = dir.filePath(QStringLiteral("shared"));
    QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("shared")));
    QVERIFY(QFile::setPermissions(shared, QFileDevice::Permissions(0x7777)));   // rwx for all
    StaffStore s(QDir(shared).filePath(QStringLiteral("till-staff.db")));
    QString error;
    QVERIFY(!s.open(&error));
    QVERIFY2(error.contains(QLatin1String("chmod 700 ") + shared), qPrintable(error));
    QCOMPARE(QDir(shared).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden), QStringList());
}

QTEST_GUILESS_MAIN(TestStaffStore)
#include "tst_staffstore.moc"
