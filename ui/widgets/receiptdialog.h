#pragma once

#include <QDialog>
#include <QPointer>

class QLabel;
class QPushButton;

namespace OncePay::Ui {

class CounterDevices;

// Preview of a receipt, a pending slip or a refund slip, with "Save as PDF…" (its number as the
// default file name) and a way to print it: "Print again" on the counter's receipt printer when
// one is set (the print queue, as the document printed first), else "Print…" through the
// system's print dialog (CUPS printers), titled for what it prints.
class ReceiptDialog final : public QDialog
{
    Q_OBJECT

public:
    enum class Document {
        Receipt,   // a sale's receipt, or the slip of a payment still pending
        RefundSlip,
    };

    ReceiptDialog(const QString &html, const QString &fileName, QWidget *parent = nullptr, Document document = Document::Receipt);

    // The receipt printer: with one set, "Print again" queues the document on it as a new job
    // titled `jobTitle` ("Refund slip R1-000043").
    void setReceiptPrinter(CounterDevices *devices, const QString &jobTitle);

private:
    void print();
    void printAgain();
    void savePdf();

    Document m_document;
    QString m_html;
    QString m_fileName;
    QPushButton *m_print = nullptr;
    QLabel *m_printed = nullptr;
    QPointer<CounterDevices> m_devices;
    QString m_jobTitle;
};

}   // namespace OncePay::Ui
