#include "databasespec.h"

#include <QUrl>

namespace OncePay {

std::optional<DatabaseSpec> DatabaseSpec::parse(const QString &spec, QString *error)
{
    DatabaseSpec o;
    if (!spec.startsWith(QLatin1String("postgresql:")) && !spec.startsWith(QLatin1String("postgres:"))) {
        o.path = spec;
        return o;
    }
    const QUrl url(spec, QUrl::StrictMode);
    const QString db = url.path().mid(1);
    if (!url.isValid() || url.host().isEmpty() || db.isEmpty() || db.contains(QLatin1Char('/'))) {
        *error = QStringLiteral("expected postgresql://USER:PASS@HOST:PORT/DBNAME");
        return std::nullopt;
    }
    o.driver = SqlBatchWorker::Driver::PostgreSql;
    o.hostName = url.host();
    o.port = url.port(5432);
    o.userName = url.userName(QUrl::FullyDecoded);
    o.password = url.password(QUrl::FullyDecoded);
    o.path = db;
    return o;
}

void DatabaseSpec::applyTo(SqlBatchWorker::Options &options) const
{
    options.driver = driver;
    options.path = path;
    options.hostName = hostName;
    options.port = port;
    options.userName = userName;
    options.password = password;
}

}   // namespace OncePay
