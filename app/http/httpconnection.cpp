#include "http/httpconnection.h"

#include "http/httpanswer.h"
#include "http/httplog.h"
#include "http/httptransport.h"

#include <QSocketNotifier>

#include <fcntl.h>
#include <unistd.h>

namespace OncePay::Http {

namespace {
// Bytes read ahead of the parser at most: past it, reading waits.
constexpr qsizetype kReadAhead = 128 * 1024;
constexpr qsizetype kReadChunk = 16 * 1024;
const QByteArray kContinue = QByteArrayLiteral("HTTP/1.1 100 Continue\r\n\r\n");
}   // namespace

HttpResponder::HttpResponder(HttpConnection *connection, quint64 sequence)
    : m_connection(connection)
    , m_sequence(sequence)
{
}

HttpResponder HttpResponder::toSink(Sink sink, std::function<void()> aborted)
{
    HttpResponder r;
    r.m_sink = std::make_shared<const Sink>(std::move(sink));
    if (aborted)
        r.m_aborted = std::make_shared<const std::function<void()>>(std::move(aborted));
    return r;
}

void HttpResponder::respond(const HttpAnswer &answer) const
{
    if (m_connection)
        m_connection->answer(m_sequence, answer);
    else if (m_sink)
        (*m_sink)(answer);
}

void HttpResponder::abort() const
{
    if (m_connection)
        m_connection->closeNow();
    else if (m_aborted)
        (*m_aborted)();
}

HttpConnection *HttpResponder::connection() const
{
    return m_connection && !m_connection->isClosed() ? m_connection.data() : nullptr;
}

HttpConnection::HttpConnection(int descriptor, std::unique_ptr<HttpTransport> transport, const HttpLimits &limits,
    const QHostAddress &peer, Handler handler, QObject *parent)
    : QObject(parent)
    , m_fd(descriptor)
    , m_transport(std::move(transport))
    , m_limits(limits)
    , m_peer(peer)
    , m_handler(std::move(handler))
{
    const int flags = ::fcntl(m_fd, F_GETFL);
    ::fcntl(m_fd, F_SETFL, flags | O_NONBLOCK);
    m_readNotifier = new QSocketNotifier(m_fd, QSocketNotifier::Read, this);
    m_writeNotifier = new QSocketNotifier(m_fd, QSocketNotifier::Write, this);
    m_readNotifier->setEnabled(false);
    m_writeNotifier->setEnabled(false);
    connect(m_readNotifier, &QSocketNotifier::activated, this, &HttpConnection::onReadable);
    connect(m_writeNotifier, &QSocketNotifier::activated, this, &HttpConnection::onWritable);
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &HttpConnection::deadlinePassed);
}

HttpConnection::~HttpConnection()
{
    if (m_phase != Phase::Closed) {
        delete m_readNotifier;
        delete m_writeNotifier;
        m_transport.reset();
        ::close(m_fd);
    }
}

void HttpConnection::start()
{
    m_phase = Phase::Handshake;
    handshake();
}

void HttpConnection::refuse(const HttpAnswer &answer)
{
    m_inputEnded = true;
    m_queue.push_back({++m_lastSequence, true, true, false, false, answer.toWire(HttpAnswer::Connection::Close)});
    if (m_phase == Phase::Open) {
        moveReadyAnswers();
        flushOutput();
        settle();
    }
}

void HttpConnection::handshake()
{
    m_transportWantsRead = m_transportWantsWrite = false;
    switch (m_transport->handshake()) {
    case HttpTransport::Io::Done:
        m_phase = Phase::Open;
        moveReadyAnswers();   // a refusal made before the handshake ended
        flushOutput();
        if (m_phase == Phase::Open)
            readInput();
        return;
    case HttpTransport::Io::WantRead:
        m_transportWantsRead = true;
        return settle();
    case HttpTransport::Io::WantWrite:
        m_transportWantsWrite = true;
        return settle();
    case HttpTransport::Io::EndOfInput:
    case HttpTransport::Io::Failed:
        qCInfo(lcHttpLayer) << "TLS handshake with" << m_peer.toString() << "failed:" << m_transport->lastError();
        return closeNow();
    }
}

void HttpConnection::onReadable()
{
    switch (m_phase) {
    case Phase::Handshake:
        return handshake();
    case Phase::Open:
        if (m_writeBlocked && m_transportWantsRead)
            flushOutput();   // a TLS write waited for input
        return m_phase == Phase::Open ? readInput() : settle();
    case Phase::Closing:
        return drainInput();
    case Phase::Closed:
        return;
    }
}

