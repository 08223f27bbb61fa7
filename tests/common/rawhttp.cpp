#include "rawhttp.h"

#include <QEventLoop>
#include <QHostAddress>
#include <QTcpSocket>
#include <QTimer>

#include <memory>
#include <thread>
#include <vector>

// Its lambdas capture the locals of a wait that runs a local event loop until they fire; each
// connection's context (the socket, the loop) is destroyed before those locals are.
// clazy:excludeall=lambda-in-connect

QByteArray RawResult::header(const QByteArray &name) const
{
    for (const auto &h : headers) {
        if (h.first.compare(name, Qt::CaseInsensitive) == 0)
            return h.second;
    }
    return {};
}

QByteArray RawResult::describe() const
{
    QByteArray out = "raw: connected=" + QByteArray::number(connected)
        + " closedByServer=" + QByteArray::number(closedByServer)
        + " timedOut=" + QByteArray::number(timedOut)
        + " status=" + QByteArray::number(status) + "\n";
    out += received.left(1500);
    return out;
}

HttpReply RawResult::asReply() const
{
    HttpReply out;
    out.status = status;
    out.headers = headers;
    out.body = body;
    out.json = QJsonDocument::fromJson(body);
    if (!status)
        out.errorString = closedByServer ? QStringLiteral("closed by server")
                                         : QStringLiteral("no response");
    return out;
}

namespace RawHttp {

QByteArray request(const QByteArray &method, const QByteArray &target,
    const QList<QByteArray> &headerLines, const QByteArray &body)
{
    QByteArray out = method + ' ' + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n";
    for (const QByteArray &line : headerLines)
        out += line + "\r\n";
    if (!body.isNull())
        out += "Content-Length: " + QByteArray::number(body.size()) + "\r\n";
    out += "Connection: close\r\n\r\n";
    out += body;
    return out;
}

static bool decodeChunked(const QByteArray &data, QByteArray &body)
{
    qsizetype pos = 0;
    body.clear();
    for (;;) {
        const qsizetype eol = data.indexOf("\r\n", pos);
        if (eol < 0)
            return false;
        bool ok = false;
        const qsizetype size = data.mid(pos, eol - pos).split(';').first().trimmed().toLongLong(&ok, 16);
        if (!ok)
            return false;
        pos = eol + 2;
        if (size == 0)
            return true;
        if (data.size() < pos + size + 2)
            return false;
        body += data.mid(pos, size);
        pos += size + 2;
    }
}

void parse(RawResult &r)
{
    r.status = 0;
    r.headers.clear();
    r.body.clear();
    r.complete = false;
    const qsizetype headEnd = r.received.indexOf("\r\n\r\n");
    if (!r.received.startsWith("HTTP/") || headEnd < 0)
        return;
    const QList<QByteArray> lines = r.received.left(headEnd).split('\n');
    const QList<QByteArray> statusLine = lines.first().trimmed().split(' ');
    if (statusLine.size() >= 2)
        r.status = statusLine.at(1).toInt();
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const qsizetype colon = lines.at(i).indexOf(':');
        if (colon > 0)
            r.headers.append({lines.at(i).left(colon).trimmed(), lines.at(i).mid(colon + 1).trimmed()});
    }
    const QByteArray rest = r.received.mid(headEnd + 4);
    if (r.header("Transfer-Encoding").toLower().contains("chunked")) {
        r.complete = decodeChunked(rest, r.body);
        return;
    }
    bool ok = false;
    const qint64 length = r.header("Content-Length").toLongLong(&ok);
    if (ok) {
        r.body = rest.left(length);
        r.complete = rest.size() >= length;
    } else {
        r.body = rest;
        r.complete = r.closedByServer;
    }
}

namespace {
struct Exchange
{
    std::unique_ptr<QTcpSocket> socket = std::make_unique<QTcpSocket>();
    RawResult result;
    bool done = false;
};
}   // namespace

QList<RawResult> exchangeAll(quint16 port, const QList<QByteArray> &requests, int timeoutMs)
{
    std::vector<Exchange> exchanges(size_t(requests.size()));
    QEventLoop loop;
    qsizetype remaining = requests.size();
    auto finish = [&](Exchange &ex) {
        if (ex.done)
            return;
        ex.done = true;
        if (--remaining == 0)
            loop.quit();
    };
    for (qsizetype i = 0; i < requests.size(); ++i) {
        Exchange &ex = exchanges[size_t(i)];
        QTcpSocket *s = ex.socket.get();
        const QByteArray bytes = requests.at(i);
        QObject::connect(s, &QTcpSocket::connected, s, [s, bytes, &ex] {
            ex.result.connected = true;
            s->write(bytes);
        });
        QObject::connect(s, &QTcpSocket::readyRead, s, [s, &ex, &finish] {
            ex.result.received += s->readAll();
            parse(ex.result);
            if (ex.result.complete)
                finish(ex);
        });
        QObject::connect(s, &QTcpSocket::disconnected, s, [s, &ex, &finish] {
            if (s->isOpen())
                ex.result.received += s->readAll();
            ex.result.closedByServer = true;
            finish(ex);
        });
        QObject::connect(s, &QTcpSocket::errorOccurred, s,
            [s, &ex, &finish](QAbstractSocket::SocketError error) {
                if (s->isOpen())
                    ex.result.received += s->readAll();
                if (error == QAbstractSocket::RemoteHostClosedError
                    || error == QAbstractSocket::NetworkError)
                    ex.result.closedByServer = ex.result.connected;
                finish(ex);
            });
    }
    QTimer deadline;
    deadline.setSingleShot(true);
    QObject::connect(&deadline, &QTimer::timeout, &loop, &QEventLoop::quit);
    deadline.start(timeoutMs);
    for (auto &ex : exchanges)
        ex.socket->connectToHost(QHostAddress::LocalHost, port);
    if (remaining > 0)
        loop.exec();

    QList<RawResult> out;
    for (auto &ex : exchanges) {
        if (!ex.done)
            ex.result.timedOut = true;
        ex.socket->disconnect();
        ex.socket->abort();
        parse(ex.result);
        out << ex.result;
    }
    return out;
}

RawResult exchangeWhileBlocked(quint16 port, const QByteArray &bytes, int timeoutMs)
{
    RawResult result;
    // join() blocks this thread; the exchange ends by itself at its own timeout at the latest.
    std::thread asker([&] {
        result = exchange(port, bytes, timeoutMs);
    });
    asker.join();
    return result;
}

RawResult exchange(quint16 port, const QByteArray &bytes, int timeoutMs)
{
    return exchangeAll(port, {bytes}, timeoutMs).constFirst();
}

}   // namespace RawHttp
