// oncepay-pos --help and --version answer without a display: run with the xcb platform and no
// DISPLAY, where creating a QApplication would abort.
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

class TestPosCommandLine final : public QObject
{
    Q_OBJECT

private slots:
    void answersWithoutADisplay_data();
    void answersWithoutADisplay();
};

void TestPosCommandLine::answersWithoutADisplay_data()
{
    QTest::addColumn<QString>("option");
    QTest::addColumn<QString>("says");
    QTest::newRow("--version") << QStringLiteral("--version") << QStringLiteral("OncePay " ONCEPAY_VERSION);
    QTest::newRow("-v") << QStringLiteral("-v") << QStringLiteral("OncePay " ONCEPAY_VERSION);
    QTest::newRow("--help") << QStringLiteral("--help") << QStringLiteral("--db <PATH>");
    QTest::newRow("-h") << QStringLiteral("-h") << QStringLiteral("--gateway <URL[,URL...]>");
}

void TestPosCommandLine::answersWithoutADisplay()
{
    QFETCH(QString, option);
    QFETCH(QString, says);
    QTemporaryDir home;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("xcb"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral("config")));
    env.insert(QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral("data")));
    env.insert(QStringLiteral("LANGUAGE"), QStringLiteral("en"));
    env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C.UTF-8"));
    QProcess pos;
    pos.setProcessEnvironment(env);
    pos.start(QStringLiteral(ONCEPAY_POS_BIN), {option});
    QVERIFY(pos.waitForFinished(20000));
    const QString out = QString::fromUtf8(pos.readAllStandardOutput());
    QVERIFY2(pos.exitStatus() == QProcess::NormalExit && pos.exitCode() == 0,
        qPrintable(QString::fromUtf8(pos.readAllStandardError())));
    QVERIFY2(out.contains(says), qPrintable(out));
}

QTEST_GUILESS_MAIN(TestPosCommandLine)
#include "tst_poscommandline.moc"