void HttpConnection::onWritable()
{
    switch (m_phase) {
    case Phase::Handshake:
        return handshake();
    case Phase::Open: {
        if (m_transportWantsWrite && !m_writeBlocked)
            return readInput();   // a TLS read waited for output room
        const bool held = !mayExecute();
        flushOutput();
        // The client took enough: the requests read ahead may go on.
        if (held && m_phase == Phase::Open && mayExecute())
            return pump();
        return settle();
    }
    case Phase::Closing:
    case Phase::Closed:
        return;
    }
}

bool HttpConnection::wantsInput() const
{
    // A client that sends requests but does not read its answers is not read either: its
    // answers would pile up here.
    return m_phase == Phase::Open && !m_inputEnded && !m_peerEnded && m_in.size() < kReadAhead && mayExecute();
}

bool HttpConnection::mayExecute() const
{
    return m_queue.size() < std::size_t(qMax(1, m_limits.maxPipelined)) && unsentBytes() < m_limits.maxUnsentBytes;
}

qint64 HttpConnection::unsentBytes() const
{
    qint64 bytes = m_out.size();
    for (const Slot &slot : m_queue)
        bytes += slot.bytes.size();   // ready, waiting behind an answer still being made
    return bytes;
}

void HttpConnection::readInput()
{
    m_transportWantsWrite = false;
    char buffer[kReadChunk];
    while (wantsInput()) {
        const HttpTransport::Result r = m_transport->read(buffer, sizeof buffer);
        if (r.io == HttpTransport::Io::Done) {
            m_in.append(buffer, r.bytes);
            continue;
        }
        if (r.io == HttpTransport::Io::EndOfInput) {
            m_peerEnded = true;
        } else if (r.io == HttpTransport::Io::WantWrite) {
            m_transportWantsWrite = true;
        } else if (r.io == HttpTransport::Io::Failed) {
            qCDebug(lcHttpLayer) << "connection from" << m_peer.toString() << "failed:" << m_transport->lastError();
            return closeNow();
        }
        break;
    }
    pump();
}

void HttpConnection::pump()
{
    if (m_pumping || m_phase != Phase::Open)
        return;
    m_pumping = true;
    // Each answer made at once is written at once (answer()): the bound counts only what the
    // client has not taken.
    while (m_phase == Phase::Open && !m_inputEnded && mayExecute() && !m_in.isEmpty()) {
        if (!m_parser)
            m_parser = std::make_unique<HttpRequestParser>(
                HttpRequestParser::Limits{m_limits.maxHeaderBytes, m_limits.maxBodyBytes});
        const HttpRequestParser::State before = m_parser->state();
        const HttpRequestParser::State state = m_parser->feed(m_in);
        if (state == HttpRequestParser::State::Refused) {
            refuseRequest(m_parser->refusal());
            break;
        }
        // RFC 9110 10.1.1: a client that waits for "100 Continue" before its body gets it once
        // the head is accepted, in its place among the answers.
        if (before == HttpRequestParser::State::Head && state == HttpRequestParser::State::Body
            && m_parser->expectsContinue())
            m_queue.push_back({0, true, false, false, false, kContinue});
        if (state != HttpRequestParser::State::Complete)
            break;
        HttpRequest request = m_parser->takeRequest();
        m_parser.reset();
        const quint64 sequence = ++m_lastSequence;
        // RFC 9112 9.6: nothing after a request that ends the connection is read or executed.
        const bool last = !request.keepAlive;
        m_queue.push_back({sequence, false, last, !last && request.version < 11,
            request.method == HttpRequest::Method::Head, {}});
        m_servedAny = true;
        if (last) {
            m_inputEnded = true;
            m_in.clear();
        }
        m_handler(std::move(request), HttpResponder(this, sequence));
    }
    m_pumping = false;
    if (m_phase != Phase::Open)
        return;
    // The client sent all it will: what is left can never become a request.
    if (m_peerEnded && !m_inputEnded && mayExecute()) {
        m_inputEnded = true;
        if (!m_in.isEmpty() || (m_parser && m_parser->started()))
            qCDebug(lcHttpLayer) << "an incomplete request from" << m_peer.toString() << "ended with its input";
        m_in.clear();
        m_parser.reset();
    }
    moveReadyAnswers();
    flushOutput();
    settle();
}

