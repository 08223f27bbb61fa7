#include "http/httprequestparser.h"

#include <QUrl>

#include <boost/asio/buffer.hpp>
#include <boost/beast/core/buffers_range.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>

#include <cctype>
#include <cstring>
#include <functional>
#include <limits>

namespace OncePay::Http {

namespace http = boost::beast::http;
using boost::beast::error_code;
using boost::beast::string_view;

int HttpRefusal::status() const
{
    switch (kind) {
    case Kind::Malformed:
    case Kind::AmbiguousFraming:
    case Kind::BadHost:
        return 400;
    case Kind::UnsupportedCoding:
    case Kind::Trailer:
        return 501;
    case Kind::BodyTooLarge:
        return 413;
    case Kind::HeadTooLarge:
        return 431;
    case Kind::Timeout:
        return 408;
    }
    return 400;
}

QString HttpRefusal::slug() const
{
    switch (status()) {
    case 501:
        return QStringLiteral("not-implemented");
    case 413:
        return QStringLiteral("payload-too-large");
    case 431:
        return QStringLiteral("headers-too-large");
    case 408:
        return QStringLiteral("request-timeout");
    default:
        return QStringLiteral("malformed-request");
    }
}

QString HttpRefusal::title() const
{
    switch (status()) {
    case 501:
        return QStringLiteral("Not implemented");
    case 413:
        return QStringLiteral("Payload too large");
    case 431:
        return QStringLiteral("Request headers too large");
    case 408:
        return QStringLiteral("Request timeout");
    default:
        return QStringLiteral("Bad request");
    }
}

HttpRequest::Method HttpRequest::methodFrom(QByteArrayView name)
{
    // Methods are case-sensitive (RFC 9110 9.1): "get" is not GET.
    if (name == "GET")
        return Method::Get;
    if (name == "POST")
        return Method::Post;
    if (name == "PUT")
        return Method::Put;
    if (name == "HEAD")
        return Method::Head;
    if (name == "DELETE")
        return Method::Delete;
    if (name == "PATCH")
        return Method::Patch;
    if (name == "OPTIONS")
        return Method::Options;
    return Method::Other;
}

namespace {

// A Beast body that reads into a QByteArray: the router gets the body without a copy.
struct ByteArrayBody
{
    using value_type = QByteArray;
    static std::uint64_t size(const value_type &body) { return std::uint64_t(body.size()); }

    class reader
    {
    public:
        template <bool isRequest, class Fields>
        reader(http::header<isRequest, Fields> &, value_type &body)
            : m_body(body) {}
        void init(const boost::optional<std::uint64_t> &length, error_code &ec)
        {
            // Bounded by the body limit before Beast gets here (finish_header).
            if (length)
                m_body.reserve(qsizetype(*length));
            ec = {};
        }
        template <class ConstBufferSequence>
        std::size_t put(const ConstBufferSequence &buffers, error_code &ec)
        {
            std::size_t n = 0;
            for (const auto b : boost::beast::buffers_range_ref(buffers)) {
                m_body.append(static_cast<const char *>(b.data()), qsizetype(b.size()));
                n += b.size();
            }
            ec = {};
            return n;
        }
        void finish(error_code &ec) { ec = {}; }

