#pragma once

#include "simulationclient.h"

#include <QDialog>

class QLabel;
class QTableWidget;

namespace OncePay::Ui {

// The simulated bank's own ledger, for an audience: every charge with its key, refreshed while
// open, so that "one charge per sale" can be seen rather than believed.
class LedgerDialog final : public QDialog
{
    Q_OBJECT

public:
    explicit LedgerDialog(SimulationClient *simulation, QWidget *parent = nullptr);

private:
    void refresh();

    SimulationClient *m_simulation;
    QTableWidget *m_table = nullptr;
    QLabel *m_summary = nullptr;
};

} // namespace OncePay::Ui
