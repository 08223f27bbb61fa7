#pragma once

#include "http/httprequest.h"

#include <QByteArray>
#include <QString>

#include <memory>

namespace OncePay::Http {

// Why a request was refused before it could execute, and what it is answered with. The
// connection that read it is closed after the answer: where one request's framing is in doubt,
// so is where the next one starts.
struct HttpRefusal
{
    enum class Kind {
        Malformed,   // 400: request line, field syntax, obs-fold, chunk framing
        AmbiguousFraming,   // 400: lengths that disagree, Content-Length with Transfer-Encoding,
            // Transfer-Encoding on HTTP/1.0
        BadHost,   // 400: an HTTP/1.1 request without exactly one Host, or one that names no host
        UnsupportedCoding,   // 501: a transfer coding other than exactly "chunked"
        Trailer,   // 501: trailer fields after the last chunk
        BodyTooLarge,   // 413
        HeadTooLarge,   // 431
        Timeout,   // 408: decided by the connection's clock, not by the parser
    };
    Kind kind = Kind::Malformed;
    QString detail;

    int status() const;
    QString slug() const;   // the problem type's slug
    QString title() const;
};

// Frames one request (RFC 9112) with Boost.Beast's request_parser, fed the connection's bytes as
// they arrive, and judges it by the gateway's rules (docs/architecture.md, "The HTTP layer"):
// one Content-Length (or a list of equal values) or "Transfer-Encoding: chunked" alone (never on
// HTTP/1.0); no obs-fold; exactly one Host on HTTP/1.1, naming a host; the head and body limits;
// no trailer fields; one empty line before the request line is skipped. The
// connection makes one per request; the bytes after the request's end are left to the next.
class HttpRequestParser final
{
public:
    struct Limits
    {
        qint64 maxHeaderBytes = 32 * 1024;
        qint64 maxBodyBytes = 64 * 1024;
    };
    enum class State {
        Head,
        Body,
        Complete,
        Refused
    };

    explicit HttpRequestParser(Limits limits);
    ~HttpRequestParser();
    HttpRequestParser(const HttpRequestParser &) = delete;
    HttpRequestParser &operator=(const HttpRequestParser &) = delete;

    // Parses from the front of `bytes` and removes what belongs to this request: on Complete,
    // what is left is the next pipelined request's; on Head or Body, an incomplete head or chunk
    // line may be left, to be given again with the bytes that follow it. Once Complete or
    // Refused, more bytes change nothing.
    State feed(QByteArray &bytes);
    State state() const { return m_state; }
    // Whether a byte of the request itself has been taken (what is left in `bytes` is not): the
    // one empty line allowed before a request line (RFC 9112 2.2) is not one.
    bool started() const { return m_headBytes > 0 || m_state != State::Head; }

    // Known once the head is accepted (state Body or Complete).
    bool chunked() const { return m_chunked; }
    qint64 contentLength() const { return m_contentLength; }   // -1: none announced
    bool keepAlive() const { return m_keepAlive; }
    // "Expect: 100-continue" with a body still to come.
    bool expectsContinue() const { return m_expectsContinue; }
    // Bytes of this request taken so far (head, body, chunk framing).
    qint64 consumed() const { return m_consumed; }

    // Once Complete, the request (once).
    HttpRequest takeRequest();
    const HttpRefusal &refusal() const { return m_refusal; }

private:
    class Beast;
    void refuse(HttpRefusal::Kind kind, const QString &detail);
    void judgeHead();

    Limits m_limits;
    std::unique_ptr<Beast> m_beast;
    State m_state = State::Head;
    HttpRefusal m_refusal;
    qint64 m_consumed = 0;
    qint64 m_headBytes = 0;   // of the head, taken by Beast so far
    char m_lastHeadByte = 0;
    qint64 m_contentLength = -1;
    bool m_chunked = false;
    bool m_keepAlive = true;
    bool m_expectsContinue = false;
    bool m_skippedEmptyLine = false;
};

}   // namespace OncePay::Http
