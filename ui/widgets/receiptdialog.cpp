#include "receiptdialog.h"

#include "receipt.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QPrintDialog>
#include <QPrinter>
#include <QPushButton>
#include <QStandardPaths>
#include <QTextBrowser>
#include <QTextDocument>
#include <QVBoxLayout>

namespace OncePay::Ui {

ReceiptDialog::ReceiptDialog(const QString &html, const QString &fileName, QWidget *parent)
    : QDialog(parent)
    , m_html(html)
    , m_fileName(fileName)
{
    setWindowTitle(tr("Receipt"));
    auto *layout = new QVBoxLayout(this);
    auto *preview = new QTextBrowser(this);
    preview->setAccessibleName(tr("Receipt preview"));
    preview->setHtml(html);
    layout->addWidget(preview);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton *print = buttons->addButton(tr("&Print…"), QDialogButtonBox::ActionRole);
    print->setAccessibleName(tr("Print the receipt"));
    QPushButton *save = buttons->addButton(tr("Save as PDF…"), QDialogButtonBox::ActionRole);
    save->setAccessibleName(tr("Save the receipt as PDF"));
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(print, &QPushButton::clicked, this, &ReceiptDialog::print);
    connect(save, &QPushButton::clicked, this, &ReceiptDialog::savePdf);
    layout->addWidget(buttons);
    resize(400, 600);
}

void ReceiptDialog::print()
{
    QPrinter printer(QPrinter::HighResolution);
    printer.setDocName(QFileInfo(m_fileName).completeBaseName());
    QPrintDialog dialog(&printer, this);
    dialog.setWindowTitle(tr("Print the receipt"));
    if (dialog.exec() != QDialog::Accepted)
        return;
    QTextDocument doc;
    doc.setHtml(m_html);
    doc.print(&printer);
    if (printer.printerState() == QPrinter::Error)
        QMessageBox::warning(this, tr("Receipt"), tr("The printer reported an error; the receipt may not have been printed."));
}

void ReceiptDialog::savePdf()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save the receipt"),
        QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation) + QLatin1Char('/') + m_fileName,
        tr("PDF files (*.pdf)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!saveReceiptPdf(m_html, path, &error))
        QMessageBox::warning(this, tr("Receipt"), error);
}

}   // namespace OncePay::Ui
