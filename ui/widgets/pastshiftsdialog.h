#pragma once

#include "tillsession.h"

#include <QDialog>
#include <QJsonArray>

class QLabel;
class QPushButton;
class QTableWidget;
class QTextBrowser;

namespace OncePay::Ui {

class ShiftChartView;

// The shifts closed on this till, newest first (the journal keeps every close): number, when it
// closed, net takings, the drawer as counted and whether the server checked it; the selected
// shift's report below, as it was printed (its totals, drawer, chart and reconciliation), and
// printed again on the receipt printer as the close printed it (issue 36).
class PastShiftsDialog final : public QDialog
{
    Q_OBJECT

public:
    static constexpr int kShown = 200;   // the newest closes listed

    PastShiftsDialog(TillSession *session, const QString &terminal, const QString &shopName, QWidget *parent = nullptr);
    // The receipt printer: Print again goes there when one is set, else to the system's printers.
    void setDevices(class CounterDevices *devices) { m_devices = devices; }

private:
    void showShifts(const QJsonArray &shifts);
    void showReport(int row);
    // The selected shift's document as its close printed it; empty when none can be read.
    QString documentHtml(int row) const;
    void printAgain();

    QString m_terminal;
    QString m_shopName;
    QJsonArray m_shifts;
    QLabel *m_status = nullptr;
    QTableWidget *m_table = nullptr;
    QTextBrowser *m_report = nullptr;
    QPushButton *m_printAgain = nullptr;
    class CounterDevices *m_devices = nullptr;
    ShiftChartView *m_chart = nullptr;   // never shown: draws the chart for the report
};

}   // namespace OncePay::Ui
