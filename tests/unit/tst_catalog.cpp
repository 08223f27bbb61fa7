#include "catalog.h"
#include "catalogcsv.h"
#include "catalogstore.h"

#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace OncePay;

Q_DECLARE_METATYPE(CatalogProblem::Kind)

namespace {

const QByteArray kHeader = "code,barcode,name,name_zh,price,vat,category,unit\n";

template <typename T>
T waitFor(const std::function<void(QObject *, CatalogStore::Reply<T>)> &call, bool *okOut = nullptr)
{
    QObject context;
    bool done = false;
    bool ok = false;
    T value{};
    call(&context, [&](bool o, const QString &error, T v) {
        if (!o)
            qWarning() << error;
        ok = o;
        value = std::move(v);
        done = true;
    });
    if (!QTest::qWaitFor([&] {
            return done;
        }))
        qFatal("the catalog store never answered");
    if (okOut)
        *okOut = ok;
    return value;
}

}   // namespace

class TestCatalog final : public QObject
{
    Q_OBJECT

private slots:
    void parsesAFile();
    void problems_data();
    void problems();
    void describesEveryProblem();
    void writesWhatItReads();
    void readsTheDemoJson();
    void findsByCodeBarcodeAndName();
    void storeImportsRetiresAndEdits();
    void storeRefusesAForeignFile();
    void categoriesHaveAChineseName();
    void storeOfAnEarlierTillIsMigrated();
};

void TestCatalog::parsesAFile()
{
    // Columns in another order, an extra column, CRLF, a BOM, a quoted name with a comma and a
    // quote, two barcodes, a weighed product, an open price.
    const QByteArray csv = "\xEF\xBB\xBF"
                           "unit,name,code,price,vat,barcode,name_zh,category,supplier,quick_key,open_price\r\n"
                           "each,\"Tea, \"\"green\"\"\",T1,12.50,13,6901234500011|73513537,绿茶,Drinks,ACME,1,no\r\n"
                           "kg,Apples,A1,9.80,9,,苹果,Fruit,,2,\r\n"
                           "each,Gift wrap,G1,,6,,,Service,,,yes\r\n";
    CatalogProblem problem;
    const auto products = CatalogCsv::parse(csv, QStringLiteral("CNY"), &problem);
    QVERIFY2(products, qPrintable(CatalogCsv::describe(problem)));
    QCOMPARE(products->size(), 3);
    const Product &tea = products->at(0);
    QCOMPARE(tea.code, QStringLiteral("T1"));
    QCOMPARE(tea.nameEn, QStringLiteral("Tea, \"green\""));
    QCOMPARE(tea.nameZh, QStringLiteral("绿茶"));
    QCOMPARE(tea.price, Money(1250, QStringLiteral("CNY")));
    QCOMPARE(tea.vatBasisPoints, 1300);
    QCOMPARE(tea.barcodes, QStringList({QStringLiteral("6901234500011"), QStringLiteral("73513537")}));
    QCOMPARE(tea.category, QStringLiteral("Drinks"));
    QCOMPARE(tea.quickKey, 1);
    QVERIFY(!tea.openPrice);
    QCOMPARE(products->at(1).unit, SaleUnit::Kilogram);
    QCOMPARE(products->at(1).vatBasisPoints, 900);
    QVERIFY(products->at(2).openPrice);
    QCOMPARE(products->at(2).price.minorUnits(), 0);
}

