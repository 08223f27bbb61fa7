#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <memory>

namespace OncePay::Gateway {

// What the gateway's guard needs to know about one request's head (request line and header
// fields, through the blank line), as RFC 9112 reads it. Parsed by Boost.Beast's HTTP/1 parser
// (docs/architecture.md says why), then judged by the gateway's rules:
// - a malformed head (request line, field syntax, obs-fold): 400, close;
// - Content-Length fields that disagree, or Content-Length with Transfer-Encoding (RFC 9112
//   6.3: a smuggling vector): 400, close;
// - a transfer coding other than exactly "chunked": 501, close;
// - an announced body over the limit: 413, close.
struct RequestHead
{
    enum class Verdict { Ok, Malformed, ConflictingFraming, UnsupportedCoding, TooLarge };
    Verdict verdict = Verdict::Ok;
    QString reason;                 // for the problem's detail, when not Ok
    bool keepAlive = true;          // false: "Connection: close", or HTTP/1.0 without keep-alive
    bool expectsContinue = false;   // "Expect: 100-continue" with a body to come
    qint64 contentLength = -1;      // -1: none announced
    bool chunked = false;

    int httpStatus() const;         // 200 for Ok, else the status to answer with

    static RequestHead parse(const QByteArray &head, qint64 maxBodyBytes);
};

// Where a chunked request ends (RFC 9112 7.1), found by the same Boost.Beast parser: the guard
// must know when a request is whole to hold reading while it is answered. Fed the request's
// bytes from its first (the head) in pieces as they arrive; the body is not kept.
class ChunkedRequest
{
public:
    // Unsupported: trailer fields after the last chunk (QtHttpServer 6.4 reads them as the
    // start of a next request and drops the connection without the answer: refused up front).
    enum class State { NeedMore, Done, Malformed, TooLarge, Unsupported };

    explicit ChunkedRequest(qint64 maxBodyBytes);
    ~ChunkedRequest();
    ChunkedRequest(const ChunkedRequest &) = delete;
    ChunkedRequest &operator=(const ChunkedRequest &) = delete;

    State feed(QByteArrayView bytes);
    State state() const { return m_state; }
    int httpStatus() const;   // 200 while not refused, else the status to answer with
    // Once Done: the request's length on the wire, head, chunks and trailer included (what
    // follows is the next pipelined request).
    qint64 requestBytes() const { return m_consumed; }
    QString reason() const { return m_reason; }

private:
    class Parser;
    std::unique_ptr<Parser> m_parser;
    QByteArray m_unparsed;   // an incomplete chunk line or head, kept until the rest arrives
    qint64 m_consumed = 0;
    State m_state = State::NeedMore;
    QString m_reason;
    qint64 m_maxBodyBytes = 0;
};

} // namespace OncePay::Gateway
