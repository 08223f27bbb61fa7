#pragma once

#include <QList>
#include <QSslConfiguration>
#include <QString>
#include <QUrl>

#include <optional>

namespace OncePay {

// How the till's bearer token may travel (issue 11): over HTTPS, verified against the system's
// certificate authorities and those of a --ca-file; over plain HTTP only to this machine (the
// demo's embedded gateway, a gateway on the same PC), unless the user says so
// (--allow-insecure-http).

// localhost, 127.0.0.0/8 or ::1.
bool isLoopback(const QUrl &url);

// Empty when every URL is https:// or loopback, or `allowInsecureHttp`; else a sentence for the
// person at the till naming the first URL that would carry the token in clear.
QString plainHttpRefusal(const QList<QUrl> &urls, bool allowInsecureHttp);

// TLS for the gateway: TLS 1.2 or later, the peer verified against the system's authorities
// plus those in `caFile` (PEM; empty: none). nullopt and `error` when the file cannot be used.
std::optional<QSslConfiguration> gatewayTls(const QString &caFile, QString *error);

}   // namespace OncePay
