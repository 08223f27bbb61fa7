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
    auto failed = [this](const QString &error) { m_summary->setText(tr("The ledger could not be read: %1").arg(error)); };
    if (m_keys.isEmpty()) {
        m_simulation->charges({}, this, [this, failed](bool ok, const QString &error, const QList<LedgerCharge> &rows) {
            ok ? showRows(rows) : failed(error);
        });
        return;
    }
    // One question per key: the whole ledger may be longer than one page.
    auto rows = std::make_shared<QList<LedgerCharge>>();
    auto pending = std::make_shared<int>(int(m_keys.size()));
    auto error = std::make_shared<QString>();
    for (const QString &key : std::as_const(m_keys)) {
        m_simulation->charges(key, this, [this, rows, pending, error, failed](bool ok, const QString &e, const QList<LedgerCharge> &r) {
            if (!ok)
                *error = e;
            *rows += r;
            if (--*pending == 0)
                error->isEmpty() ? showRows(*rows) : failed(*error);
        });
    }
}

void LedgerDialog::showRows(QList<LedgerCharge> rows)
{
    // Newest first: what the audience just saw happen is on top.
    std::stable_sort(rows.begin(), rows.end(), [](const LedgerCharge &a, const LedgerCharge &b) { return a.at > b.at; });
    m_table->setRowCount(int(rows.size()));
    QSet<QString> keys;
    int charged = 0;
    for (int i = 0; i < rows.size(); ++i) {
        const LedgerCharge &c = rows.at(i);
        keys.insert(c.key);
        charged += c.charged;
        const QStringList cells{c.at.toLocalTime().toString(QStringLiteral("HH:mm:ss")), c.key,
                                c.amount.toDisplayString(), c.charged ? tr("charged") : tr("declined")};
        for (int col = 0; col < cells.size(); ++col)
            m_table->setItem(i, col, new QTableWidgetItem(cells.at(col)));
    }
    m_summary->setText(tr("%1 for %2: never two for one key.", "charges for keys")
                           .arg(tr("%n charge(s)", nullptr, charged), tr("%n key(s)", nullptr, int(keys.size()))));
}

} // namespace OncePay::Ui
