// The print queue (issue 24) against a printer that speaks ESC/POS (tests/common/testprinter):
// a job prints once; paper out, then refilled, prints once, late; a cable pulled mid-receipt
// prints it again whole, once; a printer switched off and on; the queue kept across a restart;
// the drawer's pulse; a file sink; CUPS through stand-ins of lp and lpstat.
#include "escpos.h"
#include "printeruri.h"
#include "printqueue.h"
#include "testprinter.h"

#include <QFile>
#include <QSocketNotifier>

#include <fcntl.h>
#include <termios.h>
#include <unistd.h>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace OncePay;
using OncePay::Test::PrintLog;
using OncePay::Test::TestPrinter;

Q_DECLARE_METATYPE(OncePay::Test::TestPrinter::State)

namespace {

// A receipt-sized image: `rows` rows of 576 dots, a diagonal so that slices differ.
EscPos::Raster pattern(int rows, int width = EscPos::kDots80)
{
    EscPos::Raster r;
    r.width = width;
    r.height = rows;
    r.bits = QByteArray(r.bytesPerRow() * rows, '\0');
    for (int y = 0; y < rows; ++y)
        r.bits[y * r.bytesPerRow() + (y % width) / 8] = char(0x80 >> (y % 8));
    return r;
}

QByteArray receipt(int rows = 400)
{
    return EscPos::document({pattern(rows)}, false);
}

PrinterUri uri(const QString &text)
{
    QString error;
    const auto parsed = PrinterUri::parse(text, &error);
    if (!parsed)
        qFatal("%s", qPrintable(error));
    return *parsed;
}

struct Enqueued
{
    bool done = false;
    bool ok = false;
    PrintQueue::Queued queued;
};

Enqueued enqueue(PrintQueue &queue, const QByteArray &data, const QString &onceKey = {}, QObject *context = nullptr)
{
    Enqueued e;
    QObject local;
    queue.enqueue(PrintQueue::Kind::Receipt, QStringLiteral("Receipt"), data, onceKey, context ? context : &local,
        [&e](bool ok, const QString &, const PrintQueue::Queued &q) {
            e.done = true;
            e.ok = ok;
            e.queued = q;
        });
    if (!QTest::qWaitFor([&e] {
            return e.done;
        },
            5000))
        qFatal("the queue did not answer");
    return e;
}

QList<PrintQueue::Job> jobs(PrintQueue &queue)
{
    QList<PrintQueue::Job> out;
    bool done = false;
    QObject context;
    queue.jobs(100, &context, [&](bool, const QString &, const QList<PrintQueue::Job> &j) {
        out = j;
        done = true;
    });
    if (!QTest::qWaitFor([&done] {
            return done;
        },
            5000))
        qFatal("the queue did not list its jobs");
    return out;
}

// Nothing waits and nothing is on its way: whatever the printer has now is all it gets.
bool settled(PrintQueue &queue)
{
    return QTest::qWaitFor([&queue] {
        return queue.waiting() == 0 && !queue.busy();
    },
        10000);
}

// A printer on a device file that answers: the far end of a pseudo-terminal, whose near end
// (/dev/pts/N) is a character device as /dev/usb/lp0 is. It parses what comes and answers DLE EOT
// as the TCP test printer does.
class PtyPrinter final : public QObject
{
public:
    TestPrinter::State state = TestPrinter::State::Online;
    PrintLog log;

