#include "requesthead.h"

#include <QList>

#include <boost/beast/http/basic_parser.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/rfc7230.hpp>
#include <boost/asio/buffer.hpp>

#include <cctype>
#include <cstring>

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
        // Only "chunked", once: any other coding (gzip, chunked; identity), or anything after
        // it in the element ("chunked x", parameters, bytes Beast's token list skips), is not
        // implemented. The list is split on commas, with white space and empty elements
        // ignored (RFC 9110 5.6.1).
        QList<QByteArray> codings;
        for (const auto &field : request) {
            if (field.name() != http::field::transfer_encoding)
                continue;
            const QByteArray value(field.value().data(), qsizetype(field.value().size()));
            for (QByteArrayView element : value.split(',')) {
                while (!element.isEmpty() && (element.front() == ' ' || element.front() == '\t'))
                    element = element.sliced(1);   // OWS: spaces and tabs only
                while (!element.isEmpty() && (element.back() == ' ' || element.back() == '\t'))
                    element.chop(1);
                if (!element.isEmpty())
                    codings.append(element.toByteArray());
            }
        }
        if (codings.size() != 1 || codings.constFirst().compare("chunked", Qt::CaseInsensitive) != 0)
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

// A request parser that keeps nothing: only where the message ends matters.
class ChunkedRequest::Parser final : public http::basic_parser<true>
{
public:
    // Between two chunks (or before the first): the next bytes are a chunk's line.
    bool atChunkLine() const { return m_headerDone && m_atChunkLine; }
    // A chunk's data came before: its CRLF is due first.
    bool afterChunkData() const { return m_afterData; }
    std::uint64_t limit = 0;   // of the chunks' data, in total

private:
    using string_view = boost::beast::string_view;
    using error_code = boost::beast::error_code;
    void on_request_impl(http::verb, string_view, string_view, int, error_code &) override {}
    void on_response_impl(int, string_view, int, error_code &) override {}
    void on_field_impl(http::field, string_view, string_view, error_code &) override {}
    void on_header_impl(error_code &) override { m_headerDone = true; }
    void on_body_init_impl(const boost::optional<std::uint64_t> &, error_code &) override {}
    std::size_t on_body_impl(string_view body, error_code &) override { return body.size(); }
    void on_chunk_header_impl(std::uint64_t size, string_view, error_code &ec) override
    {
        m_atChunkLine = size == 0;
        // Counted here, once the chunk's line is whole: Beast 1.74's own body_limit is lowered
        // before the line's extensions are parsed, again on each retry of an incomplete line.
        if (size > limit - m_total)
            ec = http::error::body_limit;
        else
            m_total += size;
    }
    std::size_t on_chunk_body_impl(std::uint64_t remain, string_view body, error_code &) override
    {
        m_atChunkLine = body.size() == remain;   // this chunk's data ends here
        m_afterData = m_afterData || m_atChunkLine;
        return body.size();
    }
    void on_finish_impl(error_code &) override {}
    bool m_headerDone = false;
    bool m_atChunkLine = true;
    bool m_afterData = false;
    std::uint64_t m_total = 0;
};

namespace {
// Beast reports the last chunk only once the whole trailer section has arrived, but QtHttpServer
// 6.4 ends the request (and runs it) on the first two bytes after the last chunk's line, reading
// anything but CRLF there as the start of the next request. So where a chunk's line is due, the
// bytes are looked at first: the last chunk's line ended ("0", perhaps "000", with or without
// extensions), then something other than CRLF. The rest of the chunk grammar is Beast's.
enum class AfterLastChunk { Unknown, Trailer, Malformed, LineTooLong };
// The longest last-chunk line looked at ("0" and its extensions): each read of a line that does
// not end is scanned again, so this bounds that work.
constexpr qsizetype kMaxLastChunkLine = 4096;
// Unknown: not the last chunk, not all there yet, or a fault Beast itself reports.
AfterLastChunk afterLastChunk(QByteArrayView rest, bool crlfFirst)
{
    if (crlfFirst) {
        if (!rest.startsWith("\r\n"))
            return AfterLastChunk::Unknown;   // the previous chunk's data has not ended right
        rest = rest.sliced(2);
    }
    const qsizetype scan = qMin(rest.size(), kMaxLastChunkLine);
    qsizetype zeros = 0;
    while (zeros < scan && rest.at(zeros) == '0')
        ++zeros;
    if (zeros == kMaxLastChunkLine)
        return AfterLastChunk::LineTooLong;
    if (zeros == 0 || (zeros < rest.size() && std::isxdigit(static_cast<unsigned char>(rest.at(zeros)))))
        return AfterLastChunk::Unknown;   // not the last chunk
    qsizetype eol = zeros;
    while (eol < scan && rest.at(eol) != '\r' && rest.at(eol) != '\n')
        ++eol;
    if (eol == kMaxLastChunkLine)
        return AfterLastChunk::LineTooLong;
    if (eol + 2 > rest.size() || rest.at(eol) != '\r' || rest.at(eol + 1) != '\n')
        return AfterLastChunk::Unknown;   // its line has not ended (or ends badly)
    const QByteArrayView after = rest.sliced(eol + 2);
    if (!after.isEmpty() && after.at(0) != '\r') {
        // A field name starts with a token character (RFC 9110 5.6.2); anything else is noise.
        const char c = after.at(0);
        const bool token = std::isalnum(static_cast<unsigned char>(c)) || std::strchr("!#$%&'*+-.^_`|~", c);
        return c != '\0' && token ? AfterLastChunk::Trailer : AfterLastChunk::Malformed;
    }
    if (after.size() >= 2 && after.at(1) != '\n')
        return AfterLastChunk::Malformed;
    return AfterLastChunk::Unknown;
}
} // namespace

