#include "office/officecommands.h"

#include "bearertoken.h"
#include "databasespec.h"
#include "office/officestore.h"

#include <QCommandLineParser>
#include <QRegularExpression>

namespace OncePay::Office::OfficeCommands {

namespace {

// Store, till and merchant names: what a URL path and a log line can carry as they are.
bool isName(const QString &text)
{
    static const QRegularExpression name(QStringLiteral("^[A-Za-z0-9_.-]{1,32}$"));
    return name.match(text).hasMatch();
}

int usage(QTextStream &err, const QString &message)
{
    err << "oncepay-office: " << message << '\n';
    err.flush();
    return 2;
}

}   // namespace

bool isCommand(const QStringList &arguments)
{
    return arguments.size() >= 2 && (arguments.at(1) == QLatin1String("till") || arguments.at(1) == QLatin1String("owner"));
}

int run(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    const bool till = arguments.at(1) == QLatin1String("till");
    const QString command = arguments.at(1) + QStringLiteral(" add");
    if (arguments.size() < 3 || arguments.at(2) != QLatin1String("add"))
        return usage(err, QStringLiteral("expected \"%1 add\"").arg(arguments.at(1)));
    QCommandLineParser p;
    const QCommandLineOption db(QStringLiteral("db"), QStringLiteral("The office's database."), QStringLiteral("PATH|URL"));
    const QCommandLineOption store(QStringLiteral("store"), QStringLiteral("The store."), QStringLiteral("S"));
    const QCommandLineOption tillNumber(QStringLiteral("till"), QStringLiteral("The till."), QStringLiteral("N"));
    const QCommandLineOption merchant(QStringLiteral("merchant"),
        QStringLiteral("The merchant (default: the only one in the database, or \"main\")."), QStringLiteral("M"));
    p.addOptions({db, store, merchant});
    if (till)
        p.addOption(tillNumber);
    QStringList args = arguments;
    args.removeAt(2);
    args.removeAt(1);
    if (!p.parse(args))
        return usage(err, QStringLiteral("%1: %2").arg(command, p.errorText()));
    if (!p.positionalArguments().isEmpty())
        return usage(err, QStringLiteral("%1: unexpected argument: %2").arg(command, p.positionalArguments().constFirst()));
    if (p.value(db).isEmpty())
        return usage(err, QStringLiteral("%1: --db is required").arg(command));
    if (till && (!p.isSet(store) || !p.isSet(tillNumber)))
        return usage(err, QStringLiteral("till add: --store S and --till N are required"));
    for (const QCommandLineOption *o : {&store, &tillNumber, &merchant}) {
        if ((till || o != &tillNumber) && p.isSet(*o) && !isName(p.value(*o)))
            return usage(err, QStringLiteral("%1: --%2: expected 1 to 32 of A-Z a-z 0-9 _ . -, got \"%3\"").arg(command, o->names().constFirst(), p.value(*o)));
    }
    QString error;
    const std::optional<DatabaseSpec> spec = DatabaseSpec::parse(p.value(db), &error);
    if (!spec)
        return usage(err, QStringLiteral("%1: --db: %2").arg(command, error));

    OfficeStore officeStore(OfficeStore::Options{*spec, 5000, 1});
    if (!officeStore.open(&error)) {
        err << "oncepay-office: " << command << ": " << error << '\n';
        return 1;
    }
    QString merchantName = p.value(merchant);
    if (merchantName.isEmpty()) {
        const std::optional<QString> sole = officeStore.soleMerchant(QStringLiteral("main"), &error);
        if (!sole) {
            err << "oncepay-office: " << command << ": " << error << '\n';
            return 1;
        }
        merchantName = *sole;
    }
    const QByteArray token = BearerToken::generate(QByteArrayLiteral("ot_"));
    const bool added = till ? officeStore.addTillToken(merchantName, p.value(store), p.value(tillNumber), token, &error)
                            : officeStore.addOwnerToken(merchantName, p.value(store), token, &error);
    officeStore.close();
    if (!added) {
        err << "oncepay-office: " << command << ": " << error << '\n';
        return 1;
    }
    out << token << '\n';
    return 0;
}

}   // namespace OncePay::Office::OfficeCommands
