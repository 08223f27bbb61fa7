// oncepay-ctl's command line, as a script or a support engineer meets it: help for the program
// and for every command (exit 0, on stdout), the version, and bad usage refused with exit 2 and
// one line on stderr before anything is stored or sent. Then refunds and voids against a real
// gateway: `refund` prints key, payment_key, state and amount with pay's exit codes, `void`
// voids only what was never sent, `list --json` carries each row's kind and a refund's payment_key,
// `show` lists a payment's refunds.
#include "gatewayapi.h"
#include "gatewayprocess.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

namespace {

struct Run
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    QByteArray describe(const QStringList &args) const
    {
        return "oncepay-ctl " + args.join(QLatin1Char(' ')).toUtf8() + "\n  exit " + QByteArray::number(exitCode)
            + "\n  stdout: " + out + "\n  stderr: " + err;
    }
    QJsonObject object() const { return QJsonDocument::fromJson(out).object(); }
    QJsonArray array() const { return QJsonDocument::fromJson(out).array(); }
    bool oneLineOnStderr() const { return !err.trimmed().isEmpty() && err.trimmed().count('\n') == 0; }
};

Run ctl(const QStringList &args, const QMap<QString, QString> &env)
{
    QProcess p;
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    for (auto it = env.cbegin(); it != env.cend(); ++it)
        e.insert(it.key(), it.value());
    p.setProcessEnvironment(e);
    p.start(qEnvironmentVariable("ONCEPAY_CTL_BIN"), args);
    Run r;
    if (!p.waitForFinished(60'000)) {
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

}   // namespace

class TestCtlCommandLine final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void answers_data();
    void answers();
    void refundsVoidsAndTheList();
    void aFolderOthersMayWriteIsRefused();

private:
    QTemporaryDir m_dir;
};

void TestCtlCommandLine::initTestCase()
{
    QVERIFY2(QFile::exists(qEnvironmentVariable("ONCEPAY_CTL_BIN")), "ONCEPAY_CTL_BIN is not set (run through ctest)");
    QVERIFY(m_dir.isValid());
}

void TestCtlCommandLine::answers_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("stdoutHas");   // empty: stdout must be empty
    QTest::addColumn<QString>("stderrHas");   // empty: stderr must be empty

    const QStringList pay{QStringLiteral("pay"), QStringLiteral("--order"), QStringLiteral("o-1")};
    QTest::newRow("--help") << QStringList{QStringLiteral("--help")} << 0 << QStringLiteral("Commands:") << QString();
    QTest::newRow("help") << QStringList{QStringLiteral("help")} << 0 << QStringLiteral("Commands:") << QString();
    QTest::newRow("--version") << QStringList{QStringLiteral("--version")} << 0 << QStringLiteral(ONCEPAY_VERSION) << QString();
    for (const char *command : {"pay", "refund", "void", "sync", "list", "queue", "show", "reconcile", "shift", "close-shift",
             "export", "proxy"}) {
        QTest::addRow("%s --help", command) << QStringList{QLatin1String(command), QStringLiteral("--help")} << 0
                                            << QStringLiteral("Usage: oncepay-ctl") << QString();
        QTest::addRow("help %s", command) << QStringList{QStringLiteral("help"), QLatin1String(command)} << 0
                                          << QStringLiteral("Usage: oncepay-ctl") << QString();
    }
    QTest::newRow("no command") << QStringList{} << 2 << QString() << QStringLiteral("oncepay-ctl:");
    QTest::newRow("unknown command") << QStringList{QStringLiteral("charge")} << 2 << QString() << QStringLiteral("charge");
    QTest::newRow("unknown option") << QStringList{QStringLiteral("list"), QStringLiteral("--bogus")} << 2 << QString()
                                    << QStringLiteral("bogus");
    QTest::newRow("amount 0") << pay + QStringList{QStringLiteral("--amount"), QStringLiteral("0")} << 2 << QString()
                              << QStringLiteral("amount");
    QTest::newRow("amount 0.00") << pay + QStringList{QStringLiteral("--amount"), QStringLiteral("0.00")} << 2 << QString()
                                 << QStringLiteral("amount");
    QTest::newRow("amount abc") << pay + QStringList{QStringLiteral("--amount"), QStringLiteral("abc")} << 2 << QString()
                                << QStringLiteral("amount");
    QTest::newRow("close-shift --counted-cash abc")
        << QStringList{QStringLiteral("close-shift"), QStringLiteral("--counted-cash"), QStringLiteral("abc")} << 2 << QString()
        << QStringLiteral("counted-cash");
    QTest::newRow("shift --counted-cash -1")
        << QStringList{QStringLiteral("shift"), QStringLiteral("--counted-cash"), QStringLiteral("-1")} << 2 << QString()
        << QStringLiteral("counted-cash");
    QTest::newRow("close-shift --currency XYZ")
        << QStringList{QStringLiteral("close-shift"), QStringLiteral("--currency"), QStringLiteral("XYZ")} << 2 << QString()
        << QStringLiteral("currency");
    const QString key = QStringLiteral("pay-0f8e3c1a-4d5b-4c1e-9d2a-7b6c5d4e3f21");
    const QStringList refund{QStringLiteral("refund"), key};
    QTest::newRow("refund without a key") << QStringList{QStringLiteral("refund")} << 2 << QString() << QStringLiteral("PAYMENT_KEY");
    QTest::newRow("refund two keys") << QStringList{QStringLiteral("refund"), key, key} << 2 << QString()
                                     << QStringLiteral("PAYMENT_KEY");
    QTest::newRow("refund, not a key") << QStringList{QStringLiteral("refund"), QStringLiteral("pay 1")} << 2 << QString()
                                       << QStringLiteral("not a key");
    QTest::newRow("refund amount 0") << refund + QStringList{QStringLiteral("--amount"), QStringLiteral("0")} << 2 << QString()
                                     << QStringLiteral("amount");
    QTest::newRow("refund amount -1") << refund + QStringList{QStringLiteral("--amount"), QStringLiteral("-1")} << 2 << QString()
                                      << QStringLiteral("amount");
    QTest::newRow("refund amount abc") << refund + QStringList{QStringLiteral("--amount"), QStringLiteral("abc")} << 2 << QString()
                                       << QStringLiteral("amount");
    QTest::newRow("refund amount 1.234") << refund + QStringList{QStringLiteral("--amount"), QStringLiteral("1.234")} << 2
                                         << QString() << QStringLiteral("amount");
    QTest::newRow("refund reason too long") << refund + QStringList{QStringLiteral("--reason"), QString(501, QLatin1Char('x'))}
                                            << 2 << QString() << QStringLiteral("reason");
    QTest::newRow("refund --wait soon") << refund + QStringList{QStringLiteral("--wait"), QStringLiteral("soon")} << 2 << QString()
                                        << QStringLiteral("wait");
    QTest::newRow("void without a key") << QStringList{QStringLiteral("void")} << 2 << QString() << QStringLiteral("KEY");
    QTest::newRow("void two keys") << QStringList{QStringLiteral("void"), key, key} << 2 << QString() << QStringLiteral("KEY");
    QTest::newRow("void, not a key") << QStringList{QStringLiteral("void"), QStringLiteral("k/1")} << 2 << QString()
                                     << QStringLiteral("not a key");
    QTest::newRow("void, no journal") << QStringList{QStringLiteral("void"), key} << 1 << QString()
                                      << QStringLiteral("no till journal");
    QTest::newRow("list --kind bogus") << QStringList{QStringLiteral("list"), QStringLiteral("--kind"), QStringLiteral("bogus")}
                                       << 2 << QString() << QStringLiteral("payment or refund");
    QTest::newRow("list --state voided, no journal") << QStringList{QStringLiteral("list"), QStringLiteral("--state"), QStringLiteral("voided")}
                                                     << 1 << QString() << QStringLiteral("no till journal");
    for (const char *wait : {"nan", "inf", "-1", "soon"}) {
        QTest::addRow("--wait %s", wait) << pay + QStringList{QStringLiteral("--amount"), QStringLiteral("1.00"), QStringLiteral("--wait"), QLatin1String(wait)}
                                         << 2 << QString() << QStringLiteral("wait");
    }
}

