// MainWindow's ringing up by hand, beside the scan field (mainwindowscans.cpp): a product tapped
// in the grid, a price typed for an open-price product, a weight in kg, a discount on the line or
// the sale (above the limit, a manager approves it first). Each asks with askText(), whose answer
// the view model takes or refuses with its reason.
#include "mainwindow.h"

#include "staffsession.h"
#include "tillcatalog.h"

#include <QApplication>
#include <QInputDialog>
#include <QLineEdit>
#include <QTableView>

#include <utility>

namespace OncePay::Ui {

void MainWindow::askText(const QString &title, const QString &label, const QString &accessibleName,
    std::function<bool(const QString &text, QString *reason)> apply)
{
    auto *dialog = new QInputDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(title);
    dialog->setLabelText(label);
    dialog->setInputMode(QInputDialog::TextInput);
    dialog->setAccessibleName(accessibleName);
    connect(dialog, &QInputDialog::textValueSelected, this, [this, apply = std::move(apply)](const QString &text) {
        QString reason;
        if (apply(text, &reason)) {
            showSearchMessage({});
            m_cartView->scrollToBottom();
        } else {
            QApplication::beep();
            showSearchMessage(reason);
        }
    });
    // Typed or dropped, the scan field has the keyboard again: the next scan is whole.
    connect(dialog, &QDialog::finished, this, [this] {
        activateWindow();
        m_search->setFocus();
    });
    dialog->open();
}

void MainWindow::addFromGrid(const QString &code)
{
    if (const std::optional<Product> open = m_vm.needsPrice(code))
        return askPrice(code, *open);
    const Product *product = m_catalog->catalog().byCode(code);
    if (product && product->unit == SaleUnit::Kilogram) {
        askText(tr("Weight"), tr("Weight of %1 in kg (such as 0.532):").arg(product->name(m_vm.cart()->language() == Language::SimplifiedChinese)),
            tr("Weight to type"), [this, code](const QString &kg, QString *reason) {
                return m_vm.addWeighedProduct(code, kg, reason);
            });
        return;
    }
    QString reason;
    if (m_vm.addProduct(code, &reason)) {
        showSearchMessage({});
        m_cartView->scrollToBottom();
    } else {
        QApplication::beep();
        showSearchMessage(reason);
    }
}

void MainWindow::askPrice(const QString &code, const Product &product)
{
    askText(tr("Price"),
        tr("Price of %1 (at most %2):")
            .arg(product.name(m_vm.cart()->language() == Language::SimplifiedChinese), m_vm.openPriceLimit().toDisplayString()),
        tr("Price to type"), [this, code](const QString &price, QString *reason) {
            return m_vm.addProductAtPrice(code, price, reason);
        });
}

void MainWindow::askDiscount(bool wholeSale)
{
    // Refused before anything is typed when the sale cannot change or no line is chosen.
    const QModelIndex current = m_cartView->currentIndex();
    const int row = wholeSale ? -1 : current.isValid() ? current.row()
                                                       : -2;
    QString reason;
    if (!m_vm.canDiscount(row, &reason)) {
        QApplication::beep();
        showSearchMessage(reason);
        return;
    }
    // Above the limit, a manager approves it before it applies; either way the journal keeps who.
    auto apply = [this, row](const QString &text, QString *why) {
        const int limit = TillSettings::load().discountLimitPercent;
        if (!m_vm.discountAboveLimit(row, text, limit))
            return applyDiscount(row, text, {}, why);
        withManager(tr("A discount of more than %1%").arg(limit), [this, row, text](const QString &approver) {
            QString reason;
            if (!applyDiscount(row, text, approver, &reason))
                showSearchMessage(reason);
        });
        return true;
    };
    if (wholeSale) {
        askText(tr("Discount on the sale"), tr("Discount on the whole sale (10% or 5.00; empty: none):"),
            tr("Sale discount to type"), apply);
    } else {
        const QString name = m_vm.cart()->data(m_vm.cart()->index(row, int(CartModel::Column::Name))).toString();
        askText(tr("Discount on the line"), tr("Discount on %1 (10% or 5.00; empty: none):").arg(name),
            tr("Line discount to type"), apply);
    }
}

bool MainWindow::applyDiscount(int row, const QString &text, const QString &approver, QString *reason)
{
    const bool ok = row == -1 ? m_vm.discountSale(text, reason) : m_vm.discountLine(row, text, reason);
    if (ok && m_staff && m_staff->required()) {
        IntentJournal::StaffAction a;
        a.action = QStringLiteral("discount");
        a.subject = m_vm.saleNumber();
        a.amount = m_vm.cart()->pricing().lineDiscounts + m_vm.cart()->pricing().saleDiscount;
        a.approvedBy = approver;
        a.detail = row == -1 ? QStringLiteral("sale: %1").arg(text.trimmed())
                             : QStringLiteral("line %1: %2").arg(row + 1).arg(text.trimmed());
        m_session->journal()->recordStaffAction(a, this, [](bool, const TillError &, bool) {});
    }
    return ok;
}

}   // namespace OncePay::Ui
