// oncepay-ctl's command line, as a script or a support engineer meets it: help for the program
// and for every command (exit 0, on stdout), the version, and bad usage refused with exit 2 and
// one line on stderr before anything is stored or sent.
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

class TestCtlCommandLine final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void answers_data();
    void answers();

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
    for (const char *command : {"pay", "sync", "list", "queue", "show", "reconcile", "shift", "close-shift", "export", "proxy"}) {
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
    for (const char *wait : {"nan", "inf", "-1", "soon"}) {
        QTest::addRow("--wait %s", wait) << pay + QStringList{QStringLiteral("--amount"), QStringLiteral("1.00"),
                                                              QStringLiteral("--wait"), QLatin1String(wait)}
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

QTEST_GUILESS_MAIN(TestCtlCommandLine)
#include "tst_ctlcommandline.moc"
