#include "httpclient.h"

#include <QBuffer>
#include <QDateTime>
#include <QEventLoop>
#include <QNetworkRequest>
#include <QTimer>

// A reply's finished() is connected by signature, as ReplyWatcher does (app/core/replywatcher.h):
// no slot object of ours is ever attached to a QNetworkReply.
// clazy:excludeall=old-style-connect

namespace {

// Stamps each reply with the time it finished ("finishedAtMs"), connected by signature.
class FinishStamps final : public QObject
{
    Q_OBJECT

public Q_SLOTS:
    void stamp()
    {
        if (QObject *reply = sender())
            reply->setProperty("finishedAtMs", QDateTime::currentMSecsSinceEpoch());
    }
};

FinishStamps *finishStamps()
{
    static FinishStamps stamps;   // main thread only, like every HttpClient
    return &stamps;
}

}   // namespace

QByteArray HttpReply::header(const QByteArray &name) const
{
    for (const auto &h : headers) {
        if (h.first.compare(name, Qt::CaseInsensitive) == 0)
            return h.second;
    }
    return {};
}

bool HttpReply::hasHeader(const QByteArray &name) const
{
    for (const auto &h : headers) {
        if (h.first.compare(name, Qt::CaseInsensitive) == 0)
            return true;
    }
    return false;
}

QString HttpReply::problemSlug() const
{
    static const QString prefix = QStringLiteral("https://oncepay.example/problems/");
    const QString type = object().value(QStringLiteral("type")).toString();
    return type.startsWith(prefix) ? type.mid(prefix.size()) : QString();
}

QByteArray HttpReply::describe() const
{
    QByteArray out = "HTTP " + QByteArray::number(status);
    if (status == 0)
        out += " (" + errorString.toUtf8() + ")";
    for (const auto &h : headers)
        out += "\n  " + h.first + ": " + h.second;
    out += "\n  body: " + body.left(1500);
    return out;
}

HttpClient::HttpClient(const QUrl &baseUrl, const QByteArray &token)
    : m_baseUrl(baseUrl)
    , m_token(token)
{
}

HttpReply HttpClient::get(const QString &path, const HttpHeaders &headers)
{
    return send({"GET", path, {}, headers});
}

HttpReply HttpClient::post(const QString &path, const QByteArray &body, const HttpHeaders &headers)
{
    return send({"POST", path, body, headers});
}

HttpReply HttpClient::put(const QString &path, const QByteArray &body, const HttpHeaders &headers)
{
    return send({"PUT", path, body, headers});
}

QNetworkReply *HttpClient::start(const HttpRequest &request)
{
    QNetworkRequest req(QUrl(m_baseUrl.toString() + request.path));
    req.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
    req.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    req.setTransferTimeout(m_timeoutMs);
    auto hasOwn = [&](const QByteArray &name) {
        for (const auto &h : request.headers) {
            if (h.first.compare(name, Qt::CaseInsensitive) == 0)
                return true;
        }
        return false;
    };
    if (!m_token.isEmpty() && !hasOwn("Authorization"))
        req.setRawHeader("Authorization", "Bearer " + m_token);
    if (request.method != "GET" && !hasOwn("Content-Type"))
        req.setRawHeader("Content-Type", "application/json");
    for (const auto &h : request.headers) {
        if (!h.second.isEmpty())
            req.setRawHeader(h.first, h.second);
    }
    QNetworkReply *reply = request.method == "GET"
        ? m_manager.get(req)
        : m_manager.sendCustomRequest(req, request.method, request.body);
    // By signature, like ReplyWatcher: no slot object of ours on a reply (see replywatcher.h).
    QObject::connect(reply, SIGNAL(finished()), finishStamps(), SLOT(stamp()));
    return reply;
}

HttpReply HttpClient::collect(QNetworkReply *reply)
{
    if (!reply->isFinished()) {
        QEventLoop loop;
        QTimer guard;
        guard.setSingleShot(true);
        QObject::connect(reply, SIGNAL(finished()), &loop, SLOT(quit()));
        QObject::connect(&guard, &QTimer::timeout, &loop, &QEventLoop::quit);
        guard.start(m_timeoutMs + 5000);   // transfer timeout normally fires first
        loop.exec();
    }
    HttpReply out;
    if (!reply->isFinished()) {
        reply->abort();
        out.errorString = QStringLiteral("client timeout");
        out.error = QNetworkReply::TimeoutError;
    }
    out.finishedAtMs = reply->property("finishedAtMs").toLongLong();
    if (!out.finishedAtMs)
        out.finishedAtMs = QDateTime::currentMSecsSinceEpoch();
    out.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (out.error == QNetworkReply::NoError && reply->error() != QNetworkReply::NoError
        && out.status == 0) {
        out.error = reply->error();
        out.errorString = reply->errorString();
    }
    out.headers = reply->rawHeaderPairs();
    out.body = reply->readAll();
    out.json = QJsonDocument::fromJson(out.body);
    reply->deleteLater();
    return out;
}

HttpReply HttpClient::send(const HttpRequest &request)
{
    return collect(start(request));
}

QList<HttpReply> HttpClient::sendAll(const QList<HttpRequest> &requests)
{
    QList<QNetworkReply *> replies;
    for (const auto &r : requests) {
        replies << start(r);
    }
    QList<HttpReply> out;
    for (QNetworkReply *reply : replies)
        out << collect(reply);
    return out;
}

#include "httpclient.moc"
