#include "receiptdialog.h"

#include "receipt.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QMessageBox>
#include <QPushButton>
#include <QStandardPaths>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace OncePay::Ui {

ReceiptDialog::ReceiptDialog(const QString &html, QWidget *parent)
    : QDialog(parent)
    , m_html(html)
{
    setWindowTitle(tr("Receipt"));
    auto *layout = new QVBoxLayout(this);
    auto *preview = new QTextBrowser(this);
    preview->setAccessibleName(tr("Receipt preview"));
    preview->setHtml(html);
    layout->addWidget(preview);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton *save = buttons->addButton(tr("Save as PDF…"), QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(save, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Save the receipt"),
            QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation) + QStringLiteral("/receipt.pdf"),
            tr("PDF files (*.pdf)"));
        if (path.isEmpty())
            return;
        QString error;
        if (!saveReceiptPdf(m_html, path, &error))
            QMessageBox::warning(this, tr("Receipt"), error);
    });
    layout->addWidget(buttons);
    resize(380, 520);
}

} // namespace OncePay::Ui