    bool start()
    {
        m_master = ::posix_openpt(O_RDWR | O_NOCTTY);
        if (m_master < 0 || ::grantpt(m_master) != 0 || ::unlockpt(m_master) != 0)
            return false;
        m_path = QString::fromLocal8Bit(::ptsname(m_master));
        // Raw, both ways (no newline translation, no line editing); kept open so that it stays so.
        m_keep = ::open(QFile::encodeName(m_path).constData(), O_RDWR | O_NOCTTY);
        termios t{};
        if (m_keep < 0 || ::tcgetattr(m_keep, &t) != 0)
            return false;
        ::cfmakeraw(&t);
        if (::tcsetattr(m_keep, TCSANOW, &t) != 0)
            return false;
        ::fcntl(m_master, F_SETFL, ::fcntl(m_master, F_GETFL) | O_NONBLOCK);
        m_notifier = std::make_unique<QSocketNotifier>(m_master, QSocketNotifier::Read);
        connect(m_notifier.get(), &QSocketNotifier::activated, this, [this] {
            char buffer[4096];
            ssize_t n;
            while ((n = ::read(m_master, buffer, sizeof buffer)) > 0) {
                const auto events = m_parser.feed(QByteArray(buffer, int(n)));
                QByteArray answers;
                for (const auto &e : events) {
                    if (e.type == OncePay::Test::EscPosParser::Event::Type::StatusQuery)
                        answers += TestPrinter::statusAnswer(state, e.n);
                    else if (state == TestPrinter::State::Online || (e.realTime && state != TestPrinter::State::Offline))
                        log.add({e}, &m_current, &m_open);
                }
                if (!answers.isEmpty() && ::write(m_master, answers.constData(), size_t(answers.size())) < 0)
                    qWarning("the pty printer could not answer");
                log.statusQueries += int(std::count_if(events.cbegin(), events.cend(), [](const auto &e) {
                    return e.type == OncePay::Test::EscPosParser::Event::Type::StatusQuery;
                }));
            }
        });
        return true;
    }
    ~PtyPrinter() override
    {
        m_notifier.reset();
        if (m_keep >= 0)
            ::close(m_keep);
        if (m_master >= 0)
            ::close(m_master);
    }
    QString uri() const { return QUrl::fromLocalFile(m_path).toString(); }

private:
    int m_master = -1;
    int m_keep = -1;
    QString m_path;
    std::unique_ptr<QSocketNotifier> m_notifier;
    OncePay::Test::EscPosParser m_parser;
    OncePay::Test::PrintedDocument m_current;
    bool m_open = false;
};

}   // namespace

