#pragma once

#include <QByteArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPair>
#include <QString>
#include <QUrl>

using HttpHeaders = QList<QPair<QByteArray, QByteArray>>;

// One answer of the gateway as a value: status 0 means no HTTP answer (see error).
struct HttpReply
{
    int status = 0;
    QNetworkReply::NetworkError error = QNetworkReply::NoError;
    QString errorString;
    HttpHeaders headers;
    QByteArray body;
    QJsonDocument json;
    qint64 finishedAtMs = 0;   // QDateTime::currentMSecsSinceEpoch() when it finished

    QByteArray header(const QByteArray &name) const;
    bool hasHeader(const QByteArray &name) const;
    QJsonObject object() const { return json.object(); }
    bool replayed() const { return header("Idempotent-Replayed") == "true"; }
    // The slug of a problem+json type (https://oncepay.example/problems/<slug>), else "".
    QString problemSlug() const;
    // status, headers and the start of the body, for failure messages.
    QByteArray describe() const;
};

struct HttpRequest
{
    QByteArray method;
    QString path;   // "/v1/payments?limit=5", relative to the base URL
    QByteArray body;
    HttpHeaders headers;   // an entry with an empty value removes a default header
};

// A small synchronous-looking client over one QNetworkAccessManager: every call runs an
// event loop until the reply finished or the timeout expired. By default it sends
// "Authorization: Bearer <token>" and, with a body, "Content-Type: application/json".
class HttpClient final
{
public:
    explicit HttpClient(const QUrl &baseUrl = {}, const QByteArray &token = "sk_test_demo_till1");

    void setBaseUrl(const QUrl &baseUrl) { m_baseUrl = baseUrl; }
    QUrl baseUrl() const { return m_baseUrl; }
    void setToken(const QByteArray &token) { m_token = token; }
    QByteArray token() const { return m_token; }
    void setTimeoutMs(int ms) { m_timeoutMs = ms; }

    HttpReply get(const QString &path, const HttpHeaders &headers = {});
    HttpReply post(const QString &path, const QByteArray &body, const HttpHeaders &headers = {});
    HttpReply put(const QString &path, const QByteArray &body, const HttpHeaders &headers = {});
    HttpReply send(const HttpRequest &request);
    // Sends all requests at once (up to the manager's parallel connections) and waits for all.
    QList<HttpReply> sendAll(const QList<HttpRequest> &requests);

    // Starts a request without waiting; collect() waits for it and frees it.
    QNetworkReply *start(const HttpRequest &request);
    HttpReply collect(QNetworkReply *reply);

private:
    QNetworkAccessManager m_manager;
    QUrl m_baseUrl;
    QByteArray m_token;
    int m_timeoutMs = 20000;
};
