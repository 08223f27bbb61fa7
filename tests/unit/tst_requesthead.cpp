// The gateway guard's view of a request's framing (app/gateway/requesthead.h): RequestHead
// judges a head as RFC 9112 does, and ChunkedRequest finds where a chunked request ends,
// however its bytes are cut, without reading into the next pipelined request, and refuses
// trailer fields from their first byte (QtHttpServer 6.4 would run the request there and drop
// the connection).
#include "requesthead.h"

#include <QTest>

using namespace OncePay::Gateway;

namespace {
const QByteArray kHead = "POST /v1/payments HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n";
const QByteArray kChunks = "5;ext=1\r\nhello\r\n6\r\n world\r\n000;last\r\n\r\n";
const QByteArray kNext = "GET /livez HTTP/1.1\r\nHost: x\r\n\r\n";
} // namespace

class TestRequestHead final : public QObject
{
    Q_OBJECT

private slots:
    void judgesTheHead_data()
    {
        QTest::addColumn<QByteArray>("head");
        QTest::addColumn<int>("status");
        QTest::addColumn<bool>("chunked");
        QTest::addColumn<qint64>("length");
        QTest::addColumn<bool>("keepAlive");
        QTest::newRow("GET") << QByteArray("GET / HTTP/1.1\r\nHost: x\r\n\r\n") << 200 << false << qint64(-1) << true;
        QTest::newRow("HTTP/1.0") << QByteArray("GET / HTTP/1.0\r\n\r\n") << 200 << false << qint64(-1) << false;
        QTest::newRow("close") << QByteArray("GET / HTTP/1.1\r\nConnection: close\r\n\r\n") << 200 << false
                               << qint64(-1) << false;
        QTest::newRow("length") << QByteArray("POST / HTTP/1.1\r\nContent-Length: 12\r\n\r\n") << 200 << false
                                << qint64(12) << true;
        QTest::newRow("chunked") << kHead << 200 << true << qint64(-1) << true;
        QTest::newRow("two lengths") << QByteArray("POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n")
                                     << 400 << false << qint64(-1) << true;
        QTest::newRow("length and coding")
            << QByteArray("POST / HTTP/1.1\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n") << 400 << false
            << qint64(-1) << true;
        QTest::newRow("gzip") << QByteArray("POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n") << 501
                              << false << qint64(-1) << true;
        QTest::newRow("too long") << QByteArray("POST / HTTP/1.1\r\nContent-Length: 1025\r\n\r\n") << 413 << false
                                  << qint64(-1) << true;
        QTest::newRow("chunked, then more") << QByteArray("POST / HTTP/1.1\r\nTransfer-Encoding: chunked x\r\n\r\n")
                                            << 501 << false << qint64(-1) << true;
        QTest::newRow("chunked with a parameter")
            << QByteArray("POST / HTTP/1.1\r\nTransfer-Encoding: chunked;q=1\r\n\r\n") << 501 << false << qint64(-1)
            << true;
        QTest::newRow("chunked and obs-text") << QByteArray("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\xff\r\n\r\n")
                                              << 501 << false << qint64(-1) << true;
        QTest::newRow("chunked among empty elements")
            << QByteArray("POST / HTTP/1.1\r\nTransfer-Encoding: , Chunked ,\r\n\r\n") << 200 << true << qint64(-1)
            << true;
        QTest::newRow("folded") << QByteArray("GET / HTTP/1.1\r\nA: b\r\n c\r\n\r\n") << 400 << false << qint64(-1)
                                << true;
        QTest::newRow("space before colon") << QByteArray("GET / HTTP/1.1\r\nA : b\r\n\r\n") << 400 << false
                                            << qint64(-1) << true;
    }
    void judgesTheHead()
    {
        QFETCH(QByteArray, head);
        QFETCH(int, status);
        QFETCH(bool, chunked);
        QFETCH(qint64, length);
        QFETCH(bool, keepAlive);
        const RequestHead parsed = RequestHead::parse(head, 1024);
        QCOMPARE(parsed.httpStatus(), status);
        if (status != 200) {
            QVERIFY(!parsed.reason.isEmpty());
            return;
        }
        QCOMPARE(parsed.chunked, chunked);
        QCOMPARE(parsed.contentLength, length);
        QCOMPARE(parsed.keepAlive, keepAlive);
    }

