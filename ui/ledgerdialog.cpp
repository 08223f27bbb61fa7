#include "ledgerdialog.h"

#include "cartmodel.h"

#include <QDateTime>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QSet>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

namespace OncePay::Ui {

LedgerDialog::LedgerDialog(TillSession *session, QWidget *parent)
    : QDialog(parent)
    , m_session(session)
    // Straight to the gateway: the ledger is the ground truth, not subject to the simulated network.
    , m_client(new GatewayClient(session->demoGatewayUrl(), QStringLiteral("sk_test_demo_till1"), 5000, this))
{
    setWindowTitle(tr("The bank's ledger"));
    auto *layout = new QVBoxLayout(this);
    m_summary = new QLabel(this);
    m_summary->setAccessibleName(tr("Ledger summary"));
    layout->addWidget(m_summary);
    m_table = new QTableWidget(0, 4, this);
    m_table->setAccessibleName(tr("Charges in the bank's ledger"));
    m_table->setHorizontalHeaderLabels({tr("Time"), tr("Idempotency key"), tr("Amount"), tr("Result")});
    m_table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    layout->addWidget(m_table);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    auto *timer = new QTimer(this);
    timer->setInterval(1000);
    connect(timer, &QTimer::timeout, this, &LedgerDialog::refresh);
    timer->start();
    refresh();
    resize(760, 420);
}

void LedgerDialog::refresh()
{
    m_client->send("GET", QStringLiteral("/v1/_sim/acquirer/charges"), {}, [this](const GatewayResult &r) {
        if (!r.answered() || r.status != 200) {
            m_summary->setText(tr("The ledger could not be read: %1").arg(r.summary()));
            return;
        }
        const QJsonArray rows = r.json.value(QStringLiteral("data")).toArray();
        m_table->setRowCount(int(rows.size()));
        QSet<QString> keys;
        int charged = 0;
        for (int i = 0; i < rows.size(); ++i) {
            const QJsonObject o = rows.at(i).toObject();
            const QString key = o.value(QStringLiteral("idempotency_key")).toString();
            const bool ok = o.value(QStringLiteral("status")).toString() == QLatin1String("succeeded");
            keys.insert(key);
            charged += ok;
            const QDateTime at = QDateTime::fromString(o.value(QStringLiteral("created_at")).toString(), Qt::ISODateWithMs);
            const QStringList cells{at.toLocalTime().toString(QStringLiteral("HH:mm:ss")), key,
                                    formatMoney(Money(o.value(QStringLiteral("amount")).toInteger(), o.value(QStringLiteral("currency")).toString())),
                                    ok ? tr("charged") : tr("declined")};
            for (int c = 0; c < cells.size(); ++c)
                m_table->setItem(i, c, new QTableWidgetItem(cells.at(c)));
        }
        m_summary->setText(tr("%1 charge(s) for %2 key(s): never two for one key.").arg(charged).arg(keys.size()));
    });
}

} // namespace OncePay::Ui