void TestCatalog::problems_data()
{
    QTest::addColumn<QByteArray>("csv");
    QTest::addColumn<CatalogProblem::Kind>("kind");
    QTest::addColumn<int>("line");
    QTest::addColumn<QString>("column");

    using K = CatalogProblem::Kind;
    const QByteArray ok = "T1,6901234500011,Tea,茶,4.50,13,Drinks,each\n";
    QTest::newRow("empty file") << QByteArray() << K::Empty << 1 << "";
    QTest::newRow("missing column") << QByteArray("code,barcode,name,name_zh,price,category,unit\n") << K::MissingColumn << 1
                                    << "vat";
    QTest::newRow("column twice") << QByteArray("code,code,barcode,name,name_zh,price,vat,category,unit\n")
                                  << K::DuplicateColumn << 1 << "code";
    QTest::newRow("not UTF-8") << QByteArray(kHeader + "T1,,Tea,\xB2\xE8,4.50,13,Drinks,each\n") << K::NotUtf8 << 0 << "";
    QTest::newRow("price with a comma") << QByteArray(kHeader + ok + "T2,,Coffee,咖啡,\"12,50\",13,Drinks,each\n") << K::BadPrice
                                        << 3 << "price";
    QTest::newRow("price three decimals") << QByteArray(kHeader + "T2,,Coffee,,1.505,13,Drinks,each\n") << K::BadPrice << 2
                                          << "price";
    QTest::newRow("negative price") << QByteArray(kHeader + "T2,,Coffee,,-1,13,Drinks,each\n") << K::BadPrice << 2 << "price";
    QTest::newRow("no price") << QByteArray(kHeader + "T2,,Coffee,,,13,Drinks,each\n") << K::MissingValue << 2 << "price";
    QTest::newRow("vat over 100") << QByteArray(kHeader + "T2,,Coffee,,1.00,130,Drinks,each\n") << K::BadVat << 2 << "vat";
    QTest::newRow("vat words") << QByteArray(kHeader + "T2,,Coffee,,1.00,standard,Drinks,each\n") << K::BadVat << 2 << "vat";
    QTest::newRow("unit") << QByteArray(kHeader + "T2,,Coffee,,1.00,13,Drinks,box\n") << K::BadUnit << 2 << "unit";
    QTest::newRow("no code") << QByteArray(kHeader + ok + ",,Coffee,,1.00,13,Drinks,each\n") << K::MissingValue << 3 << "code";
    QTest::newRow("no name") << QByteArray(kHeader + "T2,,,,1.00,13,Drinks,each\n") << K::MissingValue << 2 << "name";
    QTest::newRow("code twice") << QByteArray(kHeader + ok + "T1,,Coffee,,1.00,13,Drinks,each\n") << K::DuplicateCode << 3
                                << "code";
    QTest::newRow("barcode twice") << QByteArray(kHeader + ok + "T2,6901234500011,Coffee,,1.00,13,Drinks,each\n")
                                   << K::DuplicateBarcode << 3 << "barcode";
    QTest::newRow("barcode check digit") << QByteArray(kHeader + "T2,6901234500012,Coffee,,1.00,13,Drinks,each\n")
                                         << K::BadBarcode << 2 << "barcode";
    QTest::newRow("barcode not a code") << QByteArray(kHeader + "T2,12 34,Coffee,,1.00,13,Drinks,each\n") << K::BadBarcode << 2
                                        << "barcode";
    QTest::newRow("too few fields") << QByteArray(kHeader + ok + "T2,,Coffee,12.50,13,Drinks,each\n") << K::WrongFieldCount
                                    << 3 << "";
    // A quoted name over two lines: the next record starts on line 4.
    QTest::newRow("line numbers count quoted breaks")
        << QByteArray(kHeader + "T2,,\"Two\nlines\",,1.00,13,Drinks,each\nT3,,Tea,,x,13,Drinks,each\n") << K::BadPrice << 4
        << "price";
    QTest::newRow("quote never closed") << QByteArray(kHeader + ok + "T2,,\"Coffee,,1.00,13,Drinks,each\n")
                                        << K::UnclosedQuote << 3 << "";
    QTest::newRow("quick key") << QByteArray("code,barcode,name,name_zh,price,vat,category,unit,quick_key\n"
                                             "T2,,Coffee,,1.00,13,Drinks,each,first\n")
                               << K::BadQuickKey << 2 << "quick_key";
    QTest::newRow("open price") << QByteArray("code,barcode,name,name_zh,price,vat,category,unit,open_price\n"
                                              "T2,,Coffee,,1.00,13,Drinks,each,maybe\n")
                                << K::BadOpenPrice << 2 << "open_price";
}

void TestCatalog::problems()
{
    QFETCH(QByteArray, csv);
    CatalogProblem problem;
    QVERIFY(!CatalogCsv::parse(csv, QStringLiteral("CNY"), &problem));
    QTEST(problem.kind, "kind");
    QTEST(problem.line, "line");
    QTEST(problem.column, "column");
    QVERIFY(!CatalogCsv::describe(problem).isEmpty());
}

void TestCatalog::describesEveryProblem()
{
    // Words name the line and the column, for a shop owner fixing the file.
    const CatalogProblem p{CatalogProblem::Kind::BadPrice, 7, QStringLiteral("price"), QStringLiteral("12,50")};
    const QString words = CatalogCsv::describe(p);
    QVERIFY2(words.contains(QLatin1String("7")) && words.contains(QLatin1String("price")) && words.contains(QLatin1String("12,50")),
        qPrintable(words));
}

