#include "proxyconnection.h"

#include <QLoggingCategory>
#include <QTcpSocket>
#include <QTimer>

namespace OncePay::NetSim {

Q_LOGGING_CATEGORY(lcConnection, "oncepay.netsim.connection", QtInfoMsg)

ProxyConnection::ProxyConnection(QTcpSocket *client, Behaviour behaviour, int delayMs,
    const QString &upstreamHost, quint16 upstreamPort, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_behaviour(behaviour)
    , m_delayMs(qMax(0, delayMs))
{
    m_clock.start();
    m_client->setParent(this);
    // The proxy must not add Nagle delays of its own on top of the simulated latency.
    m_client->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    connect(m_client, &QIODevice::readyRead, this, &ProxyConnection::clientReadyRead);
    connect(m_client, &QAbstractSocket::disconnected, this, [this] {
        sourceClosed(m_upPipe);
    });

    if (m_behaviour == Behaviour::BlackHole) {
        // Bytes already buffered before the connection was wired are discarded too.
        clientReadyRead();
        return;
    }

    m_upstream = new QTcpSocket(this);
    for (Pipe *pipe : {&m_upPipe, &m_downPipe}) {
        pipe->timer = new QTimer(this);
        pipe->timer->setSingleShot(true);
        pipe->timer->setTimerType(Qt::PreciseTimer);   // a coarse timer may fire up to 5% early
        connect(pipe->timer, &QTimer::timeout, this, [this, pipe] {
            flush(*pipe);
        });
    }
    m_upPipe.from = m_client;
    m_upPipe.to = m_upstream;
    m_upPipe.up = true;
    m_downPipe.from = m_upstream;
    m_downPipe.to = m_client;

    connect(m_upstream, &QAbstractSocket::connected, this, [this] {
        m_upstream->setSocketOption(QAbstractSocket::LowDelayOption, 1);
        flush(m_upPipe);
    });
    connect(m_upstream, &QIODevice::readyRead, this, &ProxyConnection::upstreamReadyRead);
    connect(m_upstream, &QAbstractSocket::disconnected, this, [this] {
        sourceClosed(m_downPipe);
    });
    connect(m_upstream, &QAbstractSocket::errorOccurred, this, [this](QAbstractSocket::SocketError error) {
        // Errors on an established connection end in disconnected(); a failed connect does not.
        if (m_finished || m_upstream->state() == QAbstractSocket::ConnectedState
            || m_upstream->state() == QAbstractSocket::ClosingState)
            return;
        qCWarning(lcConnection) << "upstream unreachable:" << error << m_upstream->errorString();
        abort();
    });
    m_upstream->connectToHost(upstreamHost, upstreamPort);
    clientReadyRead();
}

void ProxyConnection::abort()
{
    if (m_finished)
        return;
    m_finished = true;   // first, so that the disconnected() emitted by abort() below is ignored
    m_client->abort();
    if (m_upstream)
        m_upstream->abort();
    emit finished();
    deleteLater();
}

void ProxyConnection::setBehaviour(Behaviour behaviour, int delayMs)
{
    if (m_finished)
        return;
    m_delayMs = qMax(0, delayMs);
    if (behaviour == m_behaviour)
        return;
    if (!m_upstream && behaviour != Behaviour::BlackHole) {
        abort();
        return;
    }
    m_behaviour = behaviour;
}

void ProxyConnection::clientReadyRead()
{
    if (m_finished)
        return;
    QByteArray bytes = m_client->readAll();
    if (bytes.isEmpty() || m_behaviour == Behaviour::BlackHole)
        return;
    push(m_upPipe, std::move(bytes));
}

void ProxyConnection::upstreamReadyRead()
{
    if (m_finished)
        return;
    QByteArray bytes = m_upstream->readAll();
    if (bytes.isEmpty() || m_behaviour == Behaviour::BlackHole)
        return;   // a black hole swallows the answer too, and says nothing
    if (m_behaviour == Behaviour::LoseResponse) {
        dropResponse();
        return;
    }
    push(m_downPipe, std::move(bytes));
}

void ProxyConnection::push(Pipe &pipe, QByteArray bytes)
{
    const qint64 due = m_delayMs > 0 ? m_clock.elapsed() + m_delayMs : 0;
    pipe.queue.emplace_back(due, std::move(bytes));
    flush(pipe);
}

void ProxyConnection::flush(Pipe &pipe)
{
    if (m_finished || !pipe.to || pipe.to->state() != QAbstractSocket::ConnectedState)
        return;   // the upstream is still connecting: connected() flushes again
    const qint64 now = m_clock.elapsed();
    while (!pipe.queue.empty() && pipe.queue.front().first <= now) {
        const QByteArray bytes = std::move(pipe.queue.front().second);
        pipe.queue.pop_front();
        const qint64 written = pipe.to->write(bytes);
        if (written > 0) {
            if (pipe.up)
                emit bytesForwardedUp(written);
            else
                emit bytesForwardedDown(written);
        }
    }
    if (!pipe.queue.empty()) {
        // Only the head matters: later chunks are due later, so one timer keeps the order.
        pipe.timer->start(int(pipe.queue.front().first - now));
        return;
    }
    if (pipe.sourceClosed)
        pipe.to->disconnectFromHost();   // after the delayed bytes, as the real close would be
}

void ProxyConnection::sourceClosed(Pipe &pipe)
{
    if (m_finished)
        return;
    pipe.sourceClosed = true;
    if (!m_upstream) {   // black hole: nothing on the other side
        finishIfDone();
        return;
    }
    if (pipe.up && m_upstream->state() != QAbstractSocket::ConnectedState
        && m_upstream->state() != QAbstractSocket::ClosingState) {
        abort();   // the client left before the upstream even answered the connect
        return;
    }
    flush(pipe);
    finishIfDone();
}

void ProxyConnection::dropResponse()
{
    qCInfo(lcConnection) << "upstream answered; dropping the answer and cutting the client";
    emit responseDropped();
    abort();
}

void ProxyConnection::finishIfDone()
{
    const bool clientGone = m_client->state() == QAbstractSocket::UnconnectedState;
    const bool upstreamGone = !m_upstream || m_upstream->state() == QAbstractSocket::UnconnectedState;
    if (m_finished || !clientGone || !upstreamGone)
        return;
    m_finished = true;
    emit finished();
    deleteLater();
}

}   // namespace OncePay::NetSim
