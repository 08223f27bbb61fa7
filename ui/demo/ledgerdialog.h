#pragma once

#include "simulationclient.h"

#include <QDialog>

class QLabel;
class QTableWidget;

namespace OncePay::Ui {

// The simulated bank's own ledger, for an audience: every charge with its key, and every refund
// against one, refreshed while open, so that "one charge per sale" (and "one refund for a card
// the till gave up") can be seen rather than believed.
class LedgerDialog final : public QDialog
{
    Q_OBJECT

public:
    explicit LedgerDialog(SimulationClient *simulation, QWidget *parent = nullptr);
    // Only the charges of these keys (a demo story's payments); empty: every charge.
    void setKeys(const QStringList &keys);

private:
    void refresh();
    void showRows(QList<LedgerCharge> charges, QList<LedgerRefund> refunds);

    SimulationClient *m_simulation;
    QStringList m_keys;
    QTableWidget *m_table = nullptr;
    QLabel *m_summary = nullptr;
};

}   // namespace OncePay::Ui
