#pragma once

#include <QStringList>

namespace OncePay {
class Catalog;
enum class TaxMode;
}   // namespace OncePay

namespace OncePay::Ctl {

class CtlSession;

// `catalog import FILE`, `catalog show CODE [--json]`, `catalog export [--format csv|json]`: the
// shop's catalog in the till's own file beside its journal (CatalogStore::pathBeside).
int catalogCommand(CtlSession &session, const QStringList &arguments);

// The catalog `sale` sells from: the shop's own once one was imported, the demo's until then.
// False with a sentence in `error`.
bool loadSaleCatalog(const QString &journalPath, Catalog *catalog, TaxMode *mode, QString *error);

}   // namespace OncePay::Ctl
