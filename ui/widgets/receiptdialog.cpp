#include "receiptdialog.h"

#include "counterdevices.h"
#include "receipt.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMessageBox>
#include <QPrintDialog>
#include <QPrinter>
#include <QPushButton>
#include <QStandardPaths>
#include <QTextBrowser>
#include <QTextDocument>
#include <QVBoxLayout>

namespace OncePay::Ui {

namespace {

// What the dialog's words say of the document it shows: one row per kind of document.
struct DocumentWords
{
    QString title;   // the window's, and the warnings'
    QString preview;
    QString printAccessible;
    QString printDialogTitle;   // the system's print dialog (issue 36: "Print the receipt" for a refund slip)
    QString saveAccessible;
    QString saveTitle;
    QString printerError;
    QString printingAgain;
};

DocumentWords wordsFor(ReceiptDialog::Document document)
{
    switch (document) {
    case ReceiptDialog::Document::RefundSlip:
        return {ReceiptDialog::tr("Refund slip"), ReceiptDialog::tr("Refund slip preview"), ReceiptDialog::tr("Print the refund slip"),
            ReceiptDialog::tr("Print the refund slip"), ReceiptDialog::tr("Save the refund slip as PDF"), ReceiptDialog::tr("Save the refund slip"),
            ReceiptDialog::tr("The printer reported an error; the refund slip may not have been printed."),
            ReceiptDialog::tr("The refund slip is printing again on the receipt printer.")};
    case ReceiptDialog::Document::Receipt:
        break;
    }
    return {ReceiptDialog::tr("Receipt"), ReceiptDialog::tr("Receipt preview"), ReceiptDialog::tr("Print the receipt"),
        ReceiptDialog::tr("Print the receipt"), ReceiptDialog::tr("Save the receipt as PDF"), ReceiptDialog::tr("Save the receipt"),
        ReceiptDialog::tr("The printer reported an error; the receipt may not have been printed."),
        ReceiptDialog::tr("The receipt is printing again on the receipt printer.")};
}

}   // namespace

ReceiptDialog::ReceiptDialog(const QString &html, const QString &fileName, QWidget *parent, Document document)
    : QDialog(parent)
    , m_document(document)
    , m_html(html)
    , m_fileName(fileName)
{
    const DocumentWords words = wordsFor(document);
    setWindowTitle(words.title);
    auto *layout = new QVBoxLayout(this);
    auto *preview = new QTextBrowser(this);
    preview->setAccessibleName(words.preview);
    preview->setHtml(html);
    layout->addWidget(preview);
    m_printed = new QLabel(this);
    m_printed->setAccessibleName(tr("Printing"));
    m_printed->setWordWrap(true);
    m_printed->setMinimumWidth(1);
    m_printed->hide();
    layout->addWidget(m_printed);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_print = buttons->addButton(tr("&Print…"), QDialogButtonBox::ActionRole);
    m_print->setAccessibleName(words.printAccessible);
    QPushButton *save = buttons->addButton(tr("Save as PDF…"), QDialogButtonBox::ActionRole);
    save->setAccessibleName(words.saveAccessible);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_print, &QPushButton::clicked, this, [this] {
        if (m_devices && m_devices->hasPrinter())
            printAgain();
        else
            print();
    });
    connect(save, &QPushButton::clicked, this, &ReceiptDialog::savePdf);
    layout->addWidget(buttons);
    resize(400, 600);
}

void ReceiptDialog::setReceiptPrinter(CounterDevices *devices, const QString &jobTitle)
{
    m_devices = devices;
    m_jobTitle = jobTitle;
    if (!devices || !devices->hasPrinter())
        return;
    // It printed there already (issue 36): again on the same printer, not through the system's
    // dialog for a PDF.
    m_print->setText(tr("Print &again"));
    m_print->setAccessibleName(tr("Print again on the receipt printer"));
}

void ReceiptDialog::printAgain()
{
    m_devices->print(m_document == Document::RefundSlip ? PrintQueue::Kind::RefundSlip : PrintQueue::Kind::Receipt, m_jobTitle, m_html);
    m_printed->setText(wordsFor(m_document).printingAgain);
    m_printed->show();
}

void ReceiptDialog::print()
{
    const DocumentWords words = wordsFor(m_document);
    QPrinter printer(QPrinter::HighResolution);
    printer.setDocName(QFileInfo(m_fileName).completeBaseName());
    QPrintDialog dialog(&printer, this);
    dialog.setWindowTitle(words.printDialogTitle);
    if (dialog.exec() != QDialog::Accepted)
        return;
    QTextDocument doc;
    doc.setHtml(m_html);
    doc.print(&printer);
    if (printer.printerState() == QPrinter::Error)
        QMessageBox::warning(this, words.title, words.printerError);
}

void ReceiptDialog::savePdf()
{
    const DocumentWords words = wordsFor(m_document);
    const QString path = QFileDialog::getSaveFileName(
        this, words.saveTitle,
        QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation) + QLatin1Char('/') + m_fileName,
        tr("PDF files (*.pdf)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!saveReceiptPdf(m_html, path, &error))
        QMessageBox::warning(this, words.title, error);
}

}   // namespace OncePay::Ui
