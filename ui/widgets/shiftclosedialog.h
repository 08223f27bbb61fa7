#pragma once

#include "shiftcloseviewmodel.h"
#include "staffsession.h"

#include <QDialog>

class QCheckBox;
class QFormLayout;
class QLabel;
class QSortFilterProxyModel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace OncePay::Ui {

class ShiftChartView;

// Sale → Close shift: the Z report on screen (totals, cash drawer, what waits, sales per hour) and
// its reconciliation rows with what to do; the cash counted; Print, Save as PDF; and Close shift,
// confirmed by a question that names what still waits. Renders ShiftCloseViewModel.
class ShiftCloseDialog final : public QDialog
{
    Q_OBJECT

public:
    ShiftCloseDialog(TillSession *session, const QString &currency, const QString &terminal, const QString &shopName,
        QWidget *parent = nullptr);
    ShiftCloseViewModel *viewModel() { return &m_vm; }
    // The receipt printer (issue 24): Print goes there when one is set, and the report of a shift
    // closed here prints by itself, once.
    void setDevices(class CounterDevices *devices) { m_devices = devices; }
    // Issue 36: a close with the cash further off than `limit` (minor units; 0: any difference)
    // waits for a manager's PIN through `gate` (none: closes as before).
    void setManagerGate(ManagerGate gate, qint64 limit);

private:
    void showReport();
    void showPhase();
    void foldAgreeing(bool showAll);
    void confirmClose();
    void print();
    void savePdf();
    QString documentHtml() const;
    // The refunds the till owes, under their heading (shown and asked about).
    static QString owedText(const QStringList &owed);

    ShiftCloseViewModel m_vm;
    class CounterDevices *m_devices = nullptr;
    ManagerGate m_gate;
    QString m_terminal;
    QString m_shopName;
    QLabel *m_title = nullptr;
    QLabel *m_status = nullptr;
    QTableView *m_totals = nullptr;
    QLabel *m_expected = nullptr;
    QLineEdit *m_counted = nullptr;
    QLabel *m_difference = nullptr;
    QLineEdit *m_nextFloat = nullptr;
    QLineEdit *m_openingFloat = nullptr;   // the first shift only
    QFormLayout *m_cash = nullptr;
    QLabel *m_waiting = nullptr;
    ShiftChartView *m_chart = nullptr;
    QLabel *m_summary = nullptr;
    QTableView *m_findings = nullptr;
    QSortFilterProxyModel *m_needing = nullptr;   // m_vm.findings(), the rows that agree folded
    QCheckBox *m_showAgreeing = nullptr;
    QLabel *m_allAgree = nullptr;
    QPushButton *m_close = nullptr;
    QPushButton *m_refresh = nullptr;
};

}   // namespace OncePay::Ui
