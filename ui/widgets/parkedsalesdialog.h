#pragma once

#include "scandetector.h"

#include <QDialog>
#include <QStringList>

class QLabel;
class QPushButton;
class QTableView;

namespace OncePay::Ui {

class ParkedSales;

// The sales on hold (issue 36): number, time, items and total of each; Enter puts the selected
// one back in the cart, Del deletes it (asked first: Del again, or its button), Esc closes. A
// barcode scanner's burst (ScanDetector) is never an answer here: its Enter recalls nothing and
// confirms nothing, and what it read is kept (scannedCodes()) for the sale once the list closes.
// Only an Enter with nothing typed before it recalls.
class ParkedSalesDialog final : public QDialog
{
    Q_OBJECT

public:
    ParkedSalesDialog(ParkedSales *sales, QWidget *parent = nullptr);
    // What was scanned or typed while the list was open, in order: the sale's, once it closed.
    QStringList scannedCodes() const { return m_scanned; }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    int selectedRow() const;
    void recallSelected();
    void askDelete();
    void confirmDelete();
    void closeQuestion();
    void keep(const QString &code);
    void refresh();

    ParkedSales *m_sales;
    QTableView *m_table = nullptr;
    QLabel *m_onScreen = nullptr;   // what becomes of the sale on screen when another is recalled
    QLabel *m_message = nullptr;
    QWidget *m_question = nullptr;   // "Delete P3?", inline: no box a scanner's Enter could answer
    QLabel *m_questionText = nullptr;
    QPushButton *m_recall = nullptr;
    QPushButton *m_delete = nullptr;
    qint64 m_deleting = 0;   // the parked sale the question is about
    ScanDetector m_scans;
    QStringList m_scanned;
};

}   // namespace OncePay::Ui
