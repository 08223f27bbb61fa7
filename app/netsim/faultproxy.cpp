#include "faultproxy.h"

#include "proxyconnection.h"

#include <QLoggingCategory>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTcpSocket>

#ifdef Q_OS_UNIX
#include <sys/socket.h>
#endif

namespace OncePay::NetSim {

Q_LOGGING_CATEGORY(lcProxy, "oncepay.netsim.proxy", QtInfoMsg)

namespace {
constexpr int kMaxLatencyMs = 10 * 60 * 1000;

// A close with SO_LINGER 0 sends RST instead of FIN: the client sees a reset, as from a
// middlebox that gave up on the connection, not an orderly close it could mistake for keep-alive.
void resetConnection(QTcpSocket *socket)
{
#ifdef Q_OS_UNIX
    const linger hard{1, 0};
    ::setsockopt(int(socket->socketDescriptor()), SOL_SOCKET, SO_LINGER, &hard, sizeof hard);
#endif
    socket->abort();
    socket->deleteLater();
}

Settings normalized(Settings s)
{
    s.latencyMs = qBound(0, s.latencyMs, kMaxLatencyMs);
    s.flakyPercent = qBound(0, s.flakyPercent, 100);
    return s;
}
}   // namespace

FaultProxy::FaultProxy(QObject *parent)
    : QObject(parent)
    , m_server(new QTcpServer(this))   // sets SO_REUSEADDR on Unix: re-listening after Offline is immediate
    , m_random(m_settings.seed)
{
    connect(m_server, &QTcpServer::newConnection, this, &FaultProxy::acceptPending);
}

FaultProxy::~FaultProxy()
{
    // Connections are children and die with us; aborting first keeps their sockets from
    // emitting into a half-destroyed proxy.
    abortAll();
}

bool FaultProxy::listen(const QHostAddress &address, quint16 port, const QString &upstreamHost,
    quint16 upstreamPort, QString *error)
{
    m_address = address;
    m_port = port;
    m_upstreamHost = upstreamHost;
    m_upstreamPort = upstreamPort;
    if (!startListening(error))
        return false;
    if (m_settings.mode == Mode::Offline)
        m_server->close();   // bound once only to learn the port that Online will use
    return true;
}

bool FaultProxy::startListening(QString *error)
{
    m_server->close();
    if (!m_server->listen(m_address, m_port)) {
        const QString why = m_server->errorString();
        qCWarning(lcProxy) << "cannot listen on" << m_address << m_port << why;
        if (error)
            *error = why;
        return false;
    }
    m_port = m_server->serverPort();
    qCInfo(lcProxy) << "listening on" << m_address << m_port << "for" << m_upstreamHost << m_upstreamPort;
    return true;
}

QUrl FaultProxy::url() const
{
    QUrl url;
    url.setScheme(QStringLiteral("http"));
    const bool wildcard = m_address.isNull() || m_address == QHostAddress::Any
        || m_address == QHostAddress::AnyIPv4 || m_address == QHostAddress::AnyIPv6;
    url.setHost(wildcard || m_address == QHostAddress::LocalHost ? QStringLiteral("127.0.0.1")
                                                                 : m_address.toString());
    url.setPort(m_port);
    return url;
}

void FaultProxy::setSettings(const Settings &settings)
{
    const Settings next = normalized(settings);
    if (next == m_settings)
        return;
    const Settings previous = m_settings;
    m_settings = next;
    if (next.mode == Mode::Flaky && (previous.mode != Mode::Flaky || previous.seed != next.seed))
        m_random.seed(next.seed);   // a flaky run is replayable from its seed

    const bool listening = m_port != 0;   // listen() has been called
    if (next.mode == Mode::Offline && previous.mode != Mode::Offline) {
        abortAll();
        m_server->close();
    } else if (previous.mode == Mode::Offline && next.mode != Mode::Offline && listening) {
        QString why;
        if (!startListening(&why))
            qCWarning(lcProxy) << "back online but the port is taken:" << why;
    }
    // Open connections meet the new mode at their next byte.
    if (next.mode != Mode::Offline) {
        const auto behaviour = next.mode == Mode::BlackHole ? ProxyConnection::Behaviour::BlackHole
            : next.mode == Mode::LoseResponses              ? ProxyConnection::Behaviour::LoseResponse
                                                            : ProxyConnection::Behaviour::Forward;
        const int delay = next.mode == Mode::Latency ? next.latencyMs : 0;
        const QList<QPointer<ProxyConnection>> open = m_connections;
        for (const QPointer<ProxyConnection> &connection : open) {
            if (connection)
                connection->setBehaviour(behaviour, delay);
        }
    }
    qCInfo(lcProxy) << "mode" << describe(previous) << "->" << describe(next);
    emit settingsChanged(m_settings);
}

FaultProxy::Fate FaultProxy::nextFate()
{
    switch (m_settings.mode) {
    case Mode::BlackHole:
        return Fate::BlackHole;
    case Mode::LoseResponses:
        return Fate::LoseResponse;
    case Mode::Flaky: {
        // Two draws per connection, always, so the sequence depends on the seed alone.
        const bool faulty = int(m_random.bounded(100)) < m_settings.flakyPercent;
        const quint32 which = m_random.bounded(3);
        if (!faulty)
            return Fate::Forward;
        return which == 0 ? Fate::Reset : which == 1 ? Fate::BlackHole
                                                     : Fate::LoseResponse;
    }
    case Mode::Online:
    case Mode::Latency:
    case Mode::Offline:   // a connection that raced the close: forward it, Offline aborts soon enough
        break;
    }
    return Fate::Forward;
}

void FaultProxy::acceptPending()
{
    while (QTcpSocket *client = m_server->nextPendingConnection()) {
        ++m_stats.accepted;
        const Fate fate = nextFate();
        if (fate == Fate::Reset) {
            ++m_stats.refused;
            resetConnection(client);
            continue;
        }
        auto behaviour = ProxyConnection::Behaviour::Forward;
        if (fate == Fate::BlackHole) {
            ++m_stats.blackHoled;
            behaviour = ProxyConnection::Behaviour::BlackHole;
        } else if (fate == Fate::LoseResponse) {
            behaviour = ProxyConnection::Behaviour::LoseResponse;
        }
        const int delay = m_settings.mode == Mode::Latency ? m_settings.latencyMs : 0;
        auto *connection = new ProxyConnection(client, behaviour, delay, m_upstreamHost, m_upstreamPort, this);
        m_connections.append(connection);
        connect(connection, &ProxyConnection::bytesForwardedUp, this,
            [this](qint64 n) {
                m_stats.bytesUp += n;
            });
        connect(connection, &ProxyConnection::bytesForwardedDown, this,
            [this](qint64 n) {
                m_stats.bytesDown += n;
            });
        connect(connection, &ProxyConnection::responseDropped, this, [this] {
            ++m_stats.responsesDropped;
            emit responseDropped();
        });
        connect(connection, &ProxyConnection::finished, this, [this, connection] {
            m_connections.removeAll(connection);
        });
    }
}

void FaultProxy::abortAll()
{
    const QList<QPointer<ProxyConnection>> connections = std::exchange(m_connections, {});
    for (const QPointer<ProxyConnection> &connection : connections) {
        if (connection)
            connection->abort();
    }
}

std::optional<Settings> FaultProxy::parseMode(const QString &text)
{
    static const QRegularExpression pattern(
        QStringLiteral(R"(^\s*([a-z_]+)(?:(?:\s+|\s*=\s*)(\d{1,9})\s*(ms|%)?(?:\s*:\s*(\d{1,10}))?)?\s*$)"),
        QRegularExpression::CaseInsensitiveOption);
    const QRegularExpressionMatch match = pattern.match(text);
    if (!match.hasMatch())
        return std::nullopt;
    const QString word = match.captured(1).toLower();
    const bool hasNumber = match.hasCaptured(2);
    const QString unit = match.captured(3).toLower();
    const bool hasSeed = match.hasCaptured(4);

    Settings s;
    if (!hasNumber) {
        if (word == QLatin1String("online"))
            s.mode = Mode::Online;
        else if (word == QLatin1String("offline"))
            s.mode = Mode::Offline;
        else if (word == QLatin1String("black_hole"))
            s.mode = Mode::BlackHole;
        else if (word == QLatin1String("lose_responses"))
            s.mode = Mode::LoseResponses;
        else
            return std::nullopt;
        return s;
    }

    const int number = match.captured(2).toInt();
    if (word == QLatin1String("latency") && unit != QLatin1String("%") && !hasSeed
        && number <= kMaxLatencyMs) {
        s.mode = Mode::Latency;
        s.latencyMs = number;
        return s;
    }
    if (word == QLatin1String("flaky") && unit != QLatin1String("ms") && number <= 100) {
        s.mode = Mode::Flaky;
        s.flakyPercent = number;
        if (hasSeed) {
            bool ok = false;
            s.seed = match.captured(4).toUInt(&ok);
            if (!ok)
                return std::nullopt;   // more than 32 bits
        }
        return s;
    }
    return std::nullopt;
}

QString FaultProxy::describe(const Settings &settings)
{
    switch (settings.mode) {
    case Mode::Online:
        return QStringLiteral("online");
    case Mode::Offline:
        return QStringLiteral("offline");
    case Mode::BlackHole:
        return QStringLiteral("black_hole");
    case Mode::LoseResponses:
        return QStringLiteral("lose_responses");
    case Mode::Latency:
        return QStringLiteral("latency %1").arg(settings.latencyMs);
    case Mode::Flaky:
        return QStringLiteral("flaky %1:%2").arg(settings.flakyPercent).arg(settings.seed);
    }
    return {};
}

}   // namespace OncePay::NetSim