class tst_PrintQueue : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        QVERIFY(m_dir.isValid());
        m_path = m_dir.filePath(QStringLiteral("till-%1-print.db").arg(++m_n));
    }

    void aPaidSalePrintsOnce()
    {
        TestPrinter printer;
        QVERIFY(printer.listen());
        PrintQueue queue(m_path);
        QString error;
        QVERIFY2(queue.open(&error), qPrintable(error));
        queue.setRetryMs(50);
        queue.setPrinter(uri(printer.uri()));
        const Enqueued first = enqueue(queue, receipt(), QStringLiteral("receipt:1-000001"));
        QVERIFY(first.ok && first.queued.added);
        QTRY_COMPARE(printer.log().documents.size(), 1);
        QVERIFY(settled(queue));
        // Asked again (the window shown twice, a restart): the queue already has it.
        const Enqueued again = enqueue(queue, receipt(), QStringLiteral("receipt:1-000001"));
        QVERIFY(again.ok);
        QVERIFY(!again.queued.added);
        QCOMPARE(again.queued.id, first.queued.id);
        QVERIFY(settled(queue));
        QCOMPARE(printer.log().documents.size(), 1);
        const auto doc = printer.log().documents.first();
        QCOMPARE(doc.width(), EscPos::kDots80);
        QCOMPARE(doc.height(), 400);
        QCOMPARE(doc.images.size(), 4);   // 128-row slices: 128 + 128 + 128 + 16
        QCOMPARE(printer.log().partial, 0);
        QCOMPARE(printer.log().pulses, 0);
        QCOMPARE(printer.log().unknownBytes, 0);
        const auto all = jobs(queue);
        QCOMPARE(all.size(), 1);
        QCOMPARE(all.first().state, QStringLiteral("printed"));
        QCOMPARE(all.first().attempts, 1);
    }

    void paperOutThenRefilledPrintsOnceLate()
    {
        TestPrinter printer;
        QVERIFY(printer.listen());
        printer.setState(TestPrinter::State::PaperOut);
        PrintQueue queue(m_path);
        QString error;
        QVERIFY(queue.open(&error));
        queue.setRetryMs(50);
        queue.setPrinter(uri(printer.uri()));
        QVERIFY(enqueue(queue, receipt(), QStringLiteral("receipt:1-000002")).ok);
        QTRY_VERIFY(queue.problem().contains(QStringLiteral("paper")));
        QCOMPARE(queue.waiting(), 1);
        // It keeps asking (status only): several connections, nothing printed.
        QTRY_VERIFY(printer.connections() >= 3);
        QCOMPARE(printer.log().documents.size(), 0);
        QCOMPARE(printer.log().partial, 0);
        printer.setState(TestPrinter::State::Online);
        QTRY_COMPARE(printer.log().documents.size(), 1);
        QVERIFY(settled(queue));
        QCOMPARE(printer.log().documents.size(), 1);
        QVERIFY(queue.problem().isEmpty());
    }

    void coverOpenIsSaid()
    {
        TestPrinter printer;
        QVERIFY(printer.listen());
        printer.setState(TestPrinter::State::CoverOpen);
        PrintQueue queue(m_path);
        QString error;
        QVERIFY(queue.open(&error));
        queue.setRetryMs(50);
        queue.setPrinter(uri(printer.uri()));
        QVERIFY(enqueue(queue, receipt()).ok);
        QTRY_VERIFY(queue.problem().contains(QStringLiteral("cover")));
        printer.setState(TestPrinter::State::Offline);
        QTRY_VERIFY(queue.problem().contains(QStringLiteral("offline")));
        QCOMPARE(printer.log().documents.size(), 0);
        printer.setState(TestPrinter::State::Online);
        QTRY_COMPARE(printer.log().documents.size(), 1);
        QVERIFY(settled(queue));
    }

    void aCablePulledMidReceiptReprintsWholeOnce()
    {
        TestPrinter printer;
        QVERIFY(printer.listen());
        printer.cutNextConnectionAfter(20000);   // the job is 28,800 bytes of image and more
        PrintQueue queue(m_path);
        QString error;
        QVERIFY(queue.open(&error));
        queue.setRetryMs(50);
        queue.setPrinter(uri(printer.uri()));
        QVERIFY(enqueue(queue, receipt(400), QStringLiteral("receipt:1-000003")).ok);
        QTRY_COMPARE(printer.log().documents.size(), 1);
        QVERIFY(settled(queue));
        QCOMPARE(printer.log().partial, 1);   // what was on paper when the cable went
        QCOMPARE(printer.log().documents.size(), 1);   // and the receipt again, whole, once
        QCOMPARE(printer.log().documents.first().height(), 400);
        QCOMPARE(jobs(queue).constFirst().attempts, 2);
    }

    void aPrinterSwitchedOffPrintsWhenBack()
    {
        TestPrinter printer;
        QVERIFY(printer.listen());
        printer.setPoweredOn(false);
        PrintQueue queue(m_path);
        QString error;
        QVERIFY(queue.open(&error));
        queue.setRetryMs(50);
        queue.setTimeoutMs(2000);
        queue.setPrinter(uri(printer.uri()));
        QVERIFY(enqueue(queue, receipt(), QStringLiteral("a")).ok);
        QVERIFY(enqueue(queue, receipt(200), QStringLiteral("b")).ok);
        QTRY_VERIFY(!queue.problem().isEmpty());
        QTRY_COMPARE(queue.waiting(), 2);
        printer.setPoweredOn(true);
        QTRY_COMPARE(printer.log().documents.size(), 2);
        QVERIFY(settled(queue));
        // In the order they were queued.
        QCOMPARE(printer.log().documents.at(0).height(), 400);
        QCOMPARE(printer.log().documents.at(1).height(), 200);
    }

    void theQueueIsKeptAcrossARestart()
    {
        TestPrinter printer;
        QVERIFY(printer.listen());
        {
            PrintQueue queue(m_path);
            QString error;
            QVERIFY(queue.open(&error));
            // No printer yet: the job waits in the file.
            QVERIFY(enqueue(queue, receipt(), QStringLiteral("receipt:1-000004")).ok);
            QTRY_COMPARE(queue.waiting(), 1);
        }
        PrintQueue queue(m_path);
        QString error;
        QVERIFY(queue.open(&error));
        QTRY_COMPARE(queue.waiting(), 1);
        queue.setRetryMs(50);
        queue.setPrinter(uri(printer.uri()));
        QTRY_COMPARE(printer.log().documents.size(), 1);
        QVERIFY(settled(queue));
        // The same sale's receipt asked for again after the restart: not printed again.
        QVERIFY(!enqueue(queue, receipt(), QStringLiteral("receipt:1-000004")).queued.added);
        QVERIFY(settled(queue));
        QCOMPARE(printer.log().documents.size(), 1);
    }

    void aJobIsReprintedByItsKey()
    {
        TestPrinter printer;
        QVERIFY(printer.listen());
        PrintQueue queue(m_path);
        QString error;
        QVERIFY(queue.open(&error));
        queue.setRetryMs(50);
        queue.setPrinter(uri(printer.uri()));
        QVERIFY(enqueue(queue, receipt(300), QStringLiteral("receipt:1-000009")).ok);
        QTRY_COMPARE(printer.log().documents.size(), 1);
        auto reprint = [&](const QString &key) {
            std::optional<bool> found;
            queue.reprint(key, this, [&found](bool ok, const QString &, bool f) {
                found = ok && f;
            });
            if (!QTest::qWaitFor([&found] {
                    return found.has_value();
                },
                    5000))
                qFatal("no answer to reprint");
            return *found;
        };
        QVERIFY(reprint(QStringLiteral("receipt:1-000009")));
        QVERIFY(!reprint(QStringLiteral("receipt:1-000010")));   // never queued: nothing
        QTRY_COMPARE(printer.log().documents.size(), 2);
        QVERIFY(settled(queue));
        QCOMPARE(printer.log().documents.size(), 2);
        QCOMPARE(printer.log().documents.at(1).images.size(), printer.log().documents.at(0).images.size());
        QCOMPARE(jobs(queue).size(), 2);   // a reprint is a job of its own
    }

    void theDrawerPulsesOnce()
    {
        TestPrinter printer;
        QVERIFY(printer.listen());
        PrintQueue queue(m_path);
        QString error;
        QVERIFY(queue.open(&error));
        queue.setPrinter(uri(printer.uri()));
        bool answered = false;
        bool opened = false;
        queue.pulseDrawer(this, [&](bool ok, const QString &) {
            answered = true;
            opened = ok;
        });
        QTRY_VERIFY(answered);
        QVERIFY(opened);
        QCOMPARE(printer.log().pulses, 1);
        QCOMPARE(printer.log().documents.size(), 0);   // no paper for a drawer
        QVERIFY(settled(queue));
        QCOMPARE(printer.log().pulses, 1);
    }

    // Issue 36, confusion 15: the drawer needs no paper. A printer out of paper or with its cover
    // open still pulses it, in real time (DLE DC4: ESC p would wait in its buffer and open the
    // drawer when the paper is back, for nobody); the receipt waits; what is said is what the
    // printer said. Before, the drawer stayed shut and the till said "the printer did not answer".
    void theDrawerOpensWithoutPaper_data()
    {
        QTest::addColumn<TestPrinter::State>("state");
        QTest::addColumn<QString>("said");
        QTest::newRow("out of paper") << TestPrinter::State::PaperOut << QStringLiteral("out of paper");
        QTest::newRow("cover open") << TestPrinter::State::CoverOpen << QStringLiteral("cover open");
    }

    void theDrawerOpensWithoutPaper()
    {
        QFETCH(TestPrinter::State, state);
        QFETCH(QString, said);
        TestPrinter printer;
        QVERIFY(printer.listen());
        printer.setState(state);
        PrintQueue queue(m_path);
        QString error;
        QVERIFY(queue.open(&error));
        queue.setRetryMs(50);
        queue.setPrinter(uri(printer.uri()));
        QVERIFY(enqueue(queue, receipt(), QStringLiteral("receipt:1-000009")).ok);   // the cash sale's receipt
        bool answered = false;
        bool opened = false;
        QString reason;
        queue.pulseDrawer(this, [&](bool ok, const QString &why) {
            answered = true;
            opened = ok;
            reason = why;
        });
        QTRY_VERIFY(answered);
        QVERIFY2(opened, qPrintable(reason));
        QCOMPARE(printer.log().pulses, 1);
        QVERIFY2(reason.contains(said), qPrintable(reason));
        QVERIFY2(!reason.contains(QStringLiteral("did not answer")), qPrintable(reason));
        QCOMPARE(printer.log().documents.size(), 0);
        QCOMPARE(queue.waiting(), 1);
        // Refilled: the receipt prints once, and the drawer does not open again.
        printer.setState(TestPrinter::State::Online);
        QTRY_COMPARE(printer.log().documents.size(), 1);
        QVERIFY(settled(queue));
        QCOMPARE(printer.log().pulses, 1);
        QCOMPARE(printer.log().documents.first().pulses, 0);
    }

    // A printer in error obeys no pulse: the drawer stays shut, and the till says what the
    // printer said (offline), not that it did not answer.
    void aDrawerOnAPrinterInErrorSaysWhy()
    {
        TestPrinter printer;
        QVERIFY(printer.listen());
        printer.setState(TestPrinter::State::Offline);
        PrintQueue queue(m_path);
        QString error;
        QVERIFY(queue.open(&error));
        queue.setRetryMs(50);
        queue.setDrawerPatienceMs(400);
        queue.setPrinter(uri(printer.uri()));
        bool answered = false;
        bool opened = true;
        QString reason;
        queue.pulseDrawer(this, [&](bool ok, const QString &why) {
            answered = true;
            opened = ok;
            reason = why;
        });
        QTRY_VERIFY(answered);
        QVERIFY(!opened);
        QCOMPARE(printer.log().pulses, 0);
        QVERIFY2(reason.contains(QStringLiteral("offline")) && reason.contains(QStringLiteral("key")), qPrintable(reason));
        QVERIFY2(!reason.contains(QStringLiteral("did not answer")) && !reason.contains(QStringLiteral("..")), qPrintable(reason));
    }

    // The same on a device file that answers its status (a USB printer).
    void theDrawerOpensOnADeviceOutOfPaper()
    {
        PtyPrinter printer;
        QVERIFY(printer.start());
        printer.state = TestPrinter::State::PaperOut;
        PrintQueue queue(m_path);
        QString error;
        QVERIFY(queue.open(&error));
        queue.setPrinter(uri(printer.uri()));
        bool answered = false;
        bool opened = false;
        QString reason;
        queue.pulseDrawer(this, [&](bool ok, const QString &why) {
            answered = true;
            opened = ok;
            reason = why;
        });
        QTRY_VERIFY(answered);
        QVERIFY2(opened, qPrintable(reason));
        QVERIFY2(reason.contains(QStringLiteral("out of paper")), qPrintable(reason));
        QCOMPARE(printer.log.pulses, 1);
    }

    void aDrawerWithoutAPrinterSaysSo()
    {
        PrintQueue queue(m_path);
        QString error;
        QVERIFY(queue.open(&error));
        bool answered = false;
        QString reason;
        queue.pulseDrawer(this, [&](bool ok, const QString &why) {
            answered = true;
            QVERIFY(!ok);
            reason = why;
        });
        QTRY_VERIFY(answered);
        QVERIFY(reason.contains(QStringLiteral("key")));
    }

    void aDrawerOnItsOwnDevice()
    {
        const QString drawer = m_dir.filePath(QStringLiteral("drawer-%1").arg(m_n));
        QFile f(drawer);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        PrintQueue queue(m_path);
        QString error;
        QVERIFY(queue.open(&error));
        queue.setDrawer(uri(QUrl::fromLocalFile(drawer).toString()));
        bool opened = false;
        queue.pulseDrawer(this, [&](bool ok, const QString &) {
            opened = ok;
        });
        QTRY_VERIFY(opened);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(PrintLog::parse(f.readAll()).pulses, 1);
    }

    void aFileSink()
    {
        const QString sink = m_dir.filePath(QStringLiteral("lp-%1").arg(m_n));
        PrintQueue queue(m_path);
        QString error;
        QVERIFY(queue.open(&error));
        queue.setRetryMs(50);
        queue.setPrinter(uri(QUrl::fromLocalFile(sink).toString()));
        QVERIFY(enqueue(queue, receipt(300)).ok);
        // A device that is not there: the job waits and the reason is said.
        QTRY_VERIFY(queue.problem().contains(QStringLiteral("No such file")));
        QFile f(sink);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        QVERIFY(settled(queue));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const PrintLog log = PrintLog::parse(f.readAll());
        QCOMPARE(log.documents.size(), 1);
        QCOMPARE(log.documents.first().height(), 300);
    }

    void aDeviceFileThatAnswersItsStatus()
    {
        PtyPrinter printer;
        QVERIFY(printer.start());
        printer.state = TestPrinter::State::PaperOut;
        PrintQueue queue(m_path);
        QString error;
        QVERIFY(queue.open(&error));
        queue.setRetryMs(50);
        queue.setPrinter(uri(printer.uri()));
        QVERIFY(enqueue(queue, receipt(200), QStringLiteral("receipt:pty")).ok);
        // Asked through the device, it says it has no paper: nothing is sent.
        QTRY_VERIFY(queue.problem().contains(QStringLiteral("paper")));
        QVERIFY(printer.log.statusQueries >= 3);
        QCOMPARE(printer.log.documents.size(), 0);
        printer.state = TestPrinter::State::Online;
        QTRY_COMPARE(printer.log.documents.size(), 1);
        QVERIFY(settled(queue));
        QCOMPARE(printer.log.documents.size(), 1);
        QCOMPARE(printer.log.documents.first().height(), 200);
    }

    void cupsThroughLpAndLpstat()
    {
        // Stand-ins for CUPS's programs: lp keeps the job and gives it an id; lpstat lists it as
        // not completed the first time it is asked, completed after.
        const QString bin = m_dir.filePath(QStringLiteral("cups-%1").arg(m_n));
        QVERIFY(QDir().mkpath(bin));
        auto script = [&](const QString &name, const QByteArray &body) {
            QFile f(bin + QLatin1Char('/') + name);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("#!/bin/sh\n" + body);
            f.close();
            f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        };
        script(QStringLiteral("lp"), "cat > \"$(dirname \"$0\")/job.bin\"\necho \"$@\" > \"$(dirname \"$0\")/lp.args\"\n"
                                     "echo \"request id is receipts-7 (1 file(s))\"\n");
        script(QStringLiteral("lpstat"), "d=\"$(dirname \"$0\")\"\n"
                                         "if [ \"$2\" = completed ]; then [ -f \"$d/seen\" ] && echo \"receipts-7 root 1024 now\"; exit 0; fi\n"
                                         "if [ \"$2\" = not-completed ]; then touch \"$d/seen\"; echo \"receipts-7 root 1024 now\"; exit 0; fi\n"
                                         "echo \"printer receipts is idle.  enabled since now\"\n");
        qputenv("ONCEPAY_CUPS_BIN_DIR", QFile::encodeName(bin));
        PrintQueue queue(m_path);
        QString error;
        QVERIFY(queue.open(&error));
        queue.setRetryMs(50);
        queue.setPrinter(uri(QStringLiteral("cups://receipts")));
        QVERIFY(enqueue(queue, receipt(128)).ok);
        QVERIFY(settled(queue));
        qunsetenv("ONCEPAY_CUPS_BIN_DIR");
        QFile job(bin + QStringLiteral("/job.bin"));
        QVERIFY(job.open(QIODevice::ReadOnly));
        QCOMPARE(PrintLog::parse(job.readAll()).documents.size(), 1);
        QFile args(bin + QStringLiteral("/lp.args"));
        QVERIFY(args.open(QIODevice::ReadOnly));
        QVERIFY(args.readAll().startsWith("-d receipts -o raw"));
        QVERIFY(QFile::exists(bin + QStringLiteral("/seen")));   // it asked while the job waited
        const auto all = jobs(queue);
        QCOMPARE(all.first().state, QStringLiteral("printed"));
        QCOMPARE(all.first().attempts, 1);   // handed over once
    }

private:
    QTemporaryDir m_dir;
    QString m_path;
    int m_n = 0;
};

QTEST_MAIN(tst_PrintQueue)
#include "tst_printqueue.moc"
