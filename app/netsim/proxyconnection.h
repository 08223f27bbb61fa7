#pragma once

#include <QByteArray>
#include <QElapsedTimer>
#include <QObject>
#include <QString>

#include <deque>
#include <utility>

class QTcpSocket;
class QTimer;

namespace OncePay::NetSim {

// One client connection of the FaultProxy and its upstream twin; an internal class.
class ProxyConnection final : public QObject
{
    Q_OBJECT

public:
    enum class Behaviour {
        Forward,   // both ways, after delayMs
        BlackHole,   // read and discard, never answer, no upstream
        LoseResponse,   // forward the request, drop the answer and cut the client
    };

    // Takes ownership of `client`, which must be connected.
    ProxyConnection(QTcpSocket *client, Behaviour behaviour, int delayMs, const QString &upstreamHost,
        quint16 upstreamPort, QObject *parent = nullptr);

    // Cuts both sides at once; finished() follows.
    void abort();
    // The network changed: the next byte each way meets the new behaviour (bytes already delayed
    // keep their time). A connection black-holed from its start has no upstream to forward to:
    // leaving the black hole resets it, as a route that comes back drops what it half-held.
    void setBehaviour(Behaviour behaviour, int delayMs);

signals:
    void bytesForwardedUp(qint64 bytes);
    void bytesForwardedDown(qint64 bytes);
    void responseDropped();
    void finished();

private:
    // One direction. Chunks wait in arrival order until due, so a delay never reorders bytes.
    struct Pipe
    {
        QTcpSocket *from = nullptr;
        QTcpSocket *to = nullptr;
        QTimer *timer = nullptr;
        std::deque<std::pair<qint64, QByteArray>> queue;   // (due in m_clock ms, bytes)
        bool sourceClosed = false;
        bool up = false;
    };

    void clientReadyRead();
    void upstreamReadyRead();
    void push(Pipe &pipe, QByteArray bytes);
    void flush(Pipe &pipe);
    void sourceClosed(Pipe &pipe);
    void dropResponse();
    void finishIfDone();

    QTcpSocket *m_client = nullptr;
    QTcpSocket *m_upstream = nullptr;
    Behaviour m_behaviour;
    int m_delayMs = 0;
    QElapsedTimer m_clock;
    Pipe m_upPipe;
    Pipe m_downPipe;
    bool m_finished = false;
};

}   // namespace OncePay::NetSim
