#pragma once

#include "gatewayprocess.h"

#include <QList>
#include <QMap>
#include <QStringList>
#include <QUrl>

#include <memory>
#include <vector>

// Several instances of one gateway: one oncepay-acquirer process and N oncepay-gateway
// processes on one database (TestDatabase: a SQLite file, or a PostgreSQL database with
// ONCEPAY_TEST_BACKEND=postgresql), every instance calling the acquirer with --acquirer.
class GatewayCluster final
{
public:
    explicit GatewayCluster(int instances);

    // Starts the acquirer, then every instance with `args` (plus the env of `envOf[i]`).
    bool start(const QStringList &args, const QMap<int, QMap<QString, QString>> &envOf = {});

    int size() const { return int(m_instances.size()); }
    GatewayProcess &acquirer() { return m_acquirer; }
    GatewayProcess &instance(int i) { return *m_instances.at(size_t(i)); }
    QList<QUrl> urls() const;
    // Why start failed, or the stderr tails of every process.
    QByteArray failureMessage() const;

private:
    GatewayProcess m_acquirer{GatewayProcess::Program::Acquirer};
    std::vector<std::unique_ptr<GatewayProcess>> m_instances;
};