void TestCatalog::writesWhatItReads()
{
    QList<Product> products;
    Product a{QStringLiteral("T1"), QStringLiteral("Tea, \"green\""), QStringLiteral("绿茶"), Money(1250, QStringLiteral("CNY"))};
    a.barcodes = {QStringLiteral("6901234500011"), QStringLiteral("73513537")};
    a.vatBasisPoints = 1300;
    a.category = QStringLiteral("Drinks");
    a.quickKey = 3;
    Product b{QStringLiteral("A1"), QStringLiteral("Apples\nred"), QString(), Money(980, QStringLiteral("CNY"))};
    b.vatBasisPoints = 650;
    b.unit = SaleUnit::Kilogram;
    b.openPrice = true;
    products << a << b;
    CatalogProblem problem;
    const auto back = CatalogCsv::parse(CatalogCsv::write(products), QStringLiteral("CNY"), &problem);
    QVERIFY2(back, qPrintable(CatalogCsv::describe(problem)));
    QCOMPARE(*back, products);
}

void TestCatalog::readsTheDemoJson()
{
    Catalog catalog;
    QString error;
    QVERIFY2(catalog.load(QStringLiteral(ONCEPAY_DEMO_CATALOG), &error), qPrintable(error));
    QVERIFY(catalog.products().size() >= 10);
    for (const Product &p : catalog.products())
        QVERIFY2(p.vatBasisPoints > 0 || p.category == QLatin1String("Service"), qPrintable(p.code));
    CatalogProblem problem;
    const auto again = CatalogCsv::parseAny(Catalog::toJson(catalog.products(), catalog.currency()), QStringLiteral("CNY"), &problem);
    QVERIFY(again);
    QCOMPARE(*again, catalog.products());
    QVERIFY(!CatalogCsv::parseAny("{\"products\": [{\"code\": \"X\", \"price\": 1.5}]}", QStringLiteral("CNY"), &problem));
    QCOMPARE(problem.kind, CatalogProblem::Kind::NotACatalog);
}

void TestCatalog::findsByCodeBarcodeAndName()
{
    Product tea{QStringLiteral("T1"), QStringLiteral("Jasmine green tea"), QStringLiteral("茉莉绿茶"), Money(450, QStringLiteral("CNY"))};
    tea.barcodes = {QStringLiteral("6901234500011")};
    Product oolong{QStringLiteral("T2"), QStringLiteral("Oolong tea"), QStringLiteral("乌龙茶"), Money(500, QStringLiteral("CNY"))};
    Product gone{QStringLiteral("T3"), QStringLiteral("Old tea"), QString(), Money(100, QStringLiteral("CNY"))};
    gone.retired = true;
    Catalog c;
    c.setProducts({tea, oolong, gone}, QStringLiteral("CNY"));
    QCOMPARE(c.products().size(), 2);   // a retired product is not sold
    QCOMPARE(c.find(QStringLiteral("T1"))->code, QStringLiteral("T1"));
    QCOMPARE(c.find(QStringLiteral("6901234500011"))->code, QStringLiteral("T1"));
    QCOMPARE(c.find(QStringLiteral("oolong"))->code, QStringLiteral("T2"));
    QCOMPARE(c.find(QStringLiteral("green"))->code, QStringLiteral("T1"));   // a word of the name
    QCOMPARE(c.find(QStringLiteral("乌龙"))->code, QStringLiteral("T2"));
    QCOMPARE(c.matches(QStringLiteral("tea")).size(), 2);   // a word of both names
    QCOMPARE(c.matches(QStringLiteral("ea")).size(), 0);   // inside a word is not a start
}

