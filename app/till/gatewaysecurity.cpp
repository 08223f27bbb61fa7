#include "gatewaysecurity.h"

#include <QCoreApplication>
#include <QFile>
#include <QHostAddress>
#include <QSslCertificate>

namespace OncePay {

bool isLoopback(const QUrl &url)
{
    const QString host = url.host();
    if (host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        return true;
    const QHostAddress address(host);
    return !address.isNull() && address.isLoopback();
}

QString plainHttpRefusal(const QList<QUrl> &urls, bool allowInsecureHttp)
{
    if (allowInsecureHttp)
        return {};
    for (const QUrl &url : urls) {
        if (url.scheme() == QLatin1String("http") && !isLoopback(url)) {
            return QCoreApplication::translate("OncePay::GatewaySecurity",
                "The gateway %1 is plain HTTP on another machine: the till's token would cross the network "
                "unencrypted. Use its https:// address, or allow plain HTTP explicitly (--allow-insecure-http).")
                .arg(url.toString());
        }
    }
    return {};
}

std::optional<QSslConfiguration> gatewayTls(const QString &caFile, QString *error)
{
    QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
    tls.setProtocol(QSsl::TlsV1_2OrLater);
    tls.setPeerVerifyMode(QSslSocket::VerifyPeer);
    if (caFile.isEmpty())
        return tls;
    QFile file(caFile);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QCoreApplication::translate("OncePay::GatewaySecurity", "The certificate file %1 cannot be read: %2")
                     .arg(caFile, file.errorString());
        return std::nullopt;
    }
    const QList<QSslCertificate> authorities = QSslCertificate::fromData(file.readAll(), QSsl::Pem);
    if (authorities.isEmpty()) {
        *error = QCoreApplication::translate("OncePay::GatewaySecurity", "The file %1 holds no PEM certificate.")
                     .arg(caFile);
        return std::nullopt;
    }
    tls.addCaCertificates(authorities);
    return tls;
}

}   // namespace OncePay
