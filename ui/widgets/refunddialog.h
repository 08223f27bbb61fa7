#pragma once

#include "staffsession.h"

#include "receipt.h"
#include "refundviewmodel.h"

#include <QDialog>

class QButtonGroup;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QRadioButton;
class QTableView;

namespace OncePay {
class TillSession;
}

namespace OncePay::Ui {

class SaleRecords;

// Refund all or part of a paid sale, from the keyboard: the receipt number typed or scanned
// (or the sale chosen in the payments panel), the items to give back or an amount, a reason,
// then Refund (Enter). Renders a RefundViewModel and forwards input to it; the Refund button
// locks in the click's own handler, so a double click or a double Enter asks once. The refund's
// state follows in words; "Refund slip…" prints it or saves it as PDF (ReceiptDialog).
class RefundDialog final : public QDialog
{
    Q_OBJECT

public:
    RefundDialog(TillSession *session, SaleRecords *records, const ReceiptContext &context, Language language,
        QWidget *parent = nullptr);

    RefundViewModel *viewModel() { return &m_vm; }
    // Shows this sale (a payment, or a refund: its payment); the number field is filled in.
    void showSale(const Intent &intent);
    // A receipt number offered in the field, selected: Enter takes it, a scan replaces it.
    void suggestNumber(const QString &number);
    QPushButton *refundButton() const { return m_refund; }
    // A cash refund, and a card refund above `limit`, wait for a manager (issue 23).
    // The receipt printer and drawer (issue 24): the slip of a refund made here prints by itself,
    // once; a cash refund opens the drawer.
    void setDevices(class CounterDevices *devices) { m_devices = devices; }
    void setManagerGate(ManagerGate gate, const Money &limit)
    {
        m_gate = std::move(gate);
        m_limit = limit;
    }
    // The slip of the refund made here, as the receipt dialog shows it (empty before).
    QString slipHtml() const;

private:
    void find();
    void focusChoice();   // the first line's quantity, or the amount
    void refresh();
    void showPhase(RefundViewModel::Phase phase, const QString &message);
    void clickRefund();
    void openSlip();
    void printSlipOnce();

    RefundViewModel m_vm;
    TillSession *m_session = nullptr;
    class CounterDevices *m_devices = nullptr;
    bool m_slipPrinted = false;
    ManagerGate m_gate;
    Money m_limit;
    ReceiptContext m_context;
    Language m_language;
    QLineEdit *m_number = nullptr;
    QLabel *m_state = nullptr;
    QLabel *m_sale = nullptr;
    QLabel *m_paid = nullptr;
    QLabel *m_given = nullptr;
    QLabel *m_remains = nullptr;
    QRadioButton *m_byItems = nullptr;
    QRadioButton *m_byAmount = nullptr;
    QTableView *m_lines = nullptr;
    QPushButton *m_all = nullptr;
    QLineEdit *m_amount = nullptr;
    QComboBox *m_reason = nullptr;
    QLabel *m_tender = nullptr;
    QLabel *m_problem = nullptr;
    QPushButton *m_refund = nullptr;
    QPushButton *m_slip = nullptr;
};

}   // namespace OncePay::Ui
