#pragma once

#include "http/httplimits.h"
#include "http/httprequest.h"
#include "http/httprequestparser.h"
#include "http/httpresponder.h"

#include <QByteArray>
#include <QHostAddress>
#include <QObject>
#include <QTimer>

#include <deque>
#include <functional>
#include <memory>

class QSocketNotifier;

namespace OncePay::Http {

class HttpTransport;
struct HttpAnswer;

// One client connection of the HTTP/1.1 layer (docs/architecture.md, "The HTTP
// layer"): it owns the descriptor and reads it itself on Qt's event loop (QSocketNotifier), so
// it decides when to read. One HttpRequestParser at a time frames every request, the first or a
// pipelined one; each complete request is handed to the handler with its place in the answer
// queue, and answers leave in request order. A refused framing, "Connection: close" or HTTP/1.0
// end the reading: nothing after them is parsed or executed. A client that ends its sending
// side gets every answer to what it sent. While its answers not yet sent exceed
// HttpLimits::maxUnsentBytes, nothing more is read or executed: a client that does not read
// cannot make the gateway hold more for it. Deleted (later) once closed.
class HttpConnection final : public QObject
{
    Q_OBJECT

public:
    using Handler = std::function<void(HttpRequest &&request, const HttpResponder &responder)>;

    // Takes `descriptor` (a connected stream socket; made non-blocking here) and `transport` on it.
    HttpConnection(int descriptor, std::unique_ptr<HttpTransport> transport, const HttpLimits &limits,
        const QHostAddress &peer, Handler handler, QObject *parent = nullptr);
    ~HttpConnection() override;

    void start();
    // Answers `answer` at once (after the TLS handshake) and closes: the connection caps.
    void refuse(const HttpAnswer &answer);

    QHostAddress peer() const { return m_peer; }
    // Answers made but not yet handed to the kernel.
    bool isSending() const { return !m_out.isEmpty(); }
    bool isClosed() const { return m_phase == Phase::Closed; }

signals:
    void closed();   // the descriptor is closed; no answer will leave any more

private:
    friend class HttpResponder;
    enum class Phase {
        Handshake,
        Open,
        Closing,
        Closed
    };
    // What the connection's one timer is timing.
    enum class Deadline {
        None,
        Handshake,
        FirstRequest,
        Idle,
        Head,
        Body,
        Sending,
        Linger
    };
    struct Slot
    {
        quint64 sequence = 0;   // 0: an interim answer (100 Continue), ready when queued
        bool ready = false;
        bool closeAfter = false;   // the connection ends once this answer is out
        bool keepAlive10 = false;   // an HTTP/1.0 request that asked to keep the connection
        bool head = false;   // a HEAD request: the answer's length, not its body
        QByteArray bytes;
    };

    void answer(quint64 sequence, const HttpAnswer &answer);
    void onReadable();
    void onWritable();
    void handshake();
    void readInput();
    void drainInput();
    void pump();
    void refuseRequest(const HttpRefusal &refusal);
    void moveReadyAnswers();
    void flushOutput();
    void settle();
    void beginClosing();
    void closeNow();
    void deadlinePassed();
    bool wantsInput() const;
    // Whether the next request read may execute: room in the queue, and answers not yet sent
    // under the bound.
    bool mayExecute() const;
    qint64 unsentBytes() const;
    Deadline wantedDeadline() const;

    int m_fd;
    std::unique_ptr<HttpTransport> m_transport;
    HttpLimits m_limits;
    QHostAddress m_peer;
    Handler m_handler;
    QSocketNotifier *m_readNotifier = nullptr;
    QSocketNotifier *m_writeNotifier = nullptr;
    QTimer m_timer;
    Deadline m_deadline = Deadline::None;
    Phase m_phase = Phase::Handshake;

    QByteArray m_in;   // read, not yet parsed
    std::unique_ptr<HttpRequestParser> m_parser;   // the request being read; null between requests
    std::deque<Slot> m_queue;   // answers in request order, the oldest first
    QByteArray m_out;   // answers leaving, in order
    quint64 m_lastSequence = 0;
    bool m_inputEnded = false;   // no request after the ones queued will be taken
    bool m_peerEnded = false;   // the client ended its sending side
    bool m_closeAfterOut = false;
    bool m_writeBlocked = false;   // the kernel took no more: wait for the descriptor
    bool m_transportWantsRead = false;   // TLS: a write or handshake step waits for input
    bool m_transportWantsWrite = false;   // TLS: a read or handshake step waits for output room
    bool m_pumping = false;
    bool m_servedAny = false;
};

}   // namespace OncePay::Http