ChunkedRequest::ChunkedRequest(qint64 maxBodyBytes)
    : m_parser(std::make_unique<Parser>())
    , m_maxBodyBytes(maxBodyBytes)
{
    // One step per put(), so that each chunk's line is looked at before Beast reads it.
    m_parser->eager(false);
    // The head was judged by RequestHead::parse() already; a chunk line or trailer that never
    // ends is bounded by the guard's cap on a request's bytes.
    m_parser->header_limit(std::numeric_limits<std::uint32_t>::max());
    m_parser->limit = std::uint64_t(qMax<qint64>(0, maxBodyBytes));
    // None: Beast 1.74 lowers its own limit before a chunk's line has been parsed whole, again
    // on each retry (see on_chunk_header_impl()). For a chunked body, none means "no limit";
    // ChunkedRequest is only made for heads that RequestHead found chunked.
    m_parser->body_limit(boost::none);
}

ChunkedRequest::~ChunkedRequest() = default;

int ChunkedRequest::httpStatus() const
{
    switch (m_state) {
    case State::NeedMore:
    case State::Done: return 200;
    case State::Malformed: return 400;
    case State::TooLarge: return 413;
    case State::Unsupported: return 501;
    }
    return 400;
}

ChunkedRequest::State ChunkedRequest::feed(QByteArrayView bytes)
{
    if (m_state != State::NeedMore)
        return m_state;
    m_unparsed.append(bytes.data(), bytes.size());
    qsizetype used = 0;
    while (used < m_unparsed.size() && !m_parser->is_done()) {
        // A trailer (or noise) after the last chunk is judged before Beast waits for the end of
        // the trailer section: QtHttpServer would already be running the request.
        if (m_parser->atChunkLine()) {
            const AfterLastChunk after = afterLastChunk(QByteArrayView(m_unparsed).sliced(used),
                                                        m_parser->afterChunkData());
            if (after == AfterLastChunk::Trailer) {
                m_state = State::Unsupported;
                m_reason = QStringLiteral("Trailer fields after a chunked body are not supported.");
                return m_state;
            }
            if (after == AfterLastChunk::Malformed || after == AfterLastChunk::LineTooLong) {
                m_state = State::Malformed;
                m_reason = after == AfterLastChunk::Malformed
                    ? QStringLiteral("The chunked body is malformed: no CRLF after the last chunk.")
                    : QStringLiteral("The chunked body is malformed: the last chunk's line is over %1 bytes.")
                          .arg(kMaxLastChunkLine);
                return m_state;
            }
        }
        boost::system::error_code ec;
        const std::size_t n = m_parser->put(
            boost::asio::buffer(m_unparsed.constData() + used, std::size_t(m_unparsed.size() - used)), ec);
        used += qsizetype(n);
        if (!ec && m_parser->is_header_done() && !m_parser->chunked()) {
            // RequestHead found it chunked and Beast does not: never guess where it ends.
            m_state = State::Malformed;
            m_reason = QStringLiteral("The request's transfer coding is ambiguous.");
            return m_state;
        }
        if (ec == http::error::need_more)
            break;
        if (ec == http::error::body_limit) {
            m_state = State::TooLarge;
            m_reason = QStringLiteral("Request bodies are limited to %1 bytes.").arg(m_maxBodyBytes);
            return m_state;
        }
        if (ec) {
            m_state = State::Malformed;
            m_reason = QStringLiteral("The chunked body is malformed: %1.").arg(QString::fromStdString(ec.message()));
            return m_state;
        }
        if (n == 0)
            break;
    }
    m_consumed += used;
    m_unparsed.remove(0, used);
    if (m_parser->is_done()) {
        m_state = State::Done;
        m_unparsed.clear();   // the next request's bytes: not ours
    }
    return m_state;
}

} // namespace OncePay::Gateway
