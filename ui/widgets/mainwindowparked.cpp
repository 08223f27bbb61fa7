// MainWindow: the sale on hold (issue 36). F5 parks the sale on screen, or, with nothing to park,
// opens the parked sales; Shift+F5 opens them whatever the cart holds. The logic is ParkedSales'
// (ui/models), the SQL ParkedSaleBook's (app/till).
#include "mainwindow.h"

#include "parkedsales.h"
#include "parkedsalesdialog.h"

#include <QApplication>
#include <QLabel>
#include <QLineEdit>
#include <QTableView>

namespace OncePay::Ui {

void MainWindow::setUpParking()
{
    m_parked = new ParkedSales(new ParkedSaleBook(m_session->journal(), this), &m_vm, this);
    connect(m_parked, &ParkedSales::parked, this, [this](const ParkedSale &sale) {
        showSearchMessage({});
        m_banner->setText(tr("Sale parked as %1 (%2, %3). Serve the next customer; F5 on an empty cart recalls it.")
                              .arg(sale.number, tr("%n item(s)", nullptr, sale.itemCount), sale.total.toDisplayString()));
        m_search->setFocus();
    });
    connect(m_parked, &ParkedSales::recalled, this, [this](const ParkedSale &sale, const Money &totalNow) {
        showSearchMessage({});
        QString said = tr("Parked sale %1 is back in the cart: %2, %3.")
                           .arg(sale.number, tr("%n item(s)", nullptr, sale.itemCount), sale.total.toDisplayString());
        if (totalNow != sale.total) {
            said += QLatin1Char(' ')
                + tr("The shop changed how VAT is shown meanwhile: the total is now %1.").arg(totalNow.toDisplayString());
        }
        m_banner->setText(said);
        m_cartView->scrollToBottom();
        m_search->setFocus();
    });
    connect(m_parked, &ParkedSales::refused, this, [this](const TillError &why) {
        QApplication::beep();
        showSearchMessage(why.text());
    });
}

void MainWindow::parkOrShowParked()
{
    if (!m_parked->hasCartToPark())
        return showParkedSales();
    m_parked->park();   // or refused(), in words beside the scan field
}

void MainWindow::showParkedSales()
{
    auto *dialog = new ParkedSalesDialog(m_parked, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::finished, this, [this, dialog] {
        activateWindow();
        m_search->setFocus();
        // What the scanner read while the list was open goes into the sale now (a recalled one
        // included), in order, as if scanned now. A code that asks something stops the rest.
        const QStringList codes = dialog->scannedCodes();
        for (qsizetype i = 0; i < codes.size(); ++i) {
            if (!m_search->isEnabled() || QApplication::activeModalWidget()) {
                showSearchMessage(tr("%n item(s) scanned while the parked sales were open were not added: scan them again.",
                    nullptr, int(codes.size() - i)));
                return;
            }
            m_search->setText(codes.at(i));
            addFromSearch();
        }
    });
    dialog->open();
}

}   // namespace OncePay::Ui
