#include "gatewaycluster.h"

GatewayCluster::GatewayCluster(int instances)
{
    for (int i = 0; i < instances; ++i)
        m_instances.push_back(std::make_unique<GatewayProcess>());
}

bool GatewayCluster::start(const QStringList &args, const QMap<int, QMap<QString, QString>> &envOf)
{
    if (!m_acquirer.start())
        return false;
    const QStringList withAcquirer = QStringList{QStringLiteral("--acquirer"), m_acquirer.baseUrl().toString()} + args;
    for (int i = 0; i < size(); ++i) {
        if (i > 0)
            instance(i).useDatabase(instance(0).sharedDatabase());
        if (!instance(i).start(withAcquirer, envOf.value(i)))
            return false;
    }
    return true;
}

QList<QUrl> GatewayCluster::urls() const
{
    QList<QUrl> out;
    for (const auto &g : m_instances)
        out << g->baseUrl();
    return out;
}

QByteArray GatewayCluster::failureMessage() const
{
    QByteArray out = m_acquirer.failureMessage();
    for (size_t i = 0; i < m_instances.size(); ++i)
        out += "\n=== instance " + QByteArray::number(qulonglong(i)) + " ===\n" + m_instances[i]->failureMessage();
    return out;
}
