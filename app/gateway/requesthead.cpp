#include "requesthead.h"

#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/rfc7230.hpp>
#include <boost/asio/buffer.hpp>

namespace OncePay::Gateway {

namespace http = boost::beast::http;

int RequestHead::httpStatus() const
{
    switch (verdict) {
    case Verdict::Ok: return 200;
    case Verdict::Malformed: return 400;
    case Verdict::ConflictingFraming: return 400;
    case Verdict::UnsupportedCoding: return 501;
    case Verdict::TooLarge: return 413;
    }
    return 400;
}

RequestHead RequestHead::parse(const QByteArray &head, qint64 maxBodyBytes)
{
    RequestHead out;
    auto fail = [&out](Verdict verdict, const QString &reason) {
        out.verdict = verdict;
        out.reason = reason;
        return out;
    };
    // obs-fold (a field line continued on the next line) is obsolete; RFC 9112 5.2 lets a
    // server reject it, and a proxy in front may read it otherwise: rejected.
    if (head.contains("\n ") || head.contains("\n\t"))
        return fail(Verdict::Malformed, QStringLiteral("A header field is folded over several lines (obs-fold)."));

    http::request_parser<http::empty_body> parser;
    parser.eager(false);                       // the head only: the body is QHttpServer's
    parser.header_limit(std::uint32_t(qMin<qsizetype>(head.size() + 1, 1 << 20)));
    // Judged below, with the gateway's own limit. (Not boost::none: 1.74 compares the length
    // against the empty optional and refuses every body.)
    parser.body_limit(std::numeric_limits<std::uint64_t>::max());
    boost::system::error_code ec;
    parser.put(boost::asio::buffer(head.constData(), std::size_t(head.size())), ec);
    if (ec == http::error::bad_content_length || ec == http::error::bad_transfer_encoding)
        return fail(Verdict::ConflictingFraming,
                    QStringLiteral("The request's length is ambiguous: %1.").arg(QString::fromStdString(ec.message())));
    if (ec && ec != http::error::need_more)
        return fail(Verdict::Malformed, QStringLiteral("The request head is malformed: %1.")
                                            .arg(QString::fromStdString(ec.message())));
    if (!parser.is_header_done())
        return fail(Verdict::Malformed, QStringLiteral("The request head is incomplete."));

    const auto &request = parser.get();
    const bool hasLength = request.count(http::field::content_length) > 0;
    const bool hasCoding = request.count(http::field::transfer_encoding) > 0;
    if (hasLength && hasCoding)
        return fail(Verdict::ConflictingFraming,
                    QStringLiteral("Content-Length and Transfer-Encoding must not both be sent."));
    if (hasCoding) {
        // Only "chunked", once: any other coding (gzip, chunked; identity) is not implemented.
        int codings = 0;
        bool onlyChunked = true;
        for (const auto &field : request) {
            if (field.name() != http::field::transfer_encoding)
                continue;
            for (const auto &coding : http::token_list{field.value()}) {
                ++codings;
                onlyChunked = onlyChunked && boost::beast::iequals(coding, "chunked");
            }
        }
        if (codings != 1 || !onlyChunked)
            return fail(Verdict::UnsupportedCoding,
                        QStringLiteral("Only the chunked transfer coding is supported."));
        out.chunked = true;
    }
    if (const auto length = parser.content_length()) {
        out.contentLength = qint64(qMin<std::uint64_t>(*length, std::uint64_t(std::numeric_limits<qint64>::max())));
        if (out.contentLength > maxBodyBytes)
            return fail(Verdict::TooLarge, QStringLiteral("Request bodies are limited to %1 bytes.").arg(maxBodyBytes));
    }
    out.keepAlive = request.keep_alive();
    for (const auto &field : request) {
        if (field.name() == http::field::expect && boost::beast::iequals(field.value(), "100-continue"))
            out.expectsContinue = out.chunked || out.contentLength > 0;
    }
    return out;
}

} // namespace OncePay::Gateway
