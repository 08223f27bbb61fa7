#include "catalogcommands.h"

#include "catalog.h"
#include "catalogcsv.h"
#include "catalogstore.h"
#include "commandline.h"
#include "ctloutput.h"
#include "ctlsession.h"
#include "eventwait.h"
#include "exitcode.h"
#include "pricing.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>

namespace OncePay::Ctl {

namespace {

const QString kDemoCatalog = QStringLiteral(":/catalog/demo-catalog.json");

QJsonObject productJson(const Product &p, const QString &currency)
{
    return {{QStringLiteral("code"), p.code}, {QStringLiteral("barcodes"), QJsonArray::fromStringList(p.barcodes)},
        {QStringLiteral("name"), p.nameEn}, {QStringLiteral("name_zh"), p.nameZh},
        {QStringLiteral("price"), p.price.minorUnits()}, {QStringLiteral("currency"), currency},
        {QStringLiteral("vat"), p.vatBasisPoints / 100.0}, {QStringLiteral("category"), p.category},
        {QStringLiteral("unit"), saleUnitName(p.unit)}, {QStringLiteral("quick_key"), p.quickKey},
        {QStringLiteral("open_price"), p.openPrice}, {QStringLiteral("retired"), p.retired}};
}

// Opens the store beside the journal; nullopt when it went well.
std::optional<int> openStore(CtlSession &session, CatalogStore *store, bool mustExist)
{
    if (session.options().dbPath.isEmpty())
        return fail(Usage, QStringLiteral("no journal: give --db PATH or set ONCEPAY_DB (the catalog lives beside it)"));
    if (mustExist && !QFileInfo::exists(store->path()))
        return fail(Error, QStringLiteral("no catalog was imported for this till (%1)").arg(store->path()));
    QString error;
    if (!store->open(&error))
        return fail(Error, QStringLiteral("cannot open the catalog %1: %2").arg(store->path(), error));
    return std::nullopt;
}

int importCommand(CtlSession &session, const QStringList &arguments)
{
    CommandLine cl(QStringLiteral("catalog import"), QStringLiteral("FILE [--json]"),
        QStringLiteral("Replaces the till's catalog with FILE (CSV with a header row naming at least\n"
                       "code,barcode,name,name_zh,price,vat,category,unit; or the JSON of the demo catalog;\n"
                       "\"-\" reads standard input). Products not in the file are retired. A bad file changes\n"
                       "nothing: exit 1 with the line and column on stderr."));
    cl.addOption({QStringLiteral("json"), QStringLiteral("Print the summary as one JSON line.")});
    if (auto rc = cl.parse(arguments))
        return *rc;
    if (cl.positionalArguments().size() != 1)
        return fail(Usage, QStringLiteral("catalog import needs one FILE"));
    const QString path = cl.positionalArguments().constFirst();
    QFile file;
    if (path == QLatin1String("-") ? !file.open(stdin, QIODevice::ReadOnly) : (file.setFileName(path), !file.open(QIODevice::ReadOnly)))
        return fail(Error, QStringLiteral("cannot read %1: %2").arg(path, file.errorString()));
    const QByteArray data = file.readAll();

    CatalogStore store(CatalogStore::pathBeside(session.options().dbPath));
    if (auto rc = openStore(session, &store, false))
        return *rc;
    QString error;
    CatalogStore::Snapshot before;
    if (!awaitAnswer<CatalogStore::Snapshot>([&](QObject *c, auto reply) {
            store.load(c, reply);
        },
            &before, &error))
        return fail(Error, error);
    CatalogProblem problem;
    const auto products = CatalogCsv::parseAny(data, before.meta.currency, &problem);
    if (!products)
        return fail(Error, QStringLiteral("%1: %2").arg(path, CatalogCsv::describe(problem)));
    CatalogStore::Meta meta = before.meta;
    meta.source = path == QLatin1String("-") ? QStringLiteral("stdin") : QFileInfo(path).absoluteFilePath();
    meta.etag.clear();
    CatalogStore::ImportSummary s;
    if (!awaitAnswer<CatalogStore::ImportSummary>([&](QObject *c, auto reply) {
            store.replace(*products, meta, c, reply);
        },
            &s, &error))
        return fail(Error, QStringLiteral("the catalog was not changed: %1").arg(error));
    if (cl.isSet(QStringLiteral("json"))) {
        outJson(QJsonObject{{QStringLiteral("imported"), int(products->size())}, {QStringLiteral("added"), s.added},
            {QStringLiteral("changed"), s.changed}, {QStringLiteral("unchanged"), s.unchanged},
            {QStringLiteral("retired"), s.retired}, {QStringLiteral("catalog"), store.path()}});
    } else {
        out(QStringLiteral("imported %1 products: %2 added, %3 changed, %4 unchanged, %5 retired (%6)\n")
                .arg(products->size())
                .arg(s.added)
                .arg(s.changed)
                .arg(s.unchanged)
                .arg(s.retired)
                .arg(store.path())
                .toUtf8());
    }
    return Succeeded;
}

int showCommand(CtlSession &session, const QStringList &arguments)
{
    CommandLine cl(QStringLiteral("catalog show"), QStringLiteral("CODE [--json]"),
        QStringLiteral("One product of the till's catalog, by its code or a barcode (retired ones too); price in\n"
                       "minor units in JSON. Exit 1 when no product has it."));
    cl.addOption({QStringLiteral("json"), QStringLiteral("One JSON line.")});
    if (auto rc = cl.parse(arguments))
        return *rc;
    if (cl.positionalArguments().size() != 1)
        return fail(Usage, QStringLiteral("catalog show needs one CODE"));
    const QString code = cl.positionalArguments().constFirst().trimmed();
    CatalogStore::Snapshot snapshot;
    QString error;
    if (session.options().dbPath.isEmpty())
        return fail(Usage, QStringLiteral("no journal: give --db PATH or set ONCEPAY_DB (the catalog lives beside it)"));
    if (QFileInfo::exists(CatalogStore::pathBeside(session.options().dbPath))) {
        CatalogStore store(CatalogStore::pathBeside(session.options().dbPath));
        if (auto rc = openStore(session, &store, true))
            return *rc;
        if (!awaitAnswer<CatalogStore::Snapshot>([&](QObject *c, auto reply) {
                store.load(c, reply);
            },
                &snapshot, &error))
            return fail(Error, error);
    }
    if (snapshot.products.isEmpty()) {
        Catalog demo;
        if (!demo.load(kDemoCatalog, &error))
            return fail(Error, error);
        snapshot.products = demo.products();
        snapshot.meta.currency = demo.currency();
    }
    const Product *found = nullptr;
    for (const Product &p : std::as_const(snapshot.products)) {
        if (p.code == code || (!found && p.barcodes.contains(code)))
            found = &p;
    }
    if (!found)
        return fail(Error, QStringLiteral("no product has the code or barcode \"%1\"").arg(code));
    if (cl.isSet(QStringLiteral("json"))) {
        outJson(productJson(*found, snapshot.meta.currency));
        return Succeeded;
    }
    const Product &p = *found;
    out(QStringLiteral("code       %1\nname       %2\nname_zh    %3\nprice      %4 %5%6\nvat        %7\n"
                       "barcodes   %8\ncategory   %9\nunit       %10\nquick_key  %11\nopen_price %12\nretired    %13\n")
            .arg(p.code, p.nameEn, p.nameZh, p.price.toDecimalString(), snapshot.meta.currency,
                p.unit == SaleUnit::Kilogram ? QStringLiteral(" per kg") : QString(), vatRateText(p.vatBasisPoints),
                p.barcodes.join(QLatin1Char('|')), p.category)
            .arg(saleUnitName(p.unit), p.quickKey > 0 ? QString::number(p.quickKey) : QStringLiteral("-"),
                p.openPrice ? QStringLiteral("yes") : QStringLiteral("no"), p.retired ? QStringLiteral("yes") : QStringLiteral("no"))
            .toUtf8());
    return Succeeded;
}

int exportCommand(CtlSession &session, const QStringList &arguments)
{
    CommandLine cl(QStringLiteral("catalog export"), QStringLiteral("[--format csv|json]"),
        QStringLiteral("Every product of the till's catalog, retired ones too, on standard output: CSV that\n"
                       "`catalog import` reads back (default), or JSON."));
    cl.addOption({QStringLiteral("format"), QStringLiteral("csv or json."), QStringLiteral("FORMAT"), QStringLiteral("csv")});
    if (auto rc = cl.parse(arguments))
        return *rc;
    const QString format = cl.value(QStringLiteral("format"));
    if (format != QLatin1String("csv") && format != QLatin1String("json"))
        return fail(Usage, QStringLiteral("--format is csv or json, not \"%1\"").arg(format));
    CatalogStore store(CatalogStore::pathBeside(session.options().dbPath));
    if (auto rc = openStore(session, &store, true))
        return *rc;
    CatalogStore::Snapshot snapshot;
    QString error;
    if (!awaitAnswer<CatalogStore::Snapshot>([&](QObject *c, auto reply) {
            store.load(c, reply);
        },
            &snapshot, &error))
        return fail(Error, error);
    if (format == QLatin1String("csv")) {
        out(CatalogCsv::write(snapshot.products));
    } else {
        QJsonArray all;
        for (const Product &p : std::as_const(snapshot.products))
            all.append(productJson(p, snapshot.meta.currency));
        outJson(all);
    }
    return Succeeded;
}

}   // namespace

int catalogCommand(CtlSession &session, const QStringList &arguments)
{
    const QString sub = arguments.value(0);
    const QStringList rest = arguments.mid(1);
    if (sub == QLatin1String("import"))
        return importCommand(session, rest);
    if (sub == QLatin1String("show"))
        return showCommand(session, rest);
    if (sub == QLatin1String("export"))
        return exportCommand(session, rest);
    if (sub.isEmpty())
        return fail(Usage, QStringLiteral("catalog needs a command: import, show or export (try catalog --help)"));
    if (sub == QLatin1String("--help") || sub == QLatin1String("-h")) {
        out(QByteArrayLiteral("Usage: oncepay-ctl catalog import FILE [--json]\n"
                              "       oncepay-ctl catalog show CODE [--json]\n"
                              "       oncepay-ctl catalog export [--format csv|json]\n"
                              "The till's catalog, kept beside its journal (--db). `oncepay-ctl catalog SUBCOMMAND --help`\n"
                              "shows a subcommand's options.\n"));
        return Succeeded;
    }
    return fail(Usage, QStringLiteral("unknown catalog command \"%1\" (import, show or export)").arg(sub));
}

bool loadSaleCatalog(const QString &journalPath, Catalog *catalog, TaxMode *mode, QString *error)
{
    *mode = TaxMode::Inclusive;
    const QString path = CatalogStore::pathBeside(journalPath);
    if (!journalPath.isEmpty() && QFileInfo::exists(path)) {
        CatalogStore store(path);
        if (!store.open(error))
            return false;
        CatalogStore::Snapshot snapshot;
        if (!awaitAnswer<CatalogStore::Snapshot>([&](QObject *c, auto reply) {
                store.load(c, reply);
            },
                &snapshot, error))
            return false;
        if (!snapshot.products.isEmpty()) {
            catalog->setProducts(snapshot.products, snapshot.meta.currency);
            *mode = snapshot.meta.taxMode;
            return true;
        }
    }
    return catalog->load(kDemoCatalog, error);
}

}   // namespace OncePay::Ctl