void HttpConnection::refuseRequest(const HttpRefusal &refusal)
{
    qCInfo(lcHttpLayer) << "closing a connection from" << m_peer.toString() << "with" << refusal.status() << "-"
                        << refusal.detail;
    const Problem problem = Problem::make(refusal.status(), refusal.slug(), refusal.title(), refusal.detail);
    m_inputEnded = true;
    m_in.clear();
    m_parser.reset();
    m_queue.push_back({++m_lastSequence, true, true, false, false,
        HttpAnswer::problem(problem).toWire(HttpAnswer::Connection::Close)});
}

void HttpConnection::answer(quint64 sequence, const HttpAnswer &answer)
{
    if (m_phase == Phase::Closed || sequence == 0)
        return;
    for (Slot &slot : m_queue) {
        if (slot.sequence == sequence) {
            if (slot.ready)
                return;   // answered once already
            slot.bytes = answer.toWire(slot.closeAfter ? HttpAnswer::Connection::Close
                    : slot.keepAlive10                 ? HttpAnswer::Connection::KeepAlive
                                                       : HttpAnswer::Connection::Default,
                !slot.head);
            slot.ready = true;
            break;
        }
    }
    if (m_phase != Phase::Open)
        return;
    const bool held = !mayExecute();
    moveReadyAnswers();
    flushOutput();
    // A slot freed in a full queue (or the answers left fit the bound): the requests read ahead
    // may go on.
    if (held && !m_pumping)
        return pump();
    if (!m_pumping)
        settle();
}

void HttpConnection::moveReadyAnswers()
{
    while (!m_queue.empty() && m_queue.front().ready) {
        Slot &slot = m_queue.front();
        m_out += slot.bytes;
        if (slot.closeAfter) {
            m_closeAfterOut = true;
            m_queue.clear();   // nothing after it was taken
            break;
        }
        m_queue.pop_front();
    }
}

void HttpConnection::flushOutput()
{
    if (m_phase != Phase::Open)
        return;
    m_writeBlocked = false;
    m_transportWantsRead = false;
    qsizetype written = 0;
    while (written < m_out.size()) {
        const HttpTransport::Result r = m_transport->write(m_out.constData() + written, m_out.size() - written);
        if (r.io == HttpTransport::Io::Done) {
            written += r.bytes;
            continue;
        }
        if (r.io == HttpTransport::Io::WantWrite || r.io == HttpTransport::Io::WantRead) {
            m_writeBlocked = true;
            m_transportWantsRead = r.io == HttpTransport::Io::WantRead;
            break;
        }
        qCDebug(lcHttpLayer) << "writing to" << m_peer.toString() << "failed:" << m_transport->lastError();
        return closeNow();
    }
    if (written == m_out.size())
        m_out.clear();   // its memory too: a connection that held many answers once holds none now
    else
        m_out.remove(0, written);
    if (m_out.isEmpty() && m_closeAfterOut)
        beginClosing();
}

void HttpConnection::settle()
{
    if (m_phase == Phase::Closed)
        return;
    // Everything asked is answered and no more will be asked: the connection ends.
    if (m_phase == Phase::Open && m_out.isEmpty() && m_queue.empty() && (m_inputEnded || m_peerEnded)) {
        if (m_peerEnded)
            return closeNow();
        return beginClosing();
    }
    const bool reading = (m_phase == Phase::Handshake && m_transportWantsRead)
        || (m_phase == Phase::Open && (wantsInput() || (m_writeBlocked && m_transportWantsRead)))
        || m_phase == Phase::Closing;
    const bool writing = (m_phase == Phase::Handshake && m_transportWantsWrite)
        || (m_phase == Phase::Open && ((m_writeBlocked && !m_transportWantsRead) || m_transportWantsWrite));
    const bool resumed = reading && !m_readNotifier->isEnabled();
    m_readNotifier->setEnabled(reading);
    m_writeNotifier->setEnabled(writing);
    // TLS may hold decrypted bytes that no readable descriptor will announce.
    if (resumed && m_phase == Phase::Open && m_transport->hasBufferedInput())
        QMetaObject::invokeMethod(this, &HttpConnection::onReadable, Qt::QueuedConnection);

    const Deadline wanted = wantedDeadline();
    if (wanted == m_deadline)
        return;   // still timing the same thing: from its start, not from the last byte
    m_deadline = wanted;
    int ms = 0;
    switch (wanted) {
    case Deadline::None:
        break;
    case Deadline::Handshake:
    case Deadline::FirstRequest:
    case Deadline::Head:
        ms = m_limits.headerTimeoutMs;
        break;
    case Deadline::Body:
        ms = m_limits.bodyTimeoutMs;
        break;
    case Deadline::Idle:
    case Deadline::Sending:
        ms = m_limits.idleTimeoutMs;
        break;
    case Deadline::Linger:
        ms = m_limits.lingerMs;
        break;
    }
    if (ms > 0)
        m_timer.start(ms);
    else
        m_timer.stop();
}

