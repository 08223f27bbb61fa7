// The till's side of TLS, through oncepay-ctl (the same TillSession as the till's window): a
// gateway serving HTTPS with a certificate the test makes is trusted with --ca-file and not
// without (nothing sent); the bearer token never goes over plain HTTP to another machine unless
// --allow-insecure-http says so, and a refused command line stores nothing.
#include "gatewayprocess.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSslSocket>
#include <QTemporaryDir>
#include <QtTest>

namespace {
struct Run
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    QByteArray describe() const { return "exit " + QByteArray::number(exitCode) + "\nstdout: " + out + "\nstderr: " + err; }
    QJsonObject object() const { return QJsonDocument::fromJson(out).object(); }
};

Run ctl(const QStringList &args)
{
    QProcess p;
    p.start(qEnvironmentVariable("ONCEPAY_CTL_BIN"), args);
    Run r;
    if (!p.waitForFinished(60'000)) {
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}
}   // namespace

class TestTlsClient final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void verifiedWithCaFile();
    void untrustedCertificateSendsNothing();
    void plainHttpToAnotherMachineIsRefused();
    void plainHttpAllowedWhenAsked();

private:
    // `extra`: global options; `wait`: false sends once and does not wait for a final answer.
    QStringList pay(const QString &journal, const QString &gateway, const QStringList &extra, bool wait = true) const;

    QTemporaryDir m_dir;
    QString m_cert;
    GatewayProcess m_gateway;
};

void TestTlsClient::initTestCase()
{
    if (!QSslSocket::supportsSsl())
        QSKIP("no TLS backend");
    QVERIFY(m_dir.isValid());
    QVERIFY2(QFile::exists(qEnvironmentVariable("ONCEPAY_CTL_BIN")), "ONCEPAY_CTL_BIN is not set (run through ctest)");
    m_cert = m_dir.filePath(QStringLiteral("cert.pem"));
    const QString key = m_dir.filePath(QStringLiteral("key.pem"));
    QProcess openssl;
    openssl.start(QStringLiteral("openssl"),
        {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"), QStringLiteral("rsa:2048"),
            QStringLiteral("-nodes"), QStringLiteral("-keyout"), key, QStringLiteral("-out"), m_cert,
            QStringLiteral("-days"), QStringLiteral("2"), QStringLiteral("-subj"), QStringLiteral("/CN=127.0.0.1"),
            QStringLiteral("-addext"), QStringLiteral("subjectAltName=IP:127.0.0.1")});
    QVERIFY2(openssl.waitForFinished(60000) && openssl.exitCode() == 0, openssl.readAllStandardError().constData());
    QVERIFY2(m_gateway.start({QStringLiteral("--tls-cert"), m_cert, QStringLiteral("--tls-key"), key}),
        m_gateway.failureMessage().constData());
}

QStringList TestTlsClient::pay(const QString &journal, const QString &gateway, const QStringList &extra, bool wait) const
{
    return QStringList{QStringLiteral("--db"), m_dir.filePath(journal), QStringLiteral("--gateway"), gateway,
               QStringLiteral("--token"), QStringLiteral("sk_test_demo_till1"),
               QStringLiteral("--request-timeout"), QStringLiteral("2s")}
    + extra
        + QStringList{QStringLiteral("pay"), QStringLiteral("--amount"), QStringLiteral("3.21"), QStringLiteral("--order"),
            QStringLiteral("ord-tls")}
    + (wait ? QStringList{QStringLiteral("--wait"), QStringLiteral("10")} : QStringList{QStringLiteral("--no-wait")});
}

void TestTlsClient::verifiedWithCaFile()
{
    const Run r = ctl(pay(QStringLiteral("trusted.db"), m_gateway.baseUrl().toString(),
        {QStringLiteral("--ca-file"), m_cert}));
    QVERIFY2(r.exitCode == 0, r.describe().constData());
    QCOMPARE(r.object().value(QStringLiteral("state")).toString(), QStringLiteral("succeeded"));
}

void TestTlsClient::untrustedCertificateSendsNothing()
{
    const QString journal = QStringLiteral("untrusted.db");
    const Run r = ctl(pay(journal, m_gateway.baseUrl().toString(), {}, false));
    // Stored (durable before the first byte) and never sent: the handshake failed on verification.
    QVERIFY2(r.exitCode == 4, r.describe().constData());
    const QJsonObject intent = r.object();
    QCOMPARE(intent.value(QStringLiteral("state")).toString(), QStringLiteral("queued"));
    QVERIFY2(intent.value(QStringLiteral("problem")).toString().contains(QLatin1String("certificate"), Qt::CaseInsensitive),
        r.describe().constData());
    const Run shown = ctl({QStringLiteral("--db"), m_dir.filePath(journal), QStringLiteral("show"),
        intent.value(QStringLiteral("key")).toString(), QStringLiteral("--json")});
    QVERIFY2(shown.exitCode == 0, shown.describe().constData());
    QVERIFY2(shown.out.contains("not sent: SSL handshake failed"), shown.out.constData());
}

void TestTlsClient::plainHttpToAnotherMachineIsRefused()
{
    const QString journal = QStringLiteral("refused.db");
    const Run r = ctl(pay(journal, QStringLiteral("http://192.0.2.10:8080"), {}));
    QVERIFY2(r.exitCode != 0 && !r.err.trimmed().isEmpty() && !r.err.trimmed().contains('\n'), r.describe().constData());
    QVERIFY2(r.err.contains("plain HTTP"), r.describe().constData());
    QVERIFY2(!QFile::exists(m_dir.filePath(journal)), "a refused command line stored a payment");
    // Loopback is this machine: plain HTTP is fine there (the demo's embedded gateway).
    const Run list = ctl({QStringLiteral("--db"), m_dir.filePath(QStringLiteral("trusted.db")), QStringLiteral("--gateway"),
        QStringLiteral("http://192.0.2.10:8080"), QStringLiteral("list"), QStringLiteral("--json")});
    QVERIFY2(list.exitCode == 0, list.describe().constData());   // a command that sends nothing is not held to it
}

void TestTlsClient::plainHttpAllowedWhenAsked()
{
    const QString journal = QStringLiteral("allowed.db");
    const Run r = ctl(pay(journal, QStringLiteral("http://192.0.2.10:8080"),
        {QStringLiteral("--allow-insecure-http")}, false));
    QVERIFY2(r.exitCode == 4, r.describe().constData());   // stored, and tried: the address answers nothing
    QCOMPARE(r.object().value(QStringLiteral("state")).toString().isEmpty(), false);
    QVERIFY(QFile::exists(m_dir.filePath(journal)));
}

QTEST_GUILESS_MAIN(TestTlsClient)
#include "tst_tlsclient.moc"
