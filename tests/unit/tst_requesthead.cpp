// The gateway's one HTTP parser (app/http/httprequestparser.h): HttpRequestParser judges a
// head as RFC 9112 and API.md's "HTTP/1.1" section do, frames the body (one Content-Length or a
// list of equal ones, or chunked alone) however its bytes are cut, never reads into the next
// pipelined request, and refuses trailer fields from their first byte.
#include "http/httprequestparser.h"

#include <QTest>

using namespace OncePay::Http;

namespace {
const QByteArray kHead = "POST /v1/payments HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n";
const QByteArray kChunks = "5;ext=1\r\nhello\r\n6\r\n world\r\n000;last\r\n\r\n";
const QByteArray kNext = "GET /livez HTTP/1.1\r\nHost: x\r\n\r\n";
constexpr HttpRequestParser::Limits kLimits{32 * 1024, 1024};

// The status a parser's state stands for: 200 while the request may still end well (or has).
int statusOf(const HttpRequestParser &parser)
{
    return parser.state() == HttpRequestParser::State::Refused ? parser.refusal().status() : 200;
}
}   // namespace

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
        QTest::newRow("close") << QByteArray("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n") << 200 << false
                               << qint64(-1) << false;
        QTest::newRow("length") << QByteArray("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 12\r\n\r\n") << 200 << false
                                << qint64(12) << true;
        // RFC 9110 8.6: a list of identical values is that one value.
        QTest::newRow("a list of equal lengths")
            << QByteArray("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 12, 12\r\n\r\n") << 200 << false << qint64(12)
            << true;
        QTest::newRow("a list of different lengths")
            << QByteArray("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 12, 13\r\n\r\n") << 400 << false << qint64(-1)
            << true;
        QTest::newRow("chunked") << kHead << 200 << true << qint64(-1) << true;
        QTest::newRow("two lengths")
            << QByteArray("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n") << 400 << false
            << qint64(-1) << true;
        QTest::newRow("length and coding")
            << QByteArray("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n") << 400
            << false << qint64(-1) << true;
        QTest::newRow("length and gzip")
            << QByteArray("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\nContent-Length: 1\r\n\r\n") << 400
            << false << qint64(-1) << true;
        QTest::newRow("gzip") << QByteArray("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n")
                              << 501 << false << qint64(-1) << true;
        QTest::newRow("gzip alone") << QByteArray("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n") << 501
                                    << false << qint64(-1) << true;
        QTest::newRow("too long") << QByteArray("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1025\r\n\r\n") << 413
                                  << false << qint64(-1) << true;
        QTest::newRow("chunked, then more")
            << QByteArray("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked x\r\n\r\n") << 501 << false
            << qint64(-1) << true;
        QTest::newRow("chunked with a parameter")
            << QByteArray("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked;q=1\r\n\r\n") << 501 << false
            << qint64(-1) << true;
        QTest::newRow("chunked and obs-text")
            << QByteArray("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\xff\r\n\r\n") << 501 << false
            << qint64(-1) << true;
        QTest::newRow("chunked among empty elements")
            << QByteArray("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: , Chunked ,\r\n\r\n") << 200 << true
            << qint64(-1) << true;
        QTest::newRow("folded") << QByteArray("GET / HTTP/1.1\r\nHost: x\r\nA: b\r\n c\r\n\r\n") << 400 << false
                                << qint64(-1) << true;
        QTest::newRow("folded with a tab") << QByteArray("GET / HTTP/1.1\r\nHost: x\r\nA: b\r\n\tc\r\n\r\n") << 400
                                           << false << qint64(-1) << true;
        QTest::newRow("space before colon") << QByteArray("GET / HTTP/1.1\r\nHost: x\r\nA : b\r\n\r\n") << 400 << false
                                            << qint64(-1) << true;
        // RFC 9112 3.2: exactly one Host on HTTP/1.1; HTTP/1.0 may omit it.
        QTest::newRow("HTTP/1.1 without Host") << QByteArray("GET / HTTP/1.1\r\n\r\n") << 400 << false << qint64(-1)
                                               << true;
        QTest::newRow("two Hosts") << QByteArray("GET / HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n") << 400 << false
                                   << qint64(-1) << true;
        QTest::newRow("HTTP/1.0 with two Hosts") << QByteArray("GET / HTTP/1.0\r\nHost: x\r\nHost: x\r\n\r\n") << 400
                                                 << false << qint64(-1) << true;
        QTest::newRow("HTTP/1.0 with a Host") << QByteArray("GET / HTTP/1.0\r\nHost: x\r\n\r\n") << 200 << false
                                              << qint64(-1) << false;
        QTest::newRow("HTTP/2.0") << QByteArray("GET / HTTP/2.0\r\nHost: x\r\n\r\n") << 400 << false << qint64(-1)
                                  << true;
        // RFC 9112 3.2 and RFC 3986 3.2.2: uri-host [":" port], or an empty value.
        for (const char *host : {"a b", "a, b", "a,b", "a/b", "a@b", "a:b", "a:80:80", "[::1", "[]:80", "[x::1]", "%4", "[v1]"})
            QTest::addRow("Host \"%s\"", host) << "GET / HTTP/1.1\r\nHost: " + QByteArray(host) + "\r\n\r\n"
                                               << 400 << false
                                               << qint64(-1) << true;
        for (const char *host : {"", "x:8080", "127.0.0.1:80", "[::1]:8080", "[::ffff:127.0.0.1]", "[v1.x:y]", "a-b.c_d~e",
                 "%41b", "a:", "!$&'()*+;="})
            QTest::addRow("Host \"%s\"", host) << "GET / HTTP/1.1\r\nHost: " + QByteArray(host) + "\r\n\r\n"
                                               << 200 << false
                                               << qint64(-1) << true;
        QTest::newRow("HTTP/1.0 with a bad Host") << QByteArray("GET / HTTP/1.0\r\nHost: a b\r\n\r\n") << 400 << false
                                                  << qint64(-1) << false;
        // RFC 9112 6.1: Transfer-Encoding in an HTTP/1.0 request is faulty framing.
        QTest::newRow("HTTP/1.0 chunked")
            << QByteArray("POST / HTTP/1.0\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n") << 400
            << false << qint64(-1) << true;
        QTest::newRow("HTTP/1.0 gzip") << QByteArray("POST / HTTP/1.0\r\nTransfer-Encoding: gzip\r\n\r\n") << 400
                                       << false << qint64(-1) << false;
        QTest::newRow("head over the limit")
            << "GET / HTTP/1.1\r\nHost: x\r\nX-Pad: " + QByteArray(40 * 1024, 'p') + "\r\n\r\n"
            << 431 << false
            << qint64(-1) << true;
    }
    void judgesTheHead()
    {
        QFETCH(QByteArray, head);
        QFETCH(int, status);
        QFETCH(bool, chunked);
        QFETCH(qint64, length);
        QFETCH(bool, keepAlive);
        HttpRequestParser parser(kLimits);
        QByteArray bytes = head;
        parser.feed(bytes);
        QCOMPARE(statusOf(parser), status);
        if (status != 200) {
            QVERIFY(!parser.refusal().detail.isEmpty());
            return;
        }
        QVERIFY(parser.state() != HttpRequestParser::State::Head);
        QCOMPARE(parser.chunked(), chunked);
        QCOMPARE(parser.contentLength(), length);
        QCOMPARE(parser.keepAlive(), keepAlive);
    }

    // Cut at every byte (two pieces) and fed one byte at a time: the end is the same, and the
    // pipelined request after it is not taken.
    void findsTheEndOfAChunkedRequest()
    {
        const QByteArray request = kHead + kChunks;
        const QByteArray wire = request + kNext;
        for (qsizetype cut = 0; cut <= wire.size(); ++cut) {
            HttpRequestParser parser(kLimits);
            QByteArray bytes = wire.left(cut);
            parser.feed(bytes);
            bytes += wire.mid(cut);
            const HttpRequestParser::State state = parser.feed(bytes);
            QVERIFY2(state == HttpRequestParser::State::Complete, qPrintable(QStringLiteral("cut at %1").arg(cut)));
            QCOMPARE(parser.consumed(), request.size());
            QCOMPARE(bytes, kNext);
            QCOMPARE(parser.takeRequest().body, QByteArray("hello world"));
        }
        HttpRequestParser bytewise(kLimits);
        QByteArray bytes = kHead;
        QCOMPARE(bytewise.feed(bytes), HttpRequestParser::State::Body);
        for (qsizetype i = 0; i < kChunks.size(); ++i) {
            bytes += kChunks.mid(i, 1);
            const HttpRequestParser::State state = bytewise.feed(bytes);
            QCOMPARE(state, i + 1 < kChunks.size() ? HttpRequestParser::State::Body : HttpRequestParser::State::Complete);
        }
        QCOMPARE(bytewise.consumed(), request.size());
        QVERIFY(bytes.isEmpty());
    }

    // "Content-Length: N, N" frames N bytes: a body that is itself a request stays a body.
    void aListOfLengthsFramesOneBody()
    {
        const QByteArray inner = "POST /v1/payments HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}";
        const QByteArray n = QByteArray::number(inner.size());
        const QByteArray outer = "POST /v1/payments HTTP/1.1\r\nHost: x\r\nContent-Length: " + n + ", " + n + "\r\n\r\n";
        HttpRequestParser parser(kLimits);
        QByteArray bytes = outer + inner + kNext;
        QCOMPARE(parser.feed(bytes), HttpRequestParser::State::Complete);
        QCOMPARE(parser.contentLength(), inner.size());
        const HttpRequest request = parser.takeRequest();
        QCOMPARE(request.body, inner);
        QCOMPARE(request.method, HttpRequest::Method::Post);
        QCOMPARE(request.path, QStringLiteral("/v1/payments"));
        QCOMPARE(bytes, kNext);
    }

    // Pipelined requests, one parser each: each stops at its own end.
    void pipelinedRequestsAreFramedOneByOne()
    {
        const QByteArray first = "POST /a?k=v%20w HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc";
        QByteArray bytes = first + kHead + kChunks + kNext;
        HttpRequestParser one(kLimits);
        QCOMPARE(one.feed(bytes), HttpRequestParser::State::Complete);
        const HttpRequest a = one.takeRequest();
        QCOMPARE(a.body, QByteArray("abc"));
        QCOMPARE(a.path, QStringLiteral("/a"));
        QCOMPARE(a.query.queryItemValue(QStringLiteral("k"), QUrl::FullyDecoded), QStringLiteral("v w"));
        HttpRequestParser two(kLimits);
        QCOMPARE(two.feed(bytes), HttpRequestParser::State::Complete);
        QCOMPARE(two.takeRequest().body, QByteArray("hello world"));
        HttpRequestParser three(kLimits);
        QCOMPARE(three.feed(bytes), HttpRequestParser::State::Complete);
        QCOMPARE(three.takeRequest().method, HttpRequest::Method::Get);
        QVERIFY(bytes.isEmpty());
    }

    // Beast takes a head line by line as its lines complete: obs-fold is found wherever the
    // head is cut, and a head sent a line at a time is held to the same size limit.
    void aHeadIsJudgedHoweverItIsCut()
    {
        const QByteArray folded = "GET / HTTP/1.1\r\nA: b\r\n c\r\nHost: x\r\nContent-Length: 1, 1\r\n\r\n";
        for (qsizetype cut = 0; cut <= folded.size(); ++cut) {
            HttpRequestParser parser(kLimits);
            QByteArray bytes = folded.left(cut);
            parser.feed(bytes);
            bytes += folded.mid(cut);
            QCOMPARE(parser.feed(bytes), HttpRequestParser::State::Refused);
            QCOMPARE(parser.refusal().status(), 400);
        }
        HttpRequestParser lineByLine(kLimits);
        QByteArray bytes = "GET / HTTP/1.1\r\nHost: x\r\n";
        int lines = 0;
        while (lineByLine.feed(bytes) == HttpRequestParser::State::Head && lines < 10'000) {
            bytes += "X-Line: " + QByteArray(100, 'a') + "\r\n";
            ++lines;
        }
        QCOMPARE(lineByLine.state(), HttpRequestParser::State::Refused);
        QCOMPARE(lineByLine.refusal().status(), 431);
        QVERIFY2(lines * 110 <= 32 * 1024 + 220, qPrintable(QString::number(lines)));
    }

    // RFC 9112 2.2: one empty line before the request line is skipped, however it is cut; it
    // does not count as the request's start. A second one is malformed.
    void skipsOneEmptyLineBeforeTheRequest()
    {
        const QByteArray wire = "\r\n" + kNext;
        for (qsizetype cut = 0; cut <= wire.size(); ++cut) {
            HttpRequestParser parser(kLimits);
            QByteArray bytes = wire.left(cut);
            parser.feed(bytes);
            if (cut <= 2)
                QVERIFY(!parser.started());
            bytes += wire.mid(cut);
            QVERIFY2(parser.feed(bytes) == HttpRequestParser::State::Complete, qPrintable(QString::number(cut)));
            QVERIFY(parser.started());
            QCOMPARE(parser.takeRequest().path, QStringLiteral("/livez"));
            QVERIFY(bytes.isEmpty());
        }
        HttpRequestParser twice(kLimits);
        QByteArray bytes = "\r\n\r\n" + kNext;
        QCOMPARE(twice.feed(bytes), HttpRequestParser::State::Refused);
        QCOMPARE(twice.refusal().status(), 400);
        HttpRequestParser bareLf(kLimits);
        bytes = "\r\r\n" + kNext;
        QCOMPARE(bareLf.feed(bytes), HttpRequestParser::State::Refused);
    }

    void expectContinueIsSeen()
    {
        HttpRequestParser parser(kLimits);
        QByteArray bytes = "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n";
        QCOMPARE(parser.feed(bytes), HttpRequestParser::State::Body);
        QVERIFY(parser.expectsContinue());
        bytes += "{}";
        QCOMPARE(parser.feed(bytes), HttpRequestParser::State::Complete);
    }

    // The moment the first byte of a trailer field is there, not when the trailer has ended.
    void refusesTrailersFromTheirFirstByte()
    {
        const QByteArray wire = kHead + "5\r\nhello\r\n0\r\nX-Trailer: t\r\n\r\n";
        const qsizetype first = wire.indexOf("X-Trailer");
        for (qsizetype cut = kHead.size(); cut <= wire.size(); ++cut) {
            HttpRequestParser parser(kLimits);
            QByteArray bytes = wire.left(cut);
            const HttpRequestParser::State state = parser.feed(bytes);
            QCOMPARE(state, cut > first ? HttpRequestParser::State::Refused : HttpRequestParser::State::Body);
            if (state == HttpRequestParser::State::Refused)
                QCOMPARE(parser.refusal().status(), 501);
        }
        HttpRequestParser bytewise(kLimits);
        QByteArray bytes = kHead;
        bytewise.feed(bytes);
        for (qsizetype i = kHead.size(); i < wire.size() && bytewise.state() == HttpRequestParser::State::Body; ++i) {
            bytes += wire.mid(i, 1);
            bytewise.feed(bytes);
        }
        QCOMPARE(bytewise.state(), HttpRequestParser::State::Refused);
        QCOMPARE(bytewise.refusal().kind, HttpRefusal::Kind::Trailer);
        QVERIFY(!bytewise.refusal().detail.isEmpty());
    }

    void refusesBadChunks_data()
    {
        QTest::addColumn<QByteArray>("chunks");
        QTest::addColumn<int>("status");   // 200: still reading
        QTest::newRow("bad size") << QByteArray("zz\r\nhello\r\n0\r\n\r\n") << 400;
        QTest::newRow("data longer than its size") << QByteArray("2\r\nhello\r\n0\r\n\r\n") << 400;
        QTest::newRow("size overflows") << QByteArray("fffffffffffffffffffff\r\n") << 400;
        QTest::newRow("over the limit in one chunk") << QByteArray("401\r\n") << 413;
        QByteArray many;
        for (int i = 0; i < 5; ++i)
            many += "100\r\n" + QByteArray(256, 'a') + "\r\n";
        QTest::newRow("over the limit in small chunks") << many << 413;
        QTest::newRow("CR and no LF after the last chunk") << QByteArray("5\r\nhello\r\n0\r\n\rX") << 400;
        QTest::newRow("LF alone after the last chunk") << QByteArray("5\r\nhello\r\n0\r\n\n") << 400;
        // A chunk line ends in CRLF: one ending in a bare LF is refused at once, not waited on.
        // (A client that ends its lines with LF alone: Beast, looking for CRLF, would wait for one.)
        QTest::newRow("LF alone after a size") << QByteArray("5\nhello\n0\n\n") << 400;
        QTest::newRow("LF alone after an extension") << QByteArray("5;a=b\nhello\n0\n\n") << 400;
        QTest::newRow("LF alone after a later size") << QByteArray("5\r\nhello\r\n6\n world\n0\n\n") << 400;
        QTest::newRow("LF alone after the last chunk's size") << QByteArray("5\r\nhello\r\n0\n\n") << 400;
        QTest::newRow("LF alone after data") << QByteArray("5\r\nhello\n0\n\n") << 400;
        QTest::newRow("a trailer field") << QByteArray("5\r\nhello\r\n0\r\nA: b\r\n\r\n") << 501;
        // Looked at again on each read until it ends: bounded.
        QTest::newRow("last chunk's line over 4 KiB") << "0;a=" + QByteArray(4100, 'b') << 400;
        QTest::newRow("4 KiB of zeros") << QByteArray(4100, '0') << 400;
        QTest::newRow("incomplete") << QByteArray("5\r\nhel") << 200;
    }
    void refusesBadChunks()
    {
        QFETCH(QByteArray, chunks);
        QFETCH(int, status);
        HttpRequestParser parser(kLimits);
        QByteArray bytes = kHead + chunks;
        parser.feed(bytes);
        // 400 for bad framing, 413 past the limit, 501 for a trailer; 200 while the request may
        // still end well.
        QCOMPARE(statusOf(parser), status);
        QCOMPARE(parser.state(), status == 200 ? HttpRequestParser::State::Body : HttpRequestParser::State::Refused);
        if (status != 200)
            QVERIFY(!parser.refusal().detail.isEmpty());
        // Once refused, more bytes change nothing; an incomplete one ends with its last bytes.
        bytes += "lo\r\n0\r\n\r\n";
        QCOMPARE(parser.feed(bytes),
            status == 200 ? HttpRequestParser::State::Complete : HttpRequestParser::State::Refused);
    }
};

QTEST_APPLESS_MAIN(TestRequestHead)
#include "tst_requesthead.moc"
