#include "ledgerdialog.h"

#include <QDateTime>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QSet>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <memory>

namespace OncePay::Ui {

LedgerDialog::LedgerDialog(SimulationClient *simulation, QWidget *parent)
    : QDialog(parent)
    , m_simulation(simulation)
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

void LedgerDialog::setKeys(const QStringList &keys)
{
    m_keys = keys;
    setWindowTitle(keys.isEmpty() ? tr("The bank's ledger") : tr("The bank's ledger for this story"));
    refresh();
}

void LedgerDialog::refresh()
{
    auto failed = [this](const QString &error) {
        m_summary->setText(tr("The ledger could not be read: %1").arg(error));
    };
    // One question per key (the whole ledger may be longer than one page), charges and refunds;
    // no key: the whole ledger.
    const QStringList keys = m_keys.isEmpty() ? QStringList{QString()} : m_keys;
    auto charges = std::make_shared<QList<LedgerCharge>>();
    auto refunds = std::make_shared<QList<LedgerRefund>>();
    auto pending = std::make_shared<int>(int(keys.size()) * 2);
    auto error = std::make_shared<QString>();
    auto one = [this, charges, refunds, pending, error, failed](bool ok, const QString &e) {
        if (!ok)
            *error = e;
        if (--*pending == 0)
            error->isEmpty() ? showRows(*charges, *refunds) : failed(*error);
    };
    for (const QString &key : keys) {
        m_simulation->charges(key, this, [charges, one](bool ok, const QString &e, const QList<LedgerCharge> &r) {
            *charges += r;
            one(ok, e);
        });
        m_simulation->refunds(key, this, [refunds, one](bool ok, const QString &e, const QList<LedgerRefund> &r) {
            *refunds += r;
            one(ok, e);
        });
    }
}

void LedgerDialog::showRows(QList<LedgerCharge> charges, QList<LedgerRefund> refunds)
{
    struct Row
    {
        QDateTime at;
        QStringList cells;
    };
    QList<Row> rows;
    QSet<QString> keys;
    int charged = 0;
    int refunded = 0;
    for (const LedgerCharge &c : std::as_const(charges)) {
        keys.insert(c.key);
        charged += c.charged;
        QString what = c.charged ? tr("charged") : tr("declined");
        if (c.status == QLatin1String("reversed"))
            what = tr("reversed: money back");
        else if (c.status == QLatin1String("processing"))
            what = tr("waiting for the customer");
        rows.append({c.at, {c.at.toLocalTime().toString(QStringLiteral("HH:mm:ss")), c.key, c.amount.toDisplayString(), what}});
    }
    for (const LedgerRefund &r : std::as_const(refunds)) {
        refunded += r.refunded;
        rows.append({r.at, {r.at.toLocalTime().toString(QStringLiteral("HH:mm:ss")), r.key, QStringLiteral("\u2212") + r.amount.toDisplayString(), r.refunded ? tr("refunded (charge %1)").arg(r.chargeKey) : tr("refund refused")}});
    }
    // Newest first: what the audience just saw happen is on top.
    std::stable_sort(rows.begin(), rows.end(), [](const Row &a, const Row &b) {
        return a.at > b.at;
    });
    m_table->setRowCount(int(rows.size()));
    for (int i = 0; i < rows.size(); ++i) {
        for (int col = 0; col < rows.at(i).cells.size(); ++col)
            m_table->setItem(i, col, new QTableWidgetItem(rows.at(i).cells.at(col)));
    }
    QString summary = tr("%1 for %2: never two for one key.", "charges for keys")
                          .arg(tr("%n charge(s)", nullptr, charged), tr("%n key(s)", nullptr, int(keys.size())));
    if (refunded > 0)
        summary += QLatin1Char(' ') + tr("%n refund(s), never two for one charge.", nullptr, refunded);
    m_summary->setText(summary);
}

}   // namespace OncePay::Ui
