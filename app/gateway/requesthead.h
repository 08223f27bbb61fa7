#pragma once

#include <QByteArray>
#include <QString>

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

} // namespace OncePay::Gateway