void TestCatalog::storeImportsRetiresAndEdits()
{
    QTemporaryDir dir;
    const QString path = CatalogStore::pathBeside(dir.filePath(QStringLiteral("till.db")));
    QCOMPARE(path, dir.filePath(QStringLiteral("till-catalog.db")));
    CatalogStore store(path);
    QString error;
    QVERIFY2(store.open(&error), qPrintable(error));
    QSignalSpy changed(&store, &CatalogStore::changed);

    auto product = [](const QString &code, qint64 price) {
        Product p{code, QStringLiteral("Product ") + code, QString(), Money(price, QStringLiteral("CNY"))};
        p.vatBasisPoints = 1300;
        return p;
    };
    CatalogStore::Meta meta;
    meta.source = QStringLiteral("first.csv");
    auto summary = waitFor<CatalogStore::ImportSummary>([&](QObject *c, auto reply) {
        store.replace({product(QStringLiteral("A"), 100), product(QStringLiteral("B"), 200)}, meta, c, reply);
    });
    QCOMPARE(summary.added, 2);
    QCOMPARE(changed.size(), 1);

    // A second file: A's price changes, B is gone (retired), C is new.
    meta.source = QStringLiteral("second.csv");
    summary = waitFor<CatalogStore::ImportSummary>([&](QObject *c, auto reply) {
        store.replace({product(QStringLiteral("C"), 300), product(QStringLiteral("A"), 150)}, meta, c, reply);
    });
    QCOMPARE(summary.added, 1);
    QCOMPARE(summary.changed, 1);
    QCOMPARE(summary.retired, 1);
    QCOMPARE(summary.unchanged, 0);

    // The editor adds one and changes another.
    Product d = product(QStringLiteral("D"), 400);
    d.nameZh = QStringLiteral("新品");
    bool ok = false;
    waitFor<bool>([&](QObject *c, auto reply) {
        store.save(d, c, reply);
    },
        &ok);
    QVERIFY(ok);

    // Read back after closing and opening again: it is on disk.
    store.close();
    CatalogStore again(path);
    QVERIFY2(again.open(&error), qPrintable(error));
    const auto snapshot = waitFor<CatalogStore::Snapshot>([&](QObject *c, auto reply) {
        again.load(c, reply);
    });
    QCOMPARE(snapshot.meta.source, QStringLiteral("second.csv"));
    QVERIFY(snapshot.meta.importedAt > 0);
    QStringList order;
    for (const Product &p : snapshot.products)
        order << p.code + (p.retired ? QStringLiteral("(retired)") : QString());
    // Catalog order is the last file's; the retired one keeps its place; new ones come last.
    QCOMPARE(order.join(QLatin1Char(' ')), QStringLiteral("C A B(retired) D"));
    Catalog catalog;
    catalog.setProducts(snapshot.products, snapshot.meta.currency);
    QCOMPARE(catalog.byCode(QStringLiteral("A"))->price.minorUnits(), 150);
    QVERIFY(!catalog.byCode(QStringLiteral("B")));
    QCOMPARE(catalog.byCode(QStringLiteral("D"))->nameZh, QStringLiteral("新品"));
}

void TestCatalog::storeRefusesAForeignFile()
{
    // A file of another program (here: a journal-like SQLite with its own table) is not taken.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("other.db"));
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("this is not a database, it is a note\n");
    }
    CatalogStore store(path);
    QString error;
    QVERIFY(!store.open(&error));
    QVERIFY(!error.isEmpty());
}

