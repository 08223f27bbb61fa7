#include "pipeline.h"

#include <QDeadlineTimer>
#include <QSslConfiguration>
#include <QSslSocket>

#include <sys/socket.h>

QList<int> PipelineResult::statuses() const
{
    QList<int> out;
    for (const RawResult &r : responses)
        out.append(r.status);
    return out;
}

QByteArray PipelineResult::describe() const
{
    QByteArray out = "pipeline: connected=" + QByteArray::number(connected) + " closedByServer="
        + QByteArray::number(closedByServer) + " statuses=";
    for (int s : statuses())
        out += QByteArray::number(s) + ' ';
    return out + '\n' + received.left(3000);
}

namespace Pipeline {

QList<RawResult> split(const QByteArray &received)
{
    QList<RawResult> out;
    qsizetype pos = 0;
    while (pos < received.size()) {
        const qsizetype headEnd = received.indexOf("\r\n\r\n", pos);
        if (headEnd < 0)
            break;
        RawResult r;
        r.received = received.mid(pos, headEnd + 4 - pos);
        RawHttp::parse(r);
        bool ok = false;
        const qint64 length = r.header("Content-Length").toLongLong(&ok);
        if (!ok && r.status != 100)
            break;
        const qint64 end = headEnd + 4 + (ok ? length : 0);
        if (end > received.size())
            break;
        r.received = received.mid(pos, end - pos);
        RawHttp::parse(r);
        pos = end;
        if (r.status == 100)
            continue;   // an interim answer, not one of the requests'
        out.append(r);
    }
    return out;
}

PipelineResult send(quint16 port, const QByteArray &bytes, const Options &options)
{
    PipelineResult out;
    QSslSocket socket;
    if (options.caFile.isEmpty()) {
        socket.connectToHost(QStringLiteral("127.0.0.1"), port);
        out.connected = socket.waitForConnected(5000);
    } else {
        QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
        tls.setCaCertificates(QSslCertificate::fromPath(options.caFile));
        tls.setProtocol(QSsl::TlsV1_2OrLater);
        socket.setSslConfiguration(tls);
        socket.connectToHostEncrypted(QStringLiteral("127.0.0.1"), port);
        out.connected = socket.waitForEncrypted(10000);
    }
    if (!out.connected) {
        out.received = "not connected: " + socket.errorString().toUtf8();
        return out;
    }
    socket.write(bytes);
    while (socket.bytesToWrite() > 0 && socket.waitForBytesWritten(5000)) {}
    if (options.halfClose)
        ::shutdown(int(socket.socketDescriptor()), SHUT_WR);
    QDeadlineTimer deadline(options.timeoutMs);
    for (;;) {
        out.received += socket.readAll();
        out.responses = split(out.received);
        if (options.responses >= 0 && out.responses.size() >= options.responses)
            break;
        if (socket.state() != QAbstractSocket::ConnectedState) {
            out.closedByServer = true;
            break;
        }
        if (deadline.hasExpired())
            break;
        socket.waitForReadyRead(int(qMax<qint64>(1, deadline.remainingTime())));
    }
    out.received += socket.readAll();
    out.responses = split(out.received);
    return out;
}

}   // namespace Pipeline