void TestCtlCommandLine::answers()
{
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(QString, stdoutHas);
    QFETCH(QString, stderrHas);
    const QString journal = m_dir.filePath(
        QStringLiteral("j-%1.db").arg(QString::fromLatin1(QTest::currentDataTag())).replace(QLatin1Char(' '), QLatin1Char('_')));
    QProcess p;
    p.setProcessEnvironment([&] {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("ONCEPAY_DB"), journal);
        env.insert(QStringLiteral("ONCEPAY_TOKEN"), QStringLiteral("sk_test_demo_till1"));
        env.insert(QStringLiteral("ONCEPAY_GATEWAY"), QStringLiteral("http://127.0.0.1:9"));
        return env;
    }());
    p.start(qEnvironmentVariable("ONCEPAY_CTL_BIN"), args);
    QVERIFY(p.waitForFinished(20'000));
    const QString out = QString::fromUtf8(p.readAllStandardOutput());
    const QString err = QString::fromUtf8(p.readAllStandardError());
    const QByteArray both = "stdout: " + out.toUtf8() + "\nstderr: " + err.toUtf8();
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QVERIFY2(p.exitCode() == exitCode, both.constData());
    if (stdoutHas.isEmpty())
        QVERIFY2(out.isEmpty(), both.constData());
    else
        QVERIFY2(out.contains(stdoutHas), both.constData());
    if (stderrHas.isEmpty()) {
        QVERIFY2(err.isEmpty(), both.constData());
    } else {
        QVERIFY2(err.contains(stderrHas, Qt::CaseInsensitive), both.constData());
        QVERIFY2(err.trimmed().count(QLatin1Char('\n')) == 0, both.constData());   // one line
    }
    if (exitCode != 0)
        QVERIFY2(!QFile::exists(journal), "bad usage created the journal");
}

void TestCtlCommandLine::refundsVoidsAndTheList()
{
    GatewayProcess gateway;
    QVERIFY2(gateway.start(), gateway.failureMessage().constData());
    const QMap<QString, QString> env{{QStringLiteral("ONCEPAY_DB"), m_dir.filePath(QStringLiteral("refunds.db"))},
        {QStringLiteral("ONCEPAY_TOKEN"), QString::fromLatin1(GatewayApi::kTill1)},
        {QStringLiteral("ONCEPAY_GATEWAY"), gateway.baseUrl().toString()}};
    auto run = [&](const QStringList &args) {
        return ctl(args, env);
    };

    const QStringList payCard{QStringLiteral("pay"), QStringLiteral("--amount"), QStringLiteral("19.99"), QStringLiteral("--order"),
        QStringLiteral("ord-card")};
    const Run paid = run(payCard);
    QVERIFY2(paid.exitCode == 0, paid.describe(payCard).constData());
    const QString key = paid.object().value(QStringLiteral("key")).toString();
    QCOMPARE(paid.object().value(QStringLiteral("kind")).toString(), QStringLiteral("payment"));

    // A part, with pay's exit codes and the fields a script reads.
    const QStringList part{QStringLiteral("refund"), key, QStringLiteral("--amount"), QStringLiteral("5.00"),
        QStringLiteral("--reason"), QStringLiteral("damaged box")};
    const Run first = run(part);
    QVERIFY2(first.exitCode == 0 && first.err.isEmpty(), first.describe(part).constData());
    const QJsonObject r1 = first.object();
    QVERIFY2(r1.value(QStringLiteral("key")).toString().startsWith(QLatin1String("ref-")), first.out.constData());
    QCOMPARE(r1.value(QStringLiteral("kind")).toString(), QStringLiteral("refund"));
    QCOMPARE(r1.value(QStringLiteral("payment_key")).toString(), key);
    QCOMPARE(r1.value(QStringLiteral("state")).toString(), QStringLiteral("succeeded"));
    QCOMPARE(r1.value(QStringLiteral("amount")).toInteger(), qint64(500));
    QCOMPARE(r1.value(QStringLiteral("reason")).toString(), QStringLiteral("damaged box"));
    QVERIFY2(r1.value(QStringLiteral("refund_id")).toString().startsWith(QLatin1String("re_")), first.out.constData());
    // More than remains: refused before anything is stored or sent, why in one line.
    const QStringList tooMuch{QStringLiteral("refund"), key, QStringLiteral("--amount"), QStringLiteral("15.00")};
    const Run refused = run(tooMuch);
    QVERIFY2(refused.exitCode == 1 && refused.out.isEmpty() && refused.oneLineOnStderr() && refused.err.contains("14.99"),
        refused.describe(tooMuch).constData());
    // The rest (no amount), without waiting for more than the first answer.
    const QStringList rest{QStringLiteral("refund"), key, QStringLiteral("--no-wait")};
    const Run second = run(rest);
    QVERIFY2(second.exitCode == 0 || second.exitCode == 4, second.describe(rest).constData());
    QCOMPARE(second.object().value(QStringLiteral("amount")).toInteger(), qint64(1499));
    const QStringList drain{QStringLiteral("sync"), QStringLiteral("--wait"), QStringLiteral("30")};
    QVERIFY2(run(drain).exitCode == 0, "sync did not settle the refund");
    const QStringList unknown{QStringLiteral("refund"), QStringLiteral("pay-nobody")};
    const Run nobody = run(unknown);
    QVERIFY2(nobody.exitCode == 1 && nobody.oneLineOnStderr() && nobody.err.contains("pay-nobody"), nobody.describe(unknown).constData());

    // A cash sale: cash from the drawer, final at once.
    const QStringList payCash{QStringLiteral("pay"), QStringLiteral("--amount"), QStringLiteral("3.00"), QStringLiteral("--order"),
        QStringLiteral("ord-cash"), QStringLiteral("--method"), QStringLiteral("cash")};
    const Run cash = run(payCash);
    QVERIFY2(cash.exitCode == 0, cash.describe(payCash).constData());
    const QString cashKey = cash.object().value(QStringLiteral("key")).toString();
    const QStringList cashBack{QStringLiteral("refund"), cashKey, QStringLiteral("--amount"), QStringLiteral("1")};
    const Run drawer = run(cashBack);
    QVERIFY2(drawer.exitCode == 0 && drawer.object().value(QStringLiteral("tender")).toString() == QLatin1String("cash")
            && drawer.object().value(QStringLiteral("state")).toString() == QLatin1String("succeeded"),
        drawer.describe(cashBack).constData());

    // Void: a card payment never sent (nothing listens where it was sent) is voided; once voided,
    // or paid, or possibly sent, it is not, and the reason is one line.
    QMap<QString, QString> nowhere = env;
    nowhere.insert(QStringLiteral("ONCEPAY_GATEWAY"), QStringLiteral("http://127.0.0.1:9"));
    const QStringList payOffline{QStringLiteral("pay"), QStringLiteral("--amount"), QStringLiteral("4.00"), QStringLiteral("--order"),
        QStringLiteral("ord-void"), QStringLiteral("--no-wait")};
    const Run queued = ctl(payOffline, nowhere);
    QVERIFY2(queued.exitCode == 4 && queued.object().value(QStringLiteral("state")).toString() == QLatin1String("queued"),
        queued.describe(payOffline).constData());
    const QString queuedKey = queued.object().value(QStringLiteral("key")).toString();
    const QStringList voidIt{QStringLiteral("void"), queuedKey};
    const Run voided = run(voidIt);
    QVERIFY2(voided.exitCode == 0 && voided.err.isEmpty() && voided.object().value(QStringLiteral("state")).toString() == QLatin1String("voided"),
        voided.describe(voidIt).constData());
    const Run again = run(voidIt);
    QVERIFY2(again.exitCode == 1 && again.out.isEmpty() && again.oneLineOnStderr() && again.err.contains("voided already"),
        again.describe(voidIt).constData());
    const QStringList voidPaid{QStringLiteral("void"), key};
    const Run paidOne = run(voidPaid);
    QVERIFY2(paidOne.exitCode == 1 && paidOne.oneLineOnStderr() && paidOne.err.contains("only refunded"),
        paidOne.describe(voidPaid).constData());
    QVERIFY2(run(drain).exitCode == 0, "sync sent something it should not have");   // the voided one stays voided

    // list --json: every row has its kind; refunds their payment's key, payments none.
    const QStringList listJson{QStringLiteral("list"), QStringLiteral("--json")};
    const Run listed = run(listJson);
    QVERIFY2(listed.exitCode == 0, listed.describe(listJson).constData());
    QMap<QString, int> kinds;
    QMap<QString, QString> states;
    const QJsonArray listedRows = listed.array();
    for (const QJsonValue &v : listedRows) {
        const QJsonObject o = v.toObject();
        const QString kind = o.value(QStringLiteral("kind")).toString();
        kinds[kind]++;
        states.insert(o.value(QStringLiteral("key")).toString(), o.value(QStringLiteral("state")).toString());
        if (kind == QLatin1String("refund"))
            QVERIFY2(o.value(QStringLiteral("payment_key")).toString() == key || o.value(QStringLiteral("payment_key")).toString() == cashKey,
                listed.out.constData());
        else
            QVERIFY2(kind == QLatin1String("payment") && !o.contains(QStringLiteral("payment_key")), listed.out.constData());
    }
    QCOMPARE(kinds.value(QStringLiteral("payment")), 3);
    QCOMPARE(kinds.value(QStringLiteral("refund")), 3);
    QCOMPARE(states.value(queuedKey), QStringLiteral("voided"));
    QCOMPARE(states.value(key), QStringLiteral("succeeded"));
    const QStringList onlyRefunds{QStringLiteral("list"), QStringLiteral("--json"), QStringLiteral("--kind"), QStringLiteral("refund")};
    QCOMPARE(run(onlyRefunds).array().size(), 3);

    // show: a payment with its refunds and what they gave back.
    const QStringList show{QStringLiteral("show"), key, QStringLiteral("--json")};
    const Run shown = run(show);
    QVERIFY2(shown.exitCode == 0, shown.describe(show).constData());
    const QJsonObject payment = shown.object();
    QCOMPARE(payment.value(QStringLiteral("amount_refunded")).toInteger(), qint64(1999));
    QCOMPARE(payment.value(QStringLiteral("gateway_status")).toString(), QStringLiteral("refunded"));
    const QJsonArray refunds = payment.value(QStringLiteral("refunds")).toArray();
    QCOMPARE(refunds.size(), 2);
    QCOMPARE(refunds.at(0).toObject().value(QStringLiteral("key")).toString(), r1.value(QStringLiteral("key")).toString());
    QCOMPARE(refunds.at(1).toObject().value(QStringLiteral("state")).toString(), QStringLiteral("succeeded"));
}

void TestCtlCommandLine::aFolderOthersMayWriteIsRefused()
{
    // Another account could replace the journal there, or plant its -wal: refused, with how to
    // make the folder the till's own, before anything is made in it.
    const QString folder = m_dir.filePath(QStringLiteral("shared"));
    QVERIFY(QDir(m_dir.path()).mkdir(QStringLiteral("shared")));
    QVERIFY(::chmod(QFile::encodeName(folder).constData(), 0777) == 0);
    const QStringList args{QStringLiteral("pay"), QStringLiteral("--amount"), QStringLiteral("1.00"), QStringLiteral("--currency"),
        QStringLiteral("CNY"), QStringLiteral("--order"), QStringLiteral("o-shared"), QStringLiteral("--no-wait")};
    const Run r = ctl(args, {{QStringLiteral("ONCEPAY_DB"), folder + QStringLiteral("/till.db")}, {QStringLiteral("ONCEPAY_TOKEN"), QStringLiteral("sk_test_demo_till1")}, {QStringLiteral("ONCEPAY_GATEWAY"), QStringLiteral("http://127.0.0.1:9")}});
    QVERIFY2(r.exitCode == 1 && r.oneLineOnStderr() && r.out.isEmpty(), r.describe(args).constData());
    QVERIFY2(r.err.contains("chmod 700 " + QFile::encodeName(folder)), r.describe(args).constData());
    QCOMPARE(QDir(folder).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden), QStringList());
}

QTEST_GUILESS_MAIN(TestCtlCommandLine)
#include "tst_ctlcommandline.moc"
