#pragma once

#include <QString>

#include <optional>

namespace OncePay {

// Where receipts go, as the shop writes it in Settings or on the command line:
//   tcp://HOST[:PORT]    a network printer's raw port (9100 when none is given)
//   file:///dev/usb/lp0  a device file (USB printer class, serial port) or any file
//   cups://QUEUE         a CUPS queue that passes jobs through raw
struct PrinterUri
{
    enum class Kind {
        Tcp,
        File,
        Cups
    };
    Kind kind = Kind::Tcp;
    QString host;   // tcp
    quint16 port = 9100;   // tcp
    QString path;   // file
    QString queue;   // cups

    // nullopt and a sentence saying what is wrong (translated) when `text` is not one of the forms.
    static std::optional<PrinterUri> parse(const QString &text, QString *error);
    QString toString() const;
    // Whether the printer answers its status (DLE EOT): TCP and device files; CUPS keeps its own.
    bool twoWay() const { return kind != Kind::Cups; }
};

}   // namespace OncePay
