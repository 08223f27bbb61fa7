// --tls-cert/--tls-key: the gateway serves HTTPS only, TLS 1.2 or later, with a certificate the
// test makes itself (openssl); a plain-HTTP client gets no answer, a stalled handshake is cut off
// by the head's time limit, and bad TLS options are one line on stderr and a non-zero exit.
#include "gatewayapi.h"
#include "gatewayprocess.h"
#include "rawhttp.h"

#include <QProcess>
#include <QSslConfiguration>
#include <QSslSocket>

#include <sys/socket.h>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QtTest>

using namespace GatewayApi;

class TestTls final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void paysOverTls();
    void halfClosedClientGetsItsAnswer();
    void plainHttpGetsNoAnswer();
    void stalledHandshakeIsCutOff();
    void badOptions_data();
    void badOptions();

private:
    // One request over TLS that trusts only the test's certificate; the raw answer.
    // `halfClose`: the client ends its TCP sending side once the request is out.
    RawResult exchange(const QByteArray &request, bool halfClose = false);

    QTemporaryDir m_dir;
    QString m_cert;
    QString m_key;
    QString m_otherKey;   // a valid key, of no certificate given to the gateway
    GatewayProcess m_gateway;
};

void TestTls::initTestCase()
{
    if (!QSslSocket::supportsSsl())
        QSKIP("no TLS backend");
    QVERIFY(m_dir.isValid());
    m_cert = m_dir.filePath(QStringLiteral("cert.pem"));
    m_key = m_dir.filePath(QStringLiteral("key.pem"));
    QProcess openssl;
    openssl.start(QStringLiteral("openssl"), {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"), QStringLiteral("ec"), QStringLiteral("-pkeyopt"), QStringLiteral("ec_paramgen_curve:prime256v1"), QStringLiteral("-nodes"), QStringLiteral("-keyout"), m_key, QStringLiteral("-out"), m_cert, QStringLiteral("-days"), QStringLiteral("2"), QStringLiteral("-subj"), QStringLiteral("/CN=127.0.0.1"), QStringLiteral("-addext"), QStringLiteral("subjectAltName=IP:127.0.0.1")});
    QVERIFY2(openssl.waitForFinished(30000) && openssl.exitCode() == 0, openssl.readAllStandardError().constData());
    m_otherKey = m_dir.filePath(QStringLiteral("other-key.pem"));
    QProcess genkey;
    genkey.start(QStringLiteral("openssl"), {QStringLiteral("genpkey"), QStringLiteral("-algorithm"), QStringLiteral("EC"), QStringLiteral("-pkeyopt"), QStringLiteral("ec_paramgen_curve:prime256v1"), QStringLiteral("-out"), m_otherKey});
    QVERIFY2(genkey.waitForFinished(30000) && genkey.exitCode() == 0, genkey.readAllStandardError().constData());
    QVERIFY2(m_gateway.start({QStringLiteral("--tls-cert"), m_cert, QStringLiteral("--tls-key"), m_key,
                 QStringLiteral("--header-timeout"), QStringLiteral("1s")}),
        m_gateway.failureMessage().constData());
    QCOMPARE(m_gateway.baseUrl().scheme(), QStringLiteral("https"));
}

RawResult TestTls::exchange(const QByteArray &request, bool halfClose)
{
    RawResult out;
    QSslSocket socket;
    QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
    tls.setCaCertificates(QSslCertificate::fromPath(m_cert));
    tls.setProtocol(QSsl::TlsV1_2OrLater);
    socket.setSslConfiguration(tls);
    socket.connectToHostEncrypted(QStringLiteral("127.0.0.1"), m_gateway.port());
    if (!socket.waitForEncrypted(10000)) {
        out.received = "handshake failed: " + socket.errorString().toUtf8();
        return out;
    }
    out.connected = true;
    socket.write(request);
    if (halfClose) {
        while (socket.bytesToWrite() > 0 && socket.waitForBytesWritten(5000)) {}
        if (::shutdown(int(socket.socketDescriptor()), SHUT_WR) != 0) {
            out.received = "shutdown(SHUT_WR) failed";
            return out;
        }
    }
    QDeadlineTimer deadline(10000);
    while (!deadline.hasExpired()) {
        out.received += socket.readAll();
        RawHttp::parse(out);
        if (out.complete || socket.state() != QAbstractSocket::ConnectedState)
            break;
        socket.waitForReadyRead(int(qMax<qint64>(1, deadline.remainingTime())));
    }
    return out;
}

void TestTls::paysOverTls()
{
    const QString key = uniqueKey(QStringLiteral("tls"));
    const QByteArray body = paymentBody(4321);
    const RawResult r = exchange(RawHttp::request("POST", "/v1/payments",
        {"Authorization: Bearer sk_test_demo_till1",
            "Content-Type: application/json",
            "Idempotency-Key: \"" + key.toUtf8() + '"'},
        body));
    QVERIFY2(r.connected && r.complete, r.describe().constData());
    QCOMPARE(r.status, 201);
    QCOMPARE(r.json().object().value(QStringLiteral("amount")).toInteger(), 4321);
    const RawResult again = exchange(RawHttp::request("GET", "/v1/payments?idempotency_key=" + key.toUtf8(),
        {"Authorization: Bearer sk_test_demo_till1"}));
    QCOMPARE(again.status, 200);
}

// As over plain TCP (tst_http11): a client that ends its sending side after the request still
// reads the answer, here through the TLS layer.
void TestTls::halfClosedClientGetsItsAnswer()
{
    const QString key = uniqueKey(QStringLiteral("tls-halfclose"));
    const RawResult r = exchange(RawHttp::request("POST", "/v1/payments",
                                     {"Authorization: Bearer sk_test_demo_till1",
                                         "Content-Type: application/json",
                                         "Idempotency-Key: \"" + key.toUtf8() + '"'},
                                     paymentBody(1234)),
        true);
    QVERIFY2(r.connected && r.complete, r.describe().constData());
    QCOMPARE(r.status, 201);
}

void TestTls::plainHttpGetsNoAnswer()
{
    const RawResult r = RawHttp::exchange(m_gateway.port(), RawHttp::request("GET", "/livez", {}));
    QVERIFY2(r.status == 0 && (r.closedByServer || r.timedOut), r.describe().constData());
    QVERIFY(!r.received.contains("alive"));
    QVERIFY2(m_gateway.isRunning(), m_gateway.failureMessage().constData());
}

void TestTls::stalledHandshakeIsCutOff()
{
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, m_gateway.port());
    QVERIFY(socket.waitForConnected(5000));
    // No ClientHello: the gateway closes it within the head's limit (1 s here).
    QVERIFY2(socket.state() == QAbstractSocket::UnconnectedState || socket.waitForDisconnected(10000),
        "a connection that never started its handshake stayed open");
}

void TestTls::badOptions_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::newRow("cert without key") << QStringList{QStringLiteral("--tls-cert"), QStringLiteral("CERT")};
    QTest::newRow("key without cert") << QStringList{QStringLiteral("--tls-key"), QStringLiteral("KEY")};
    QTest::newRow("missing cert") << QStringList{QStringLiteral("--tls-cert"), QStringLiteral("/nonexistent.pem"),
        QStringLiteral("--tls-key"), QStringLiteral("KEY")};
    QTest::newRow("key is a certificate") << QStringList{QStringLiteral("--tls-cert"), QStringLiteral("CERT"),
        QStringLiteral("--tls-key"), QStringLiteral("CERT")};
    QTest::newRow("cert is a key") << QStringList{QStringLiteral("--tls-cert"), QStringLiteral("KEY"),
        QStringLiteral("--tls-key"), QStringLiteral("KEY")};
    // Issue 19: it started, said it listened on https, and every handshake failed.
    QTest::newRow("key of another certificate") << QStringList{QStringLiteral("--tls-cert"), QStringLiteral("CERT"),
        QStringLiteral("--tls-key"), QStringLiteral("OTHERKEY")};
}

void TestTls::badOptions()
{
    QFETCH(QStringList, args);
    args.replaceInStrings(QRegularExpression(QStringLiteral("^CERT$")), m_cert);
    args.replaceInStrings(QRegularExpression(QStringLiteral("^KEY$")), m_key);
    args.replaceInStrings(QRegularExpression(QStringLiteral("^OTHERKEY$")), m_otherKey);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    args << QStringLiteral("--demo") << QStringLiteral("--listen") << QStringLiteral("127.0.0.1:0")
         << QStringLiteral("--db") << dir.filePath(QStringLiteral("g.db"));
    QProcess p;
    p.start(GatewayProcess::binaryPath(GatewayProcess::Program::Gateway), args);
    QVERIFY(p.waitForStarted(10000));
    QVERIFY2(p.waitForFinished(10000) || (p.kill(), p.waitForFinished(), false), "kept running with bad TLS options");
    const QByteArray err = p.readAllStandardError().trimmed();
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QVERIFY2(p.exitCode() != 0, err.constData());
    QVERIFY2(!err.isEmpty() && !err.contains('\n'), err.constData());
    QVERIFY2(err.contains("tls"), err.constData());
}

QTEST_GUILESS_MAIN(TestTls)
#include "tst_tls.moc"
