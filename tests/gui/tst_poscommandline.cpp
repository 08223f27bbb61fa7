// oncepay-pos's command line. --help and --version answer without a display: run with the xcb
// platform and no DISPLAY, where creating a QApplication would abort. And the till's files
// (issue 35): its own folder is ~/.local/share/OncePay as the README says (an older till's
// ~/.local/share/OncePay/OncePay stays in use while its journal is there), 0700, with every file
// in it 0600, the demo gateway's included; a --db folder other accounts may write is refused
// with how to fix it. And Quit (issue 36): Ctrl+Q, pressed on an X server as a cashier presses
// it, ends the till with its customer display open, and the journal is free for the next start.
#include <QDirIterator>
#include <QProcess>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

namespace {

// A run of the till that never touches the real user's settings or data.
QProcessEnvironment tillEnvironment(const QTemporaryDir &home, const QString &platform)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), platform);
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral("config")));
    env.insert(QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral("data")));
    env.insert(QStringLiteral("LANGUAGE"), QStringLiteral("en"));
    env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C.UTF-8"));
    return env;
}

// A program on the PATH, or empty.
QString program(const char *name)
{
    return QStandardPaths::findExecutable(QString::fromLatin1(name));
}

// An X server of the test's own (Xvfb, 1024x768), for keys pressed as a cashier presses them.
class XServer final
{
public:
    ~XServer()
    {
        if (m_server.state() != QProcess::NotRunning) {
            m_server.terminate();
            m_server.waitForFinished(5000);
        }
    }
    // The display (":N") once the server answers, or empty.
    QString start()
    {
        // -noreset: by default the server resets when its last client leaves, and refuses the next
        // one for a moment (the second run's till then could not connect to the display).
        m_server.start(program("Xvfb"), {QStringLiteral("-displayfd"), QStringLiteral("1"), QStringLiteral("-noreset"), QStringLiteral("-screen"), QStringLiteral("0"), QStringLiteral("1024x768x24"), QStringLiteral("-nolisten"), QStringLiteral("tcp")});
        QByteArray number;
        const bool told = QTest::qWaitFor([&] {
            number += m_server.readAllStandardOutput();
            return number.contains('\n') || m_server.state() == QProcess::NotRunning;
        },
            10000);
        return told && number.contains('\n') ? QStringLiteral(":") + QString::fromLatin1(number.trimmed()) : QString();
    }

private:
    QProcess m_server;
};

// xdotool on `display`: true when it did what it was asked; `out`, what it printed.
bool xdotool(const QString &display, const QStringList &arguments, QString *out = nullptr)
{
    QProcess tool;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("DISPLAY"), display);
    tool.setProcessEnvironment(env);
    tool.start(program("xdotool"), arguments);
    if (!tool.waitForFinished(10000) || tool.exitStatus() != QProcess::NormalExit || tool.exitCode() != 0)
        return false;
    if (out)
        *out = QString::fromUtf8(tool.readAllStandardOutput()).trimmed();
    return true;
}

int modeOf(const QString &path)
{
    struct stat st = {};
    if (::lstat(QFile::encodeName(path).constData(), &st) != 0)
        return -1;
    return int(st.st_mode & 07777);
}

}   // namespace

class TestPosCommandLine final : public QObject
{
    Q_OBJECT

private slots:
    void answersWithoutADisplay_data();
    void answersWithoutADisplay();
    void itsFilesAreTheShopsAlone_data();
    void itsFilesAreTheShopsAlone();
    void aFolderOthersMayWriteIsRefused();
    void quitWithTheCustomerDisplayEndsTheTill();
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
    QProcess pos;
    pos.setProcessEnvironment(tillEnvironment(home, QStringLiteral("xcb")));
    pos.start(QStringLiteral(ONCEPAY_POS_BIN), {option});
    QVERIFY(pos.waitForFinished(20000));
    const QString out = QString::fromUtf8(pos.readAllStandardOutput());
    QVERIFY2(pos.exitStatus() == QProcess::NormalExit && pos.exitCode() == 0,
        qPrintable(QString::fromUtf8(pos.readAllStandardError())));
    QVERIFY2(out.contains(says), qPrintable(out));
}

