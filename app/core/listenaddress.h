#pragma once

#include <QHostAddress>
#include <QString>

namespace OncePay {

// A server's --listen value: "127.0.0.1:8080", "[::1]:0" (0 picks a free port), "localhost:8080".
// False when it is not ADDR:PORT; the caller says so in its own words.
bool parseListenAddress(const QString &text, QHostAddress *address, quint16 *port);

}   // namespace OncePay
