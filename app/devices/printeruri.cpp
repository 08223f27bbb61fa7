#include "printeruri.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QUrl>

namespace OncePay {

namespace {

struct UriText
{
    Q_DECLARE_TR_FUNCTIONS(OncePay::PrinterUri)
};

}   // namespace

std::optional<PrinterUri> PrinterUri::parse(const QString &text, QString *error)
{
    const QString trimmed = text.trimmed();
    const QString forms = UriText::tr("Use tcp://HOST:PORT, file:///dev/usb/lp0 or cups://QUEUE.");
    if (trimmed.isEmpty()) {
        *error = UriText::tr("No printer is set.") + QLatin1Char(' ') + forms;
        return std::nullopt;
    }
    const QUrl url(trimmed, QUrl::StrictMode);
    const QString scheme = url.scheme().toLower();
    PrinterUri uri;
    if (scheme == QLatin1String("tcp")) {
        uri.kind = Kind::Tcp;
        uri.host = url.host();
        const int port = url.port(9100);
        if (!url.isValid() || uri.host.isEmpty() || port < 1 || port > 65535 || !url.path().isEmpty()) {
            *error = UriText::tr("\"%1\" is not a printer's address.").arg(trimmed) + QLatin1Char(' ') + forms;
            return std::nullopt;
        }
        uri.port = quint16(port);
        return uri;
    }
    if (scheme == QLatin1String("file")) {
        uri.kind = Kind::File;
        uri.path = url.toLocalFile();
        if (!url.isValid() || !url.host().isEmpty() || uri.path.isEmpty() || uri.path.endsWith(QLatin1Char('/'))) {
            *error = UriText::tr("\"%1\" does not name a file.").arg(trimmed) + QLatin1Char(' ') + forms;
            return std::nullopt;
        }
        return uri;
    }
    if (scheme == QLatin1String("cups")) {
        uri.kind = Kind::Cups;
        // CUPS queue names: printable characters but space, slash and '#'.
        uri.queue = trimmed.mid(int(qstrlen("cups://")));
        static const QRegularExpression name(QStringLiteral("^[^\\s/#\\\\]{1,127}$"));
        if (!name.match(uri.queue).hasMatch()) {
            *error = UriText::tr("\"%1\" is not a CUPS queue's name.").arg(uri.queue) + QLatin1Char(' ') + forms;
            return std::nullopt;
        }
        return uri;
    }
    *error = UriText::tr("\"%1\" is not a printer's address.").arg(trimmed) + QLatin1Char(' ') + forms;
    return std::nullopt;
}

QString PrinterUri::toString() const
{
    switch (kind) {
    case Kind::Tcp:
        return QStringLiteral("tcp://%1:%2").arg(host.contains(QLatin1Char(':')) ? QLatin1Char('[') + host + QLatin1Char(']') : host).arg(port);
    case Kind::File:
        return QUrl::fromLocalFile(path).toString();
    case Kind::Cups:
        return QStringLiteral("cups://") + queue;
    }
    return {};
}

}   // namespace OncePay