void TestPosCommandLine::itsFilesAreTheShopsAlone_data()
{
    QTest::addColumn<bool>("olderTill");   // a till before issue 35 kept its journal in OncePay/OncePay
    QTest::addColumn<QString>("folder");   // the one in use, under XDG_DATA_HOME
    QTest::newRow("a new till") << false << QStringLiteral("OncePay");
    QTest::newRow("an older till's journal") << true << QStringLiteral("OncePay/OncePay");
}

void TestPosCommandLine::itsFilesAreTheShopsAlone()
{
    QFETCH(bool, olderTill);
    QFETCH(QString, folder);
    QTemporaryDir home;
    const QString data = home.filePath(QStringLiteral("data/"));
    if (olderTill) {
        // As the older till left it: 0755 and 0644 under the umask of the day.
        QVERIFY(QDir().mkpath(data + QStringLiteral("OncePay/OncePay")));
        QFile journal(data + QStringLiteral("OncePay/OncePay/till-journal.db"));
        QVERIFY(journal.open(QIODevice::WriteOnly));
        journal.close();
        QVERIFY(::chmod(QFile::encodeName(data + folder).constData(), 0755) == 0);
        QVERIFY(::chmod(QFile::encodeName(journal.fileName()).constData(), 0644) == 0);
    }
    // The demo: its gateway and bank beside the journal too. The till quits once it is shown.
    QProcess pos;
    pos.setProcessEnvironment(tillEnvironment(home, QStringLiteral("offscreen")));
    pos.start(QStringLiteral(ONCEPAY_POS_BIN), {QStringLiteral("--measure-startup")});
    QVERIFY(pos.waitForFinished(60000));
    QVERIFY2(pos.exitStatus() == QProcess::NormalExit && pos.exitCode() == 0, pos.readAllStandardError().constData());

    QCOMPARE(modeOf(data + folder), 0700);
    QVERIFY(QFileInfo(data + folder + QStringLiteral("/till-journal.db")).size() > 0);
    if (olderTill)
        QVERIFY(!QFileInfo::exists(data + QStringLiteral("OncePay/till-journal.db")));
    QStringList files;
    for (QDirIterator it(data + folder, QDir::Files | QDir::Hidden); it.hasNext();) {
        const QString file = it.next();
        files << it.fileName();
        QVERIFY2(modeOf(file) == 0600, qPrintable(QStringLiteral("%1 is %2").arg(file).arg(modeOf(file), 0, 8)));
    }
    for (const char *made : {"till-journal.db.lock", "till-journal-staff.db", "till-journal-catalog.db", "till-journal-print.db",
             "demo-gateway.db", "demo-gateway.acquirer.db"})
        QVERIFY2(files.contains(QLatin1String(made)), qPrintable(files.join(QLatin1Char(' '))));
}

void TestPosCommandLine::aFolderOthersMayWriteIsRefused()
{
    QTemporaryDir home;
    const QString shared = home.filePath(QStringLiteral("shared"));
    QVERIFY(QDir(home.path()).mkdir(QStringLiteral("shared")));
    QVERIFY(::chmod(QFile::encodeName(shared).constData(), 0777) == 0);
    QProcess pos;
    pos.setProcessEnvironment(tillEnvironment(home, QStringLiteral("offscreen")));
    pos.start(QStringLiteral(ONCEPAY_POS_BIN), {QStringLiteral("--db"), shared + QStringLiteral("/till.db")});
    // One line on stderr says what to do; the same words then wait in a window for the cashier,
    // which nobody closes here. (Qt may say things of its own on stderr too.)
    QByteArray err;
    const auto said = [&] {
        err += pos.readAllStandardError();
        const qsizetype at = err.indexOf("oncepay-pos: ");
        return at >= 0 && err.indexOf('\n', at) > at;
    };
    QTRY_VERIFY_WITH_TIMEOUT(said() || pos.state() == QProcess::NotRunning, 30000);
    pos.kill();
    pos.waitForFinished();
    const QByteArray line = err.mid(err.indexOf("oncepay-pos: ")).split('\n').constFirst();
    QVERIFY2(line.startsWith("oncepay-pos: --db: ") && line.contains("chmod 700 " + QFile::encodeName(shared)), err.constData());
    QCOMPARE(QDir(shared).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden), QStringList());
}

