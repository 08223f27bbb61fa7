// ReplyWatcher: each reply's callback runs once on the watcher's thread with what the request
// did on the wire, the reply is deleted after, and nothing is called for a reply or a watcher
// that is gone. Against a real local HTTP server (QTcpServer), and a port nobody listens on.
#include "replywatcher.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPointer>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

using namespace OncePay;

class TestReplyWatcher : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void answeredRequestWasWritten();
    void refusedConnectionWroteNothing();
    void closedAfterTheRequestWasWritten();
    void goneWatcherCallsNothing();
    void replyDestroyedFirstIsForgotten();

private:
    // Answers every request read on `server` with 200 "ok", or closes without answering.
    void serve(bool answer);
    QUrl url() const { return QUrl(QStringLiteral("http://127.0.0.1:%1/x").arg(m_server->serverPort())); }

    std::unique_ptr<QTcpServer> m_server;
};

void TestReplyWatcher::init()
{
    m_server = std::make_unique<QTcpServer>();
    QVERIFY(m_server->listen(QHostAddress::LocalHost));
}

void TestReplyWatcher::serve(bool answer)
{
    connect(m_server.get(), &QTcpServer::newConnection, m_server.get(), [this, answer] {
        QTcpSocket *socket = m_server->nextPendingConnection();
        connect(socket, &QTcpSocket::readyRead, socket, [socket, answer] {
            const QByteArray request = socket->readAll();
            if (!request.contains("\r\n\r\nbody"))   // the whole request, body included
                return;
            if (answer)
                socket->write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok");
            socket->disconnectFromHost();
        });
    });
}

void TestReplyWatcher::answeredRequestWasWritten()
{
    serve(true);
    QNetworkAccessManager manager;
    ReplyWatcher watcher;
    QPointer<QNetworkReply> reply = manager.post(QNetworkRequest(url()), QByteArrayLiteral("body"));
    int calls = 0;
    ReplyProgress seen;
    QByteArray body;
    watcher.watch(reply, [&](QNetworkReply *r, const ReplyProgress &p) {
        ++calls;
        seen = p;
        body = r->readAll();
        QCOMPARE(QThread::currentThread(), watcher.thread());
    });
    QCOMPARE(watcher.watching(), 1);
    QTRY_COMPARE(calls, 1);
    QCOMPARE(body, QByteArrayLiteral("ok"));
    QVERIFY(seen.written);
    QCOMPARE(seen.connections, 1);
    QCOMPARE(watcher.watching(), 0);
    QTRY_VERIFY(reply.isNull());   // deleted after its callback
    QCOMPARE(calls, 1);
}

void TestReplyWatcher::refusedConnectionWroteNothing()
{
    const QUrl refused = url();
    m_server->close();   // nobody listens on that port any more
    QNetworkAccessManager manager;
    ReplyWatcher watcher;
    int calls = 0;
    ReplyProgress seen{true, -1};
    QNetworkReply::NetworkError error = QNetworkReply::NoError;
    watcher.watch(manager.post(QNetworkRequest(refused), QByteArrayLiteral("body")),
        [&](QNetworkReply *r, const ReplyProgress &p) {
            ++calls;
            seen = p;
            error = r->error();
        });
    QTRY_COMPARE(calls, 1);
    QCOMPARE(error, QNetworkReply::ConnectionRefusedError);
    QVERIFY(!seen.written);
    QVERIFY(seen.connections >= 1);
}

void TestReplyWatcher::closedAfterTheRequestWasWritten()
{
    serve(false);   // reads the whole request, then closes: it may have been acted upon
    QNetworkAccessManager manager;
    ReplyWatcher watcher;
    int calls = 0;
    ReplyProgress seen;
    int status = -1;
    watcher.watch(manager.post(QNetworkRequest(url()), QByteArrayLiteral("body")),
        [&](QNetworkReply *r, const ReplyProgress &p) {
            ++calls;
            seen = p;
            status = r->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        });
    QTRY_COMPARE(calls, 1);
    QCOMPARE(status, 0);
    QVERIFY(seen.written);   // whatever the error of Qt's resend says
}

void TestReplyWatcher::goneWatcherCallsNothing()
{
    serve(true);
    QNetworkAccessManager manager;
    auto watcher = std::make_unique<ReplyWatcher>();
    int calls = 0;
    QNetworkReply *reply = manager.post(QNetworkRequest(url()), QByteArrayLiteral("body"));
    QSignalSpy finished(reply, &QNetworkReply::finished);
    watcher->watch(reply, [&](QNetworkReply *, const ReplyProgress &) {
        ++calls;
    });
    watcher.reset();
    QVERIFY(finished.wait());
    QCOMPARE(calls, 0);
    delete reply;
}

void TestReplyWatcher::replyDestroyedFirstIsForgotten()
{
    serve(true);
    auto manager = std::make_unique<QNetworkAccessManager>();
    ReplyWatcher watcher;
    int calls = 0;
    watcher.watch(manager->post(QNetworkRequest(url()), QByteArrayLiteral("body")),
        [&](QNetworkReply *, const ReplyProgress &) {
            ++calls;
        });
    QCOMPARE(watcher.watching(), 1);
    manager.reset();   // deletes its replies
    QCOMPARE(watcher.watching(), 0);
    QCOMPARE(calls, 0);
}

QTEST_GUILESS_MAIN(TestReplyWatcher)
#include "tst_replywatcher.moc"
