// ESC/POS as tables (issue 24): printer addresses parsed or refused in words, the status bytes
// of DLE EOT read as states, the raster cut into GS v 0 slices with their sizes, and a receipt's
// document read back by the test printer's parser (written from the reference, not from ours).
#include "escpos.h"
#include "printeruri.h"
#include "testprinter.h"

#include <QtTest>

using namespace OncePay;

class tst_EscPos : public QObject
{
    Q_OBJECT

private slots:
    void uris_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<QString>("normalised");
        QTest::newRow("tcp with port") << "tcp://192.0.2.20:9100" << true << "tcp://192.0.2.20:9100";
        QTest::newRow("tcp default port") << "tcp://printer.local" << true << "tcp://printer.local:9100";
        QTest::newRow("tcp ipv6") << "tcp://[::1]:9101" << true << "tcp://[::1]:9101";
        QTest::newRow("tcp spaces around") << "  tcp://10.0.0.5:9100 " << true << "tcp://10.0.0.5:9100";
        QTest::newRow("usb device") << "file:///dev/usb/lp0" << true << "file:///dev/usb/lp0";
        QTest::newRow("cups") << "cups://receipts" << true << "cups://receipts";
        QTest::newRow("empty") << "" << false << "";
        QTest::newRow("no scheme") << "192.0.2.20:9100" << false << "";
        QTest::newRow("http") << "http://192.0.2.20" << false << "";
        QTest::newRow("tcp without host") << "tcp://:9100" << false << "";
        QTest::newRow("tcp port too big") << "tcp://host:70000" << false << "";
        QTest::newRow("tcp with a path") << "tcp://host:9100/x" << false << "";
        QTest::newRow("file folder") << "file:///dev/usb/" << false << "";
        QTest::newRow("file with host") << "file://host/dev/lp0" << false << "";
        QTest::newRow("cups with slash") << "cups://a/b" << false << "";
        QTest::newRow("cups empty") << "cups://" << false << "";
    }
    void uris()
    {
        QFETCH(QString, text);
        QFETCH(bool, valid);
        QFETCH(QString, normalised);
        QString error;
        const auto uri = PrinterUri::parse(text, &error);
        QCOMPARE(uri.has_value(), valid);
        if (valid) {
            QCOMPARE(uri->toString(), normalised);
            QCOMPARE(PrinterUri::parse(uri->toString(), &error)->toString(), normalised);   // round trip
        } else {
            QVERIFY(!error.isEmpty());
            QVERIFY2(error.contains(QStringLiteral("tcp://HOST:PORT")), qPrintable(error));   // says what would do
        }
    }

    void status_data()
    {
        QTest::addColumn<QByteArray>("answers");
        QTest::addColumn<bool>("parsed");
        QTest::addColumn<bool>("ready");
        QTest::addColumn<QString>("problem");
        QTest::newRow("online") << QByteArray("\x12\x12\x12", 3) << true << true << "";
        QTest::newRow("near end still prints") << QByteArray("\x12\x12\x1E", 3) << true << true << "";
        QTest::newRow("paper out") << QByteArray("\x1A\x32\x72", 3) << true << false << "out of paper";
        QTest::newRow("paper end sensor only") << QByteArray("\x12\x12\x72", 3) << true << false << "out of paper";
        QTest::newRow("cover open") << QByteArray("\x1A\x16\x12", 3) << true << false << "cover open";
        QTest::newRow("offline") << QByteArray("\x1A\x12\x12", 3) << true << false << "offline";
        QTest::newRow("error") << QByteArray("\x12\x52\x12", 3) << true << false << "printer error";
        QTest::newRow("offline with an error") << QByteArray("\x1A\x52\x12", 3) << true << false << "offline";
        QTest::newRow("two bytes") << QByteArray("\x12\x12", 2) << false << false << "";
        QTest::newRow("not status bytes") << QByteArray("abc") << false << false << "";
        QTest::newRow("bit 7 set") << QByteArray("\x92\x12\x12", 3) << false << false << "";
    }
    void status()
    {
        QFETCH(QByteArray, answers);
        QFETCH(bool, parsed);
        QFETCH(bool, ready);
        QFETCH(QString, problem);
        const auto s = EscPos::parseStatus(answers);
        QCOMPARE(s.has_value(), parsed);
        if (!parsed)
            return;
        QCOMPARE(s->ready(), ready);
        QCOMPARE(s->problem(), problem);
    }

    void theTestPrintersAnswersReadAsItsStates()
    {
        using State = Test::TestPrinter::State;
        for (State state : {State::Online, State::PaperOut, State::CoverOpen, State::Offline}) {
            const QByteArray answers = Test::TestPrinter::statusAnswer(state, 1) + Test::TestPrinter::statusAnswer(state, 2)
                + Test::TestPrinter::statusAnswer(state, 4);
            const auto s = EscPos::parseStatus(answers);
            QVERIFY(s);
            QCOMPARE(s->ready(), state == State::Online);
            QCOMPARE(s->paperOut, state == State::PaperOut);
            QCOMPARE(s->coverOpen, state == State::CoverOpen);
        }
    }

    void rasterSlices_data()
    {
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("height");
        QTest::addColumn<int>("sliceRows");
        QTest::addColumn<QList<int>>("slices");
        QTest::newRow("one slice") << 576 << 100 << 128 << QList<int>{100};
        QTest::newRow("exact") << 576 << 256 << 128 << QList<int>{128, 128};
        QTest::newRow("rest") << 384 << 300 << 128 << QList<int>{128, 128, 44};
        QTest::newRow("one row") << 8 << 1 << 128 << QList<int>{1};
    }
    void rasterSlices()
    {
        QFETCH(int, width);
        QFETCH(int, height);
        QFETCH(int, sliceRows);
        QFETCH(QList<int>, slices);
        EscPos::Raster r;
        r.width = width;
        r.height = height;
        r.bits = QByteArray(r.bytesPerRow() * height, '\0');
        for (int y = 0; y < height; ++y)
            r.bits[y * r.bytesPerRow() + (y % r.bytesPerRow())] = char(0x80 >> (y % 8));
        QVERIFY(r.isValid());
        const auto log = Test::PrintLog::parse(EscPos::document({r}, true));
        QCOMPARE(log.documents.size(), 1);
        QCOMPARE(log.unknownBytes, 0);
        QCOMPARE(log.pulses, 1);
        const auto doc = log.documents.first();
        QCOMPARE(doc.images.size(), slices.size());
        QByteArray joined;
        for (int i = 0; i < slices.size(); ++i) {
            QCOMPARE(doc.images.at(i).width, width);
            QCOMPARE(doc.images.at(i).height, slices.at(i));
            joined += doc.images.at(i).bits;
        }
        QCOMPARE(joined, r.bits);   // every dot where it was
        Q_UNUSED(sliceRows);
    }

    void anInvalidRasterIsNotSent()
    {
        EscPos::Raster r;
        r.width = 10;   // not a multiple of 8
        r.height = 1;
        r.bits = QByteArray(2, '\0');
        QVERIFY(!r.isValid());
        QVERIFY(EscPos::raster(r).isEmpty());
    }

    void aDrawerPulseAloneIsNoDocument()
    {
        const auto log = Test::PrintLog::parse(EscPos::drawerOnly());
        QCOMPARE(log.pulses, 1);
        QCOMPARE(log.documents.size(), 0);
        QCOMPARE(log.partial, 0);
    }

    // Issue 36: the real-time pulse (DLE DC4 1 m t, pin 2, t in 1..8) a stopped printer obeys.
    void theRealTimePulseIsDleDc4()
    {
        const QByteArray pulse = EscPos::realTimeDrawerPulse();
        QCOMPARE(pulse.size(), 5);
        QCOMPARE(pulse.left(3), QByteArray("\x10\x14\x01", 3));
        QCOMPARE(int(pulse.at(3)), 0);
        QVERIFY(pulse.at(4) >= 1 && pulse.at(4) <= 8);
        const auto log = Test::PrintLog::parse(pulse);
        QCOMPARE(log.pulses, 1);
        QCOMPARE(log.unknownBytes, 0);
        QCOMPARE(log.documents.size(), 0);
        // Out of paper or cover open is no error: the pulse is obeyed; offline in error, not.
        QVERIFY(EscPos::parseStatus(QByteArray("\x1A\x32\x72", 3))->takesRealTimePulse());
    }
};

QTEST_MAIN(tst_EscPos)
#include "tst_escpos.moc"