// Issue 36, confusion 7: a category has a Chinese name as a product has (the CSV's optional
// category_zh), kept through the CSV, the JSON and the store; the product grid shows it in Chinese.
// A file without the column imports as before, its categories called by their own name.
void TestCatalog::categoriesHaveAChineseName()
{
    const QByteArray csv = "code,barcode,name,name_zh,price,vat,category,category_zh,unit\n"
                           "T1,,Tea,茶,4.50,13,Drinks,饮料,each\n"
                           "T2,,Coffee,咖啡,12.00,13,Drinks,,each\n"
                           "S1,,Salt,盐,2.00,9,Groceries,,each\n";
    CatalogProblem problem;
    const auto products = CatalogCsv::parse(csv, QStringLiteral("CNY"), &problem);
    QVERIFY2(products, qPrintable(CatalogCsv::describe(problem)));
    QCOMPARE(products->at(0).categoryZh, QStringLiteral("饮料"));
    Catalog catalog;
    catalog.setProducts(*products, QStringLiteral("CNY"));
    QCOMPARE(catalog.categories(), (QStringList{QStringLiteral("Drinks"), QStringLiteral("Groceries")}));
    QCOMPARE(catalog.categoryName(QStringLiteral("Drinks"), true), QStringLiteral("饮料"));
    QCOMPARE(catalog.categoryName(QStringLiteral("Drinks"), false), QStringLiteral("Drinks"));
    QCOMPARE(catalog.categoryName(QStringLiteral("Groceries"), true), QStringLiteral("Groceries"));   // none given
    // Written and read again, as CSV and as JSON.
    const auto csvBack = CatalogCsv::parse(CatalogCsv::write(*products), QStringLiteral("CNY"), &problem);
    QVERIFY(csvBack);
    QCOMPARE(*csvBack, *products);
    const auto jsonBack = CatalogCsv::parseAny(Catalog::toJson(*products, QStringLiteral("CNY")), QStringLiteral("CNY"), &problem);
    QVERIFY(jsonBack);
    QCOMPARE(*jsonBack, *products);
    // An older file, without the column.
    const auto old = CatalogCsv::parse(kHeader + "T1,,Tea,茶,4.50,13,Drinks,each\n", QStringLiteral("CNY"), &problem);
    QVERIFY2(old, qPrintable(CatalogCsv::describe(problem)));
    QVERIFY(old->at(0).categoryZh.isEmpty());
    // The demo catalog names its categories in Chinese.
    Catalog demo;
    QString error;
    QVERIFY2(demo.load(QStringLiteral(ONCEPAY_DEMO_CATALOG), &error), qPrintable(error));
    for (const QString &category : demo.categories())
        QVERIFY2(demo.categoryName(category, true) != category, qPrintable(category));
    QCOMPARE(demo.categoryName(QStringLiteral("Drinks"), true), QStringLiteral("饮料"));
    // The store keeps it.
    QTemporaryDir dir;
    CatalogStore store(CatalogStore::pathBeside(dir.filePath(QStringLiteral("till.db"))));
    QVERIFY2(store.open(&error), qPrintable(error));
    waitFor<CatalogStore::ImportSummary>([&](QObject *c, auto reply) {
        store.replace(*products, CatalogStore::Meta{}, c, reply);
    });
    const auto snapshot = waitFor<CatalogStore::Snapshot>([&](QObject *c, auto reply) {
        store.load(c, reply);
    });
    QCOMPARE(snapshot.products.at(0).categoryZh, QStringLiteral("饮料"));
}

// A catalog file of a till before issue 36 (schema 1, no category_zh) opens, keeps its products,
// and takes Chinese category names from then on.
void TestCatalog::storeOfAnEarlierTillIsMigrated()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("till-catalog.db"));
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("v1"));
        db.setDatabaseName(path);
        QVERIFY(db.open());
        QSqlQuery q(db);
        for (const char *sql : {"PRAGMA application_id = 1330660180",
                 "CREATE TABLE products (code TEXT PRIMARY KEY, barcodes TEXT NOT NULL, name_en TEXT NOT NULL,"
                 " name_zh TEXT NOT NULL, price INTEGER NOT NULL, vat INTEGER NOT NULL, category TEXT NOT NULL,"
                 " unit TEXT NOT NULL, quick_key INTEGER NOT NULL, open_price INTEGER NOT NULL, retired INTEGER NOT NULL,"
                 " position INTEGER NOT NULL, updated_at INTEGER NOT NULL)",
                 "CREATE TABLE catalog_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
                 "INSERT INTO products VALUES ('T1', '', 'Tea', '茶', 450, 1300, 'Drinks', 'each', 0, 0, 0, 0, 1)",
                 "PRAGMA user_version = 1"})
            QVERIFY2(q.exec(QString::fromUtf8(sql)), sql);
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("v1"));
    CatalogStore store(path);
    QString error;
    QVERIFY2(store.open(&error), qPrintable(error));
    auto snapshot = waitFor<CatalogStore::Snapshot>([&](QObject *c, auto reply) {
        store.load(c, reply);
    });
    QCOMPARE(snapshot.products.size(), 1);
    QCOMPARE(snapshot.products.at(0).nameZh, QStringLiteral("茶"));
    QVERIFY(snapshot.products.at(0).categoryZh.isEmpty());
    Product tea = snapshot.products.at(0);
    tea.categoryZh = QStringLiteral("饮料");
    bool ok = false;
    waitFor<bool>([&](QObject *c, auto reply) {
        store.save(tea, c, reply);
    },
        &ok);
    QVERIFY(ok);
    snapshot = waitFor<CatalogStore::Snapshot>([&](QObject *c, auto reply) {
        store.load(c, reply);
    });
    QCOMPARE(snapshot.products.at(0).categoryZh, QStringLiteral("饮料"));
}

QTEST_GUILESS_MAIN(TestCatalog)
#include "tst_catalog.moc"
