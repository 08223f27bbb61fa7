#pragma once

#include <QPointer>

#include <functional>
#include <memory>

namespace OncePay::Http {

class HttpConnection;
struct HttpAnswer;

// The place of one request's answer in its connection's queue: answers leave in request order
// whenever each is made. Copyable; once the connection is gone, answering does nothing.
class HttpResponder final
{
public:
    HttpResponder() = default;
    using Sink = std::function<void(const HttpAnswer &)>;
    // An answer that goes to `sink` instead of a connection: the simulator's in-memory transport
    // (docs/simulation.md). abort() calls `aborted`, if given.
    static HttpResponder toSink(Sink sink, std::function<void()> aborted = {});

    void respond(const HttpAnswer &answer) const;
    // Ends the connection at once without an answer (the acquirer simulating a lost answer).
    void abort() const;
    // The connection, while it is open: a context that lives as long as the caller's
    // connection (its closed() signal says when that ends). Null once it is gone.
    HttpConnection *connection() const;

private:
    friend class HttpConnection;
    HttpResponder(HttpConnection *connection, quint64 sequence);

    QPointer<HttpConnection> m_connection;
    quint64 m_sequence = 0;
    std::shared_ptr<const Sink> m_sink;
    std::shared_ptr<const std::function<void()>> m_aborted;
};

}   // namespace OncePay::Http
