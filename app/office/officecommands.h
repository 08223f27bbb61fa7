#pragma once

#include <QStringList>
#include <QTextStream>

namespace OncePay::Office {

// `oncepay-office till add` and `oncepay-office owner add` (docs/office.md, "Tokens"): make a
// token, keep only its digest in the office's database, print the token once.
namespace OfficeCommands {

// Whether `arguments` (the program's, its name first) name a command rather than the server.
bool isCommand(const QStringList &arguments);
// Exit 0 with the token on `out`; 2 with one line on `err` for bad usage, 1 when the database
// refused.
int run(const QStringList &arguments, QTextStream &out, QTextStream &err);

}   // namespace OfficeCommands
}   // namespace OncePay::Office