    // Cut at every byte (two pieces) and fed one byte at a time: the end is the same, and the
    // pipelined request after it is not taken.
    void findsTheEndOfAChunkedRequest()
    {
        const QByteArray request = kHead + kChunks;
        const QByteArray wire = request + kNext;
        for (qsizetype cut = kHead.size(); cut <= wire.size(); ++cut) {
            ChunkedRequest chunked(1024);
            chunked.feed(wire.left(cut));
            const ChunkedRequest::State state = chunked.feed(wire.mid(cut));
            QVERIFY2(state == ChunkedRequest::State::Done, qPrintable(QStringLiteral("cut at %1").arg(cut)));
            QCOMPARE(chunked.requestBytes(), request.size());
        }
        ChunkedRequest bytewise(1024);
        QCOMPARE(bytewise.feed(kHead), ChunkedRequest::State::NeedMore);
        for (qsizetype i = 0; i < kChunks.size(); ++i) {
            const ChunkedRequest::State state = bytewise.feed(kChunks.mid(i, 1));
            QCOMPARE(state, i + 1 < kChunks.size() ? ChunkedRequest::State::NeedMore : ChunkedRequest::State::Done);
        }
        QCOMPARE(bytewise.requestBytes(), request.size());
    }

    // The moment the first byte of a trailer field is there, not when the trailer has ended:
    // that is when QtHttpServer 6.4 would already run the request.
    void refusesTrailersFromTheirFirstByte()
    {
        const QByteArray wire = kHead + "5\r\nhello\r\n0\r\nX-Trailer: t\r\n\r\n";
        const qsizetype first = wire.indexOf("X-Trailer");
        for (qsizetype cut = kHead.size(); cut <= wire.size(); ++cut) {
            ChunkedRequest chunked(1024);
            const ChunkedRequest::State state = chunked.feed(wire.left(cut));
            QCOMPARE(state, cut > first ? ChunkedRequest::State::Unsupported : ChunkedRequest::State::NeedMore);
        }
        ChunkedRequest bytewise(1024);
        bytewise.feed(kHead);
        for (qsizetype i = kHead.size(); i < wire.size() && bytewise.state() == ChunkedRequest::State::NeedMore; ++i)
            bytewise.feed(wire.mid(i, 1));
        QCOMPARE(bytewise.state(), ChunkedRequest::State::Unsupported);
        QVERIFY(!bytewise.reason().isEmpty());
    }

    void refusesBadChunks_data()
    {
        QTest::addColumn<QByteArray>("chunks");
        QTest::addColumn<ChunkedRequest::State>("state");
        QTest::newRow("bad size") << QByteArray("zz\r\nhello\r\n0\r\n\r\n") << ChunkedRequest::State::Malformed;
        QTest::newRow("data longer than its size") << QByteArray("2\r\nhello\r\n0\r\n\r\n")
                                                   << ChunkedRequest::State::Malformed;
        QTest::newRow("size overflows") << QByteArray("fffffffffffffffffffff\r\n") << ChunkedRequest::State::Malformed;
        QTest::newRow("over the limit in one chunk") << QByteArray("401\r\n") << ChunkedRequest::State::TooLarge;
        QByteArray many;
        for (int i = 0; i < 5; ++i)
            many += "100\r\n" + QByteArray(256, 'a') + "\r\n";
        QTest::newRow("over the limit in small chunks") << many << ChunkedRequest::State::TooLarge;
        QTest::newRow("CR and no LF after the last chunk") << QByteArray("5\r\nhello\r\n0\r\n\rX")
                                                          << ChunkedRequest::State::Malformed;
        QTest::newRow("LF alone after the last chunk") << QByteArray("5\r\nhello\r\n0\r\n\n")
                                                       << ChunkedRequest::State::Malformed;
        QTest::newRow("a trailer field") << QByteArray("5\r\nhello\r\n0\r\nA: b\r\n\r\n")
                                         << ChunkedRequest::State::Unsupported;
        // Looked at again on each read until it ends: bounded.
        QTest::newRow("last chunk's line over 4 KiB") << "0;a=" + QByteArray(4100, 'b') << ChunkedRequest::State::Malformed;
        QTest::newRow("4 KiB of zeros") << QByteArray(4100, '0') << ChunkedRequest::State::Malformed;
        QTest::newRow("incomplete") << QByteArray("5\r\nhel") << ChunkedRequest::State::NeedMore;
    }
    void refusesBadChunks()
    {
        QFETCH(QByteArray, chunks);
        QFETCH(ChunkedRequest::State, state);
        ChunkedRequest chunked(1024);
        QCOMPARE(chunked.feed(kHead + chunks), state);
        // The status the guard answers with: 400 for bad framing, 413 past the limit, 501 for
        // a trailer; 200 while the request may still end well.
        const int status = state == ChunkedRequest::State::Malformed ? 400
            : state == ChunkedRequest::State::TooLarge                ? 413
            : state == ChunkedRequest::State::Unsupported             ? 501
                                                                      : 200;
        QCOMPARE(chunked.httpStatus(), status);
        if (state != ChunkedRequest::State::NeedMore)
            QVERIFY(!chunked.reason().isEmpty());
        // Once refused, more bytes change nothing; an incomplete one ends with its last bytes.
        QCOMPARE(chunked.feed("lo\r\n0\r\n\r\n"),
                 state == ChunkedRequest::State::NeedMore ? ChunkedRequest::State::Done : state);
    }
};

QTEST_APPLESS_MAIN(TestRequestHead)
#include "tst_requesthead.moc"