    private:
        value_type &m_body;
    };
};

// Beast reports the last chunk only once the whole trailer section has arrived. Trailer fields
// are refused from their first byte instead (a client that sends a trailer that never ends is
// told at once, not at the body's time limit): where a chunk's line is due, the bytes are looked
// at for "last chunk, then not CRLF". The rest of the chunk grammar is Beast's.
enum class AfterLastChunk {
    Unknown,
    Trailer,
    Malformed,
    LineTooLong
};
// The longest last-chunk line looked at ("0" and its extensions): each read of a line that does
// not end is scanned again, so this bounds that work.
constexpr qsizetype kMaxLastChunkLine = 4096;

AfterLastChunk afterLastChunk(QByteArrayView rest, bool crlfFirst)
{
    if (crlfFirst) {
        if (!rest.startsWith("\r\n"))
            return AfterLastChunk::Unknown;   // the previous chunk's data has not ended right: Beast says so
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
        return AfterLastChunk::Unknown;   // its line has not ended (or ends badly: Beast says so)
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

// The elements of a list field (RFC 9110 5.6.1): split on commas, OWS (spaces and tabs only)
// trimmed, empty elements dropped.
QList<QByteArrayView> listElements(QByteArrayView value)
{
    QList<QByteArrayView> out;
    while (!value.isEmpty()) {
        const qsizetype comma = value.indexOf(',');
        QByteArrayView element = comma < 0 ? value : value.first(comma);
        value = comma < 0 ? QByteArrayView() : value.sliced(comma + 1);
        while (!element.isEmpty() && (element.front() == ' ' || element.front() == '\t'))
            element = element.sliced(1);
        while (!element.isEmpty() && (element.back() == ' ' || element.back() == '\t'))
            element.chop(1);
        if (!element.isEmpty())
            out.append(element);
    }
    return out;
}

QByteArrayView view(string_view s)
{
    return QByteArrayView(s.data(), qsizetype(s.size()));
}

// A chunk line (its size, extensions and line end), and a chunk's data, end in CRLF (RFC 9112
// 7.1). Beast 1.74 looks for CRLF only: chunks framed with LF alone would wait for one until the
// body's time limit (408). The first LF of the line is looked at here (within the bytes looked at
// for the last chunk): one without its CR is refused at once. Nothing in a chunk line, quoted
// extensions included, may hold an LF.
bool chunkLineEndsInBareLf(QByteArrayView rest, bool crlfFirst)
{
    if (crlfFirst) {
        if (rest.startsWith('\n'))
            return true;   // the previous chunk's data ends in LF alone
        if (!rest.startsWith("\r\n"))
            return false;   // the previous chunk's data has not ended right: Beast says so
        rest = rest.sliced(2);
    }
    const qsizetype lf = rest.first(qMin(rest.size(), kMaxLastChunkLine)).indexOf('\n');
    return lf == 0 || (lf > 0 && rest.at(lf - 1) != '\r');
}

// A Host field's value is uri-host [":" port] (RFC 9112 3.2, RFC 3986 3.2.2): an IP literal in
// brackets, or a reg-name (unreserved characters, percent-encoded octets, sub-delims), then
// digits after a colon. A value that is none of these ("a b", "a, b") is 400: a proxy and this
// gateway could disagree about which host it names. The comma, a sub-delim RFC 3986 allows, is
// refused too: no DNS name has one, and it is what two Host lines joined into one look like
// (RFC 9110 5.3). An empty value is allowed (RFC 9112 3.2: a target without an authority).
bool isValidHost(QByteArrayView host)
{
    auto isHex = [](char c) {
        return std::isxdigit(static_cast<unsigned char>(c)) != 0;
    };
    auto isUnreserved = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_' || c == '~';
    };
    qsizetype end = 0;
    if (host.startsWith('[')) {
        end = host.indexOf(']');
        if (end < 2)
            return false;
        const QByteArrayView literal = host.sliced(1, end - 1);
        ++end;
        if (literal.front() == 'v' || literal.front() == 'V') {
            // IPvFuture: "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
            const qsizetype dot = literal.indexOf('.');
            if (dot < 2 || dot + 1 == literal.size())
                return false;
            for (qsizetype i = 1; i < dot; ++i) {
                if (!isHex(literal.at(i)))
                    return false;
            }
            for (const char c : literal.sliced(dot + 1)) {
                if (!isUnreserved(c) && !std::strchr("!$&'()*+;=:", c))
                    return false;
            }
        } else {
            // IPv6address: hex digits, colons, and the dots of an embedded IPv4 address.
            if (!literal.contains(':'))
                return false;
            for (const char c : literal) {
                if (!isHex(c) && c != ':' && c != '.')
                    return false;
            }
        }
    } else {
        while (end < host.size() && host.at(end) != ':') {
            const char c = host.at(end);
            if (c == '%') {
                if (end + 2 >= host.size() || !isHex(host.at(end + 1)) || !isHex(host.at(end + 2)))
                    return false;
                end += 3;
                continue;
            }
            if (c == '\0' || (!isUnreserved(c) && !std::strchr("!$&'()*+;=", c)))
                return false;
            ++end;
        }
    }
    if (end == host.size())
        return true;
    if (host.at(end) != ':')
        return false;
    for (const char c : host.sliced(end + 1)) {
        if (!std::isdigit(static_cast<unsigned char>(c)))
            return false;
    }
    return true;
}

}   // namespace

// Beast's request parser and the chunk bookkeeping its callbacks do.
class HttpRequestParser::Beast final
{
public:
    http::request_parser<ByteArrayBody> parser;
    std::uint64_t chunkLimit = 0;
    std::uint64_t chunkTotal = 0;
    bool atChunkLine = true;   // between two chunks (or before the first): a chunk line is due
    bool afterData = false;   // a chunk's data came before: its CRLF is due first
    std::size_t headerFields = 0;
    // Held here: Beast keeps references to them.
    std::function<void(std::uint64_t, string_view, error_code &)> onChunkHeader;
    std::function<std::size_t(std::uint64_t, string_view, error_code &)> onChunkBody;