HttpConnection::Deadline HttpConnection::wantedDeadline() const
{
    switch (m_phase) {
    case Phase::Handshake:
        return Deadline::Handshake;
    case Phase::Closing:
        return Deadline::Linger;
    case Phase::Closed:
        return Deadline::None;
    case Phase::Open:
        break;
    }
    if (m_queue.size() >= std::size_t(qMax(1, m_limits.maxPipelined)))
        return Deadline::None;   // requests read ahead wait for room, not for the client
    if (unsentBytes() >= m_limits.maxUnsentBytes)   // they wait for the client to read
        return m_out.isEmpty() ? Deadline::None : Deadline::Sending;
    // An empty line before a request line is not the start of a request (RFC 9112 2.2): a kept-
    // alive connection that sent one after its last request is idle, not slow.
    if (!m_inputEnded && ((m_parser && m_parser->started()) || !m_in.isEmpty()))
        return m_parser && m_parser->state() == HttpRequestParser::State::Body ? Deadline::Body : Deadline::Head;
    if (!m_out.isEmpty())
        return Deadline::Sending;   // the client does not read its answers
    if (!m_queue.empty())
        return Deadline::None;   // the gateway is making answers
    return m_servedAny ? Deadline::Idle : Deadline::FirstRequest;
}

void HttpConnection::deadlinePassed()
{
    switch (m_deadline) {
    case Deadline::None:
        return;
    case Deadline::Head:
    case Deadline::Body:
        refuseRequest({HttpRefusal::Kind::Timeout, m_deadline == Deadline::Head ? QStringLiteral("The request head did not arrive in time.") : QStringLiteral("The request body did not arrive in time.")});
        m_deadline = Deadline::None;
        moveReadyAnswers();
        flushOutput();
        return settle();
    case Deadline::Handshake:
    case Deadline::FirstRequest:
    case Deadline::Idle:
        qCDebug(lcHttpLayer) << "closing an idle connection from" << m_peer.toString();
        return closeNow();
    case Deadline::Sending:
        qCInfo(lcHttpLayer) << "closing a connection from" << m_peer.toString() << "that does not read its answers";
        return closeNow();
    case Deadline::Linger:
        return closeNow();
    }
}

void HttpConnection::beginClosing()
{
    if (m_phase != Phase::Open)
        return;
    if (m_peerEnded)
        return closeNow();
    // The answer is out; the FIN follows it. Reading on until the client's own end (or the
    // linger time) keeps a close with unread bytes from resetting the connection before the
    // client has read the answer.
    m_phase = Phase::Closing;
    m_transport->shutdownWrite();
    m_in.clear();
    m_parser.reset();
    m_queue.clear();
    settle();
}

void HttpConnection::drainInput()
{
    char buffer[kReadChunk];
    for (int i = 0; i < 8; ++i) {
        const HttpTransport::Result r = m_transport->read(buffer, sizeof buffer);
        if (r.io == HttpTransport::Io::Done)
            continue;
        if (r.io == HttpTransport::Io::WantRead || r.io == HttpTransport::Io::WantWrite)
            return;
        return closeNow();
    }
}

void HttpConnection::closeNow()
{
    if (m_phase == Phase::Closed)
        return;
    m_phase = Phase::Closed;
    m_timer.stop();
    // The notifiers go before the descriptor they watch.
    delete m_readNotifier;
    delete m_writeNotifier;
    m_readNotifier = m_writeNotifier = nullptr;
    m_transport.reset();
    ::close(m_fd);
    m_in.clear();
    m_out.clear();
    m_queue.clear();
    m_parser.reset();
    emit closed();
    deleteLater();
}

}   // namespace OncePay::Http
