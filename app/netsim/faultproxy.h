#pragma once

#include <QHostAddress>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QRandomGenerator>
#include <QString>
#include <QUrl>

#include <optional>

class QTcpServer;

namespace OncePay::NetSim {

class ProxyConnection;

enum class Mode {
    Online,
    Offline,
    BlackHole,
    LoseResponses,
    Latency,
    Flaky
};

// What the simulated network does to the till's traffic; a plain value the UI can edit.
struct Settings
{
    Mode mode = Mode::Online;
    int latencyMs = 0;   // Latency: delay of every chunk, each way
    int flakyPercent = 0;   // Flaky: share of new connections that get a fault
    quint32 seed = 1;   // Flaky: the same seed replays the same faults

    friend bool operator==(const Settings &a, const Settings &b)
    {
        return a.mode == b.mode && a.latencyMs == b.latencyMs && a.flakyPercent == b.flakyPercent
            && a.seed == b.seed;
    }
    friend bool operator!=(const Settings &a, const Settings &b) { return !(a == b); }
};

// A TCP proxy between the till and the gateway that injects network faults, so the till's
// real network code (timeouts, retries, the offline queue) is what gets exercised.
//
// A mode applies to the next byte, whatever the connection (issue 25): a kept-alive connection
// of the till meets a black hole, lost answers or a new latency as a new one would. Offline also
// aborts every open connection (the cable is pulled) and closes the listening socket so that new
// connections are refused by the kernel (RST, ConnectionRefusedError); leaving Offline listens
// again on the same port. Flaky draws a fate per new connection; open ones forward.
class FaultProxy final : public QObject
{
    Q_OBJECT

public:
    struct Stats
    {
        int accepted = 0;   // connections taken by the proxy (offline refusals are the kernel's)
        int refused = 0;   // accepted, then reset at once (flaky)
        int blackHoled = 0;   // accepted, never answered
        int responsesDropped = 0;   // the upstream answered and the client never saw it
        qint64 bytesUp = 0;   // client -> upstream, as written to the upstream
        qint64 bytesDown = 0;   // upstream -> client, as written to the client
    };

    explicit FaultProxy(QObject *parent = nullptr);
    ~FaultProxy() override;

    // Port 0 picks a free port, which is then kept across Offline periods.
    bool listen(const QHostAddress &address, quint16 port, const QString &upstreamHost,
        quint16 upstreamPort, QString *error = nullptr);
    quint16 port() const { return m_port; }
    QUrl url() const;   // what the till should use as its gateway URL

    void setSettings(const Settings &settings);
    Settings settings() const { return m_settings; }
    Stats stats() const { return m_stats; }

    // The command language of the simulation panel and command lines: "online", "offline",
    // "black_hole", "lose_responses", "latency 200" (or "latency=200", optional "ms"),
    // "flaky 30" (or "flaky=30", optional "%", optional ":seed"). Case-insensitive.
    static std::optional<Settings> parseMode(const QString &text);
    // The inverse of parseMode(); identifiers, not user-visible prose (the UI translates).
    static QString describe(const Settings &settings);

signals:
    void settingsChanged(const OncePay::NetSim::Settings &settings);
    void responseDropped();   // the gateway answered (and committed); the till will never know

private:
    enum class Fate {
        Forward,
        Reset,
        BlackHole,
        LoseResponse
    };

    bool startListening(QString *error);
    void acceptPending();
    Fate nextFate();
    void abortAll();

    QTcpServer *m_server = nullptr;
    QHostAddress m_address;
    quint16 m_port = 0;
    QString m_upstreamHost;
    quint16 m_upstreamPort = 0;
    Settings m_settings;
    QRandomGenerator m_random;
    Stats m_stats;
    QList<QPointer<ProxyConnection>> m_connections;
};

}   // namespace OncePay::NetSim

// Settings travel in signals, QVariants of the UI and test data rows.
Q_DECLARE_METATYPE(OncePay::NetSim::Settings)