void TestPosCommandLine::quitWithTheCustomerDisplayEndsTheTill()
{
    if (program("Xvfb").isEmpty() || program("xdotool").isEmpty())
        QSKIP("needs Xvfb and xdotool (scripts/install-deps installs them)");
    XServer x;
    const QString display = x.start();
    QVERIFY2(!display.isEmpty(), "Xvfb did not start");
    // It tells its number before it takes clients: asked until it answers.
    QTRY_VERIFY_WITH_TIMEOUT(xdotool(display, {QStringLiteral("getdisplaygeometry")}), 10000);
    QTemporaryDir home;
    QProcessEnvironment env = tillEnvironment(home, QStringLiteral("xcb"));
    env.insert(QStringLiteral("DISPLAY"), display);
    // In the asan tree the till's exit code carries LeakSanitizer's verdict. Under xcb, Qt talks
    // to D-Bus, and libdbus keeps 1 KiB it never frees: the system library's, not ours.
    QFile suppressions(home.filePath(QStringLiteral("lsan.supp")));
    QVERIFY(suppressions.open(QIODevice::WriteOnly) && suppressions.write("leak:libdbus-1.so\n") > 0);
    suppressions.close();
    env.insert(QStringLiteral("LSAN_OPTIONS"), QStringLiteral("suppressions=") + suppressions.fileName());
    // Twice on one journal: the second start finds it free (before the fix: "in use by process").
    for (int run = 1; run <= 2; ++run) {
        QProcess pos;
        pos.setProcessEnvironment(env);
        const auto stop = qScopeGuard([&pos] {
            if (pos.state() != QProcess::NotRunning) {
                pos.kill();
                pos.waitForFinished();
            }
        });
        pos.start(QStringLiteral(ONCEPAY_POS_BIN), {QStringLiteral("--customer-display"), QStringLiteral("0")});
        // Both windows shown: the cashier's and, on the same screen here, the customer's.
        QString till;
        QTRY_VERIFY_WITH_TIMEOUT(pos.state() == QProcess::NotRunning
                || (xdotool(display, {QStringLiteral("search"), QStringLiteral("--name"), QStringLiteral("^OncePay till$")}, &till)
                    && xdotool(display, {QStringLiteral("search"), QStringLiteral("--name"), QStringLiteral("customer display$")})),
            60000);
        QVERIFY2(pos.state() == QProcess::Running, pos.readAllStandardError().constData());
        // Ctrl+Q on the cashier's window, through the X server, as a cashier presses it.
        QVERIFY(xdotool(display, {QStringLiteral("windowfocus"), QStringLiteral("--sync"), till.split(QLatin1Char('\n')).constFirst()}));
        QVERIFY(xdotool(display, {QStringLiteral("key"), QStringLiteral("--clearmodifiers"), QStringLiteral("ctrl+q")}));
        QVERIFY2(pos.waitForFinished(20000), qPrintable(QStringLiteral("run %1: the till still runs after Quit").arg(run)));
        QCOMPARE(pos.exitStatus(), QProcess::NormalExit);
        QVERIFY2(pos.exitCode() == 0, pos.readAllStandardError().constData());
    }
}

QTEST_GUILESS_MAIN(TestPosCommandLine)
#include "tst_poscommandline.moc"
