#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>

namespace OncePay {

// Code 128 (ISO/IEC 15417), the barcode of the sale number on a receipt: printable ASCII in code
// set B, with code set C for a text of digits only (two digits a symbol).
class Code128 final
{
public:
    // The symbol values: start, data, check, stop (106). nullopt for a character outside
    // printable ASCII, or an empty text.
    static std::optional<QList<int>> symbols(const QString &text);
    // The bars and spaces as modules, 1 a bar and 0 a space, quiet zones not included.
    static std::optional<QByteArray> modules(const QString &text);
    // Widths (bar, space, bar, ...) of symbol `value` (0-106; the stop has seven).
    static QByteArray widths(int value);
    // The text back from modules (a scan), or nullopt when a symbol or the check is wrong.
    static std::optional<QString> decode(const QByteArray &modules);
};

}   // namespace OncePay
