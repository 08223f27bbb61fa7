// The shop's catalog at size (issue 23): import a CSV of N products (read, check, store in one
// transaction), load it back and index it, then look products up by code and barcode, and
// search names, as a till does for every scan. Figures for BENCHMARKS.md; the targets (50,000
// products: import at most 2 s, code lookup under 1 ms, name search under 20 ms) are checked
// by reading them, not by a timed test.
//
//   oncepay-bench-catalog --products 50000 --dir /work
#include "barcode.h"
#include "catalog.h"
#include "catalogstore.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>

using namespace OncePay;

namespace {

const char *const kWords[] = {"green", "tea", "rice", "noodles", "soy", "milk", "bun", "egg", "seeds", "sauce", "oil",
    "apple", "pear", "cable", "notebook", "umbrella", "water", "juice", "cola", "bread", "cake", "salt", "sugar", "pepper"};

QString ean13(qint64 n)
{
    const QString body = QStringLiteral("69%1").arg(n, 10, 10, QLatin1Char('0'));
    return body + QString::number(Barcode::checkDigit(body));
}

QByteArray makeCsv(int products)
{
    QRandomGenerator random(23);
    QByteArray csv = "code,barcode,name,name_zh,price,vat,category,unit,quick_key\n";
    const int rates[] = {13, 9, 6, 0};
    for (int i = 0; i < products; ++i) {
        const QString name = QStringLiteral("%1 %2 %3").arg(QLatin1String(kWords[random.bounded(24)]), QLatin1String(kWords[random.bounded(24)]), QString::number(i));
        csv += QStringLiteral("P%1,%2,%3,商品%1,%4.%5,%6,Cat%7,%8,%9\n")
                   .arg(i)
                   .arg(ean13(i), name)
                   .arg(random.bounded(1, 500))
                   .arg(random.bounded(100), 2, 10, QLatin1Char('0'))
                   .arg(rates[random.bounded(4)])
                   .arg(random.bounded(20))
                   .arg(i % 50 == 0 ? QStringLiteral("kg") : QStringLiteral("each"), i < 40 ? QString::number(i + 1) : QString())
                   .toUtf8();
    }
    return csv;
}

template <typename T, typename Call>
T wait(Call call)
{
    bool done = false;
    T value{};
    QObject context;
    call(&context, [&](bool ok, const QString &error, T v) {
        if (!ok)
            std::fprintf(stderr, "store: %s\n", qPrintable(error));
        value = std::move(v);
        done = true;
    });
    while (!done)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    return value;
}

}   // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser p;
    p.addHelpOption();
    p.addOptions({{QStringLiteral("products"), QStringLiteral("Products in the catalog."), QStringLiteral("N"), QStringLiteral("50000")},
        {QStringLiteral("dir"), QStringLiteral("Where the files go (a real disk)."), QStringLiteral("DIR")},
        {QStringLiteral("lookups"), QStringLiteral("Lookups and searches to time."), QStringLiteral("N"), QStringLiteral("2000")}});
    p.process(app);
    bool ok = false;
    const int products = p.value(QStringLiteral("products")).toInt(&ok);
    const int lookups = p.value(QStringLiteral("lookups")).toInt();
    if (!ok || products < 1 || lookups < 1) {
        std::fprintf(stderr, "oncepay-bench-catalog: --products and --lookups need numbers above 0\n");
        return 2;
    }
    QTemporaryDir dir(p.isSet(QStringLiteral("dir")) ? p.value(QStringLiteral("dir")) + QStringLiteral("/bench-catalog-XXXXXX")
                                                     : QString());
    const QString csvPath = dir.filePath(QStringLiteral("catalog.csv"));
    {
        QFile f(csvPath);
        if (!f.open(QIODevice::WriteOnly) || f.write(makeCsv(products)) < 0) {
            std::fprintf(stderr, "oncepay-bench-catalog: cannot write %s\n", qPrintable(csvPath));
            return 1;
        }
    }

    CatalogStore store(CatalogStore::pathBeside(dir.filePath(QStringLiteral("till.db"))));
    QString error;
    if (!store.open(&error)) {
        std::fprintf(stderr, "oncepay-bench-catalog: %s\n", qPrintable(error));
        return 1;
    }
    QElapsedTimer t;
    t.start();
    const auto imported = wait<CatalogStore::FileImport>([&](QObject *c, auto reply) {
        store.importFile(csvPath, c, reply);
    });
    const double importMs = t.nsecsElapsed() / 1e6;
    if (imported.products != products) {
        std::fprintf(stderr, "oncepay-bench-catalog: imported %d of %d\n", imported.products, products);
        return 1;
    }
    // A second import of the same file: every product compared, none changed.
    t.restart();
    const auto again = wait<CatalogStore::FileImport>([&](QObject *c, auto reply) {
        store.importFile(csvPath, c, reply);
    });
    const double reimportMs = t.nsecsElapsed() / 1e6;
    if (again.summary.unchanged != products)
        return 1;

    t.restart();
    const auto snapshot = wait<CatalogStore::Snapshot>([&](QObject *c, auto reply) {
        store.load(c, reply);
    });
    const double loadMs = t.nsecsElapsed() / 1e6;
    t.restart();
    Catalog catalog;
    catalog.setProducts(snapshot.products, snapshot.meta.currency);
    const double indexMs = t.nsecsElapsed() / 1e6;

    QRandomGenerator random(7);
    // Code and barcode lookups, as find() does for a scan: the worst of them and the mean.
    double worstLookupUs = 0;
    t.restart();
    int found = 0;
    for (int i = 0; i < lookups; ++i) {
        const int n = random.bounded(products);
        QElapsedTimer one;
        one.start();
        found += catalog.find(i % 2 ? QStringLiteral("P%1").arg(n) : ean13(n)) ? 1 : 0;
        worstLookupUs = std::max(worstLookupUs, one.nsecsElapsed() / 1e3);
    }
    const double lookupUs = t.nsecsElapsed() / 1e3 / lookups;
    if (found != lookups)
        return 1;
    // Name searches (a word start, English; a part of a Chinese name): every product is looked at.
    const int searches = std::max(1, lookups / 20);
    double worstSearchMs = 0;
    qsizetype matched = 0;
    t.restart();
    for (int i = 0; i < searches; ++i) {
        const QString query = i % 3 == 2 ? QStringLiteral("商品%1").arg(random.bounded(products))
                                         : QLatin1String(kWords[random.bounded(24)]).left(3 + i % 3);
        QElapsedTimer one;
        one.start();
        matched += catalog.matches(query).size();
        worstSearchMs = std::max(worstSearchMs, one.nsecsElapsed() / 1e6);
    }
    const double searchMs = t.nsecsElapsed() / 1e6 / searches;

    std::printf("products %d  file %.1f MB\n", products, QFileInfo(csvPath).size() / 1e6);
    std::printf("import (read, check, store)   %8.1f ms\n", importMs);
    std::printf("import again (all unchanged)  %8.1f ms\n", reimportMs);
    std::printf("load from the store           %8.1f ms\n", loadMs);
    std::printf("index in memory               %8.1f ms\n", indexMs);
    std::printf("lookup by code/barcode        %8.2f us mean, %.2f us worst (%d)\n", lookupUs, worstLookupUs, lookups);
    std::printf("name search                   %8.2f ms mean, %.2f ms worst (%d, %lld matches)\n", searchMs, worstSearchMs,
        searches, qlonglong(matched));
    return 0;
}