    Beast()
    {
        onChunkHeader = [this](std::uint64_t size, string_view, error_code &ec) {
            atChunkLine = size == 0;
            // Counted here, once a chunk's line is whole: the chunks' total against the limit
            // (Beast's own body_limit is not used for chunked bodies, see judgeHead()).
            if (size > chunkLimit - chunkTotal)
                ec = http::error::body_limit;
            else
                chunkTotal += size;
        };
        onChunkBody = [this](std::uint64_t remain, string_view body, error_code &) {
            parser.get().body().append(body.data(), qsizetype(body.size()));
            atChunkLine = body.size() == remain;   // this chunk's data ends here
            afterData = afterData || atChunkLine;
            return body.size();
        };
        parser.on_chunk_header(onChunkHeader);
        parser.on_chunk_body(onChunkBody);
    }
};

HttpRequestParser::HttpRequestParser(Limits limits)
    : m_limits(limits)
    , m_beast(std::make_unique<Beast>())
{
    http::request_parser<ByteArrayBody> &p = m_beast->parser;
    // One step per put(): the head is judged before any byte of the body is taken, and each
    // chunk line is looked at (afterLastChunk()) before Beast reads it.
    p.eager(false);
    p.header_limit(std::uint32_t(qBound<qint64>(1, m_limits.maxHeaderBytes, std::numeric_limits<std::uint32_t>::max())));
    // A Content-Length over it is refused by Beast as the head ends (413), before any body byte.
    p.body_limit(std::uint64_t(qMax<qint64>(0, m_limits.maxBodyBytes)));
    m_beast->chunkLimit = std::uint64_t(qMax<qint64>(0, m_limits.maxBodyBytes));
}

HttpRequestParser::~HttpRequestParser() = default;

void HttpRequestParser::refuse(HttpRefusal::Kind kind, const QString &detail)
{
    m_state = State::Refused;
    m_refusal = {kind, detail};
}

HttpRequestParser::State HttpRequestParser::feed(QByteArray &bytes)
{
    http::request_parser<ByteArrayBody> &p = m_beast->parser;
    while ((m_state == State::Head || m_state == State::Body) && !bytes.isEmpty()) {
        if (m_state == State::Head && !m_skippedEmptyLine && m_headBytes == 0 && bytes.startsWith('\r')) {
            // RFC 9112 2.2: one empty line before a request line is ignored (an old client's
            // CRLF after a body, before its next request). One only: a second is Beast's to refuse.
            if (bytes.size() < 2)
                break;   // its LF has not come yet
            if (bytes.at(1) == '\n') {
                m_skippedEmptyLine = true;
                m_consumed += 2;
                bytes.remove(0, 2);
                continue;
            }
        }
        if (m_state == State::Body && m_chunked && m_beast->atChunkLine) {
            if (chunkLineEndsInBareLf(bytes, m_beast->afterData)) {
                refuse(HttpRefusal::Kind::Malformed,
                    QStringLiteral("The chunked body is malformed: a chunk line ends in LF without CR."));
                return m_state;
            }
            switch (afterLastChunk(bytes, m_beast->afterData)) {
            case AfterLastChunk::Trailer:
                refuse(HttpRefusal::Kind::Trailer, QStringLiteral("Trailer fields after a chunked body are not supported."));
                return m_state;
            case AfterLastChunk::Malformed:
                refuse(HttpRefusal::Kind::Malformed,
                    QStringLiteral("The chunked body is malformed: no CRLF after the last chunk."));
                return m_state;
            case AfterLastChunk::LineTooLong:
                refuse(HttpRefusal::Kind::Malformed,
                    QStringLiteral("The chunked body is malformed: the last chunk's line is over %1 bytes.")
                        .arg(kMaxLastChunkLine));
                return m_state;
            case AfterLastChunk::Unknown:
                break;
            }
        }
        const bool headBefore = p.is_header_done();
        error_code ec;
        const std::size_t n = p.put(boost::asio::buffer(bytes.constData(), std::size_t(bytes.size())), ec);
        if (ec == http::error::body_limit) {
            refuse(HttpRefusal::Kind::BodyTooLarge,
                QStringLiteral("Request bodies are limited to %1 bytes.").arg(m_limits.maxBodyBytes));
            return m_state;
        }
        if (ec == http::error::header_limit) {
            refuse(HttpRefusal::Kind::HeadTooLarge,
                QStringLiteral("Request headers are limited to %1 bytes.").arg(m_limits.maxHeaderBytes));
            return m_state;
        }
        if (ec == http::error::bad_content_length || ec == http::error::bad_transfer_encoding) {
            refuse(HttpRefusal::Kind::AmbiguousFraming,
                QStringLiteral("The request's length is ambiguous: %1.").arg(QString::fromStdString(ec.message())));
            return m_state;
        }
        if (ec && ec != http::error::need_more) {
            refuse(HttpRefusal::Kind::Malformed, headBefore ? QStringLiteral("The chunked body is malformed: %1.").arg(QString::fromStdString(ec.message())) : QStringLiteral("The request head is malformed: %1.").arg(QString::fromStdString(ec.message())));
            return m_state;
        }
        if (!headBefore) {
            // Beast takes a head line by line as lines complete, so what it took in this step
            // is judged now: the head is never seen whole in one buffer.
            const QByteArrayView piece = QByteArrayView(bytes).first(qsizetype(n));
            // obs-fold (a field line continued on the next line) is obsolete; Beast 1.74 unfolds
            // it, a proxy in front may read it otherwise (RFC 9112 5.2 lets a server reject it;
            // white space before the first field, RFC 9112 2.2, likewise): refused.
            if ((m_lastHeadByte == '\n' && (piece.startsWith(' ') || piece.startsWith('\t')))
                || piece.indexOf("\n ") >= 0 || piece.indexOf("\n\t") >= 0) {
                refuse(HttpRefusal::Kind::Malformed, QStringLiteral("A header field is folded over several lines (obs-fold)."));
                return m_state;
            }
            if (!piece.isEmpty())
                m_lastHeadByte = piece.back();
            // Beast 1.74's header_limit bounds one buffer, not the head: a head sent line by line
            // is counted here, what Beast took and what waits for the rest of its line.
            m_headBytes += qint64(n);
            if (m_headBytes + (p.is_header_done() ? 0 : qint64(bytes.size()) - qint64(n)) > m_limits.maxHeaderBytes) {
                refuse(HttpRefusal::Kind::HeadTooLarge,
                    QStringLiteral("Request headers are limited to %1 bytes.").arg(m_limits.maxHeaderBytes));
                return m_state;
            }
            if (p.is_header_done()) {
                judgeHead();
                if (m_state == State::Refused)
                    return m_state;
                m_state = State::Body;
            }
        }
        m_consumed += qint64(n);
        bytes.remove(0, qsizetype(n));
        if (p.is_done()) {
            if (m_chunked && std::size_t(std::distance(p.get().begin(), p.get().end())) != m_beast->headerFields) {
                refuse(HttpRefusal::Kind::Trailer, QStringLiteral("Trailer fields after a chunked body are not supported."));
                return m_state;
            }
            m_state = State::Complete;
            break;
        }
        if (ec == http::error::need_more || n == 0)
            break;
    }
    return m_state;
}

void HttpRequestParser::judgeHead()
{
    http::request_parser<ByteArrayBody> &p = m_beast->parser;
    const auto &request = p.get();
    // RFC 9112 3.2: a server MUST answer 400 to an HTTP/1.1 request without exactly one Host
    // (an HTTP/1.0 one may omit it, but never send two). Beast takes HTTP/1.x only (another
    // major version is malformed); a later 1.x is read as 1.1 (RFC 9110 2.5).
    const auto hosts = request.count(http::field::host);
    if ((request.version() >= 11 && hosts != 1) || hosts > 1)
        return refuse(HttpRefusal::Kind::BadHost, hosts == 0 ? QStringLiteral("An HTTP/1.1 request must carry a Host field.") : QStringLiteral("The request carries %1 Host fields; exactly one is allowed.").arg(hosts));
    if (hosts == 1 && !isValidHost(view(request[http::field::host])))
        return refuse(HttpRefusal::Kind::BadHost, QStringLiteral("The Host field is not a host name or address with an optional port."));
    const bool hasLength = request.count(http::field::content_length) > 0;
    const bool hasCoding = request.count(http::field::transfer_encoding) > 0;
    // RFC 9112 6.1: a Transfer-Encoding in an HTTP/1.0 request means its framing is faulty (an
    // HTTP/1.0 recipient knows no chunks: a proxy of that version would read the body otherwise).
    // Refused, and the connection closed after the answer.
    if (hasCoding && request.version() < 11)
        return refuse(HttpRefusal::Kind::AmbiguousFraming,
            QStringLiteral("An HTTP/1.0 request must not carry Transfer-Encoding."));
    // Beast refuses a length with "chunked" itself; a length with another coding is ours to refuse.
    if (hasLength && hasCoding)
        return refuse(HttpRefusal::Kind::AmbiguousFraming,
            QStringLiteral("Content-Length and Transfer-Encoding must not both be sent."));
    if (hasCoding) {
        // Only "chunked", once: any other coding (gzip, chunked; identity), or anything after it
        // in the element ("chunked x", parameters, obs-text Beast's token list skips), is not
        // implemented.
        QList<QByteArrayView> codings;
        for (const auto &field : request) {
            if (field.name() == http::field::transfer_encoding)
                codings += listElements(view(field.value()));
        }
        if (codings.size() != 1 || codings.constFirst().compare("chunked", Qt::CaseInsensitive) != 0 || !p.chunked())
            return refuse(HttpRefusal::Kind::UnsupportedCoding,
                QStringLiteral("Only the chunked transfer coding is supported."));
        m_chunked = true;
        // Beast 1.74 lowers its own body limit before a chunk's line is parsed whole; the
        // chunks are counted in onChunkHeader instead. (For a Content-Length it is Beast's, set
        // in the constructor: none would refuse every length there.)
        p.body_limit(boost::none);
    }
    if (const auto length = p.content_length())
        m_contentLength = qint64(qMin<std::uint64_t>(*length, std::uint64_t(std::numeric_limits<qint64>::max())));
    m_keepAlive = p.keep_alive();
    for (const auto &field : request) {
        if (field.name() == http::field::expect && boost::beast::iequals(field.value(), "100-continue"))
            m_expectsContinue = !p.is_done() && (m_chunked || m_contentLength > 0);
    }
    m_beast->headerFields = std::size_t(std::distance(request.begin(), request.end()));
}

HttpRequest HttpRequestParser::takeRequest()
{
    HttpRequest out;
    if (m_state != State::Complete)
        return out;
    auto &request = m_beast->parser.get();
    out.methodName = view(request.method_string()).toByteArray();
    out.method = HttpRequest::methodFrom(out.methodName);
    out.target = view(request.target()).toByteArray();
    out.version = int(request.version());
    out.keepAlive = m_keepAlive;
    // origin-form ("/v1/payments?..."), as every client of ours sends; absolute-form is read
    // for its path too (RFC 9112 3.2.2).
    const QUrl url = out.target.startsWith('/') ? QUrl::fromEncoded("http://localhost" + out.target)
                                                : QUrl::fromEncoded(out.target);
    out.path = url.path();
    out.query = QUrlQuery(url);
    out.headers.reserve(qsizetype(std::distance(request.begin(), request.end())));
    for (const auto &field : request)
        out.headers.append({view(field.name_string()).toByteArray(), view(field.value()).toByteArray()});
    out.body = std::move(request.body());
    return out;
}

}   // namespace OncePay::Http
