#include "listenaddress.h"

namespace OncePay {

bool parseListenAddress(const QString &text, QHostAddress *address, quint16 *port)
{
    const qsizetype colon = text.lastIndexOf(QLatin1Char(':'));
    bool portOk = false;
    const uint number = colon > 0 ? text.mid(colon + 1).toUInt(&portOk) : 0;
    QString host = colon > 0 ? text.left(colon) : QString();
    if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']')))
        host = host.mid(1, host.size() - 2);
    if (host == QLatin1String("localhost"))
        host = QStringLiteral("127.0.0.1");
    if (!portOk || number > 65535 || !address->setAddress(host))
        return false;
    *port = quint16(number);
    return true;
}

}   // namespace OncePay
