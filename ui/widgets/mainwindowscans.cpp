// MainWindow's scan field and the barcode scanner: a code scanned or typed (addCode), the pick
// list when a name matches several products, and the scanner wherever the keyboard is (issue 36).
// A scanner is a keyboard that types a code and Enter at any moment: after a split tender (the
// cart has the keyboard), while a wallet payment waits, after the cashier used the payments
// filter, while a question is open. Every key of the program passes through eventFilter(): a
// burst that ScanDetector recognises as a scan, typed into a widget of the window that takes no
// typing, goes to addCode() with its keys swallowed (never a button's Enter, a question's letter
// or a list's search); typed into one of the window's questions, it is kept until the question is
// answered, then goes to the cart, never the question's answer. A field that takes typing (the
// scan field itself, the card or cash amount, a price, a PIN, a search box) keeps every key,
// however fast a person types; so does any other window (the lock screen has its own rules).
#include "mainwindow.h"

#include "tillcatalog.h"

#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QInputDialog>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QTableView>
#include <QTextEdit>
#include <QTimer>

namespace OncePay::Ui {

namespace {

// A field a person types into: digits there are an amount, a price, a PIN or a search.
bool takesTyping(const QWidget *w)
{
    if (const auto *edit = qobject_cast<const QLineEdit *>(w))
        return !edit->isReadOnly();
    if (qobject_cast<const QAbstractSpinBox *>(w))
        return true;
    if (const auto *text = qobject_cast<const QTextEdit *>(w))
        return !text->isReadOnly();
    if (const auto *plain = qobject_cast<const QPlainTextEdit *>(w))
        return !plain->isReadOnly();
    if (const auto *combo = qobject_cast<const QComboBox *>(w))
        return combo->isEditable();
    return false;
}

}   // namespace

bool MainWindow::isQuestion(QWidget *window) const
{
    // The window's own questions: how the customer leaves, discard, cancel, a word after an
    // import (QMessageBox), a price or a discount whose OK has the keyboard (QInputDialog).
    return window && window->parentWidget() == this
        && (qobject_cast<QMessageBox *>(window) || qobject_cast<QInputDialog *>(window));
}

MainWindow::ScanRoute MainWindow::scanRoute(QWidget *focus) const
{
    if (!focus || takesTyping(focus))
        return ScanRoute::None;
    QWidget *window = focus->window();
    const bool ours = window == this || (qobject_cast<QDockWidget *>(window) && window->parentWidget() == this);
    if (ours)
        return QApplication::activeModalWidget() ? ScanRoute::None : ScanRoute::Window;
    if (window == QApplication::activeModalWidget() && isQuestion(window))
        return ScanRoute::Question;
    return ScanRoute::None;
}

bool MainWindow::filterScannerKey(QEvent *event)
{
    auto *key = static_cast<QKeyEvent *>(event);
    if (key->isAutoRepeat()) {
        // A key held down (+ on the cart's line) repeats as fast as a scanner types: a person's.
        if (event->type() == QEvent::KeyPress)
            m_scans.reset();
        return false;
    }
    QWidget *focus = QApplication::focusWidget();
    if (event->type() == QEvent::ShortcutOverride) {
        // A key in the middle of a scan is no shortcut (a '-' of a receipt number would take one
        // off the cart's selected line): overridden, so that it comes as a key, then swallowed.
        if (!m_scans.continuesBurst(*key) || key->text().isEmpty() || !key->text().at(0).isPrint()
            || (key->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier))
            || scanRoute(focus) == ScanRoute::None)
            return false;
        event->accept();
        return true;
    }
    const ScanDetector::Verdict verdict = m_scans.press(*key);
    const ScanRoute route = scanRoute(focus);
    if (route == ScanRoute::None)
        return false;
    if (verdict == ScanDetector::Verdict::Scanned) {
        const QString code = m_scans.code().trimmed();
        if (route == ScanRoute::Question) {
            holdScan(focus->window(), code);
        } else {
            // After this key's turn: what the code opens (a price, a pick list) never runs inside
            // the key's delivery.
            QTimer::singleShot(0, this, [this, code] {
                addScans({code});
                if (m_search->isEnabled() && !QApplication::activeModalWidget() && scanRoute(QApplication::focusWidget()) == ScanRoute::Window)
                    m_search->setFocus();
            });
        }
        return true;
    }
    // The second key of a burst and after: the scanner's (the first key of a scan cannot be told
    // from a person's, and a person's key in a widget that takes no typing does little).
    return verdict == ScanDetector::Verdict::None && m_scans.inBurst();
}

void MainWindow::holdScan(QWidget *question, const QString &code)
{
    if (question == m_leaveQuestion) {
        m_leaveScans << code;
        showSearchMessage(m_leaveScans.size() == 1
                ? tr("%1 is kept: it is the next customer's first item if this customer has left (L).").arg(code)
                : tr("%n scanned items are kept: the next customer's if this customer has left (L).", nullptr, int(m_leaveScans.size())));
        return;
    }
    m_heldScans << code;
    if (m_heldFor != question) {
        m_heldFor = question;
        if (auto *dialog = qobject_cast<QDialog *>(question)) {
            // After the answer has done its work (a new sale, a discard): then the cart takes them.
            connect(dialog, &QDialog::finished, this, [this] {
                QTimer::singleShot(0, this, &MainWindow::deliverHeldScans);
            });
        }
    }
    showSearchMessage(m_heldScans.size() == 1
            ? tr("%1 is kept: it goes into the sale once the question is answered.").arg(code)
            : tr("%n scanned items are kept: they go into the sale once the question is answered.", nullptr, int(m_heldScans.size())));
}

void MainWindow::deliverHeldScans()
{
    const QStringList codes = std::exchange(m_heldScans, {});
    m_heldFor = nullptr;
    if (codes.isEmpty())
        return;
    showSearchMessage({});
    addScans(codes);
}

void MainWindow::addScans(QStringList codes)
{
    while (!codes.isEmpty()) {
        // A code that asked something (a price, how the last customer left, a discard): the rest
        // wait for its answer, as if scanned while it asks.
        if (QWidget *modal = QApplication::activeModalWidget()) {
            if (isQuestion(modal)) {
                for (const QString &code : std::as_const(codes))
                    holdScan(modal, code);
            } else {
                showSearchMessage(tr("%n scanned item(s) were not added: scan them again.", nullptr, int(codes.size())));
            }
            return;
        }
        addCode(codes.takeFirst());
    }
}

void MainWindow::addFromSearch()
{
    const QString typed = m_search->text().trimmed();
    if (!typed.isEmpty())
        addCode(typed);
}

void MainWindow::addCode(const QString &typed)
{
    // The customer's wallet payment code (issue 26), scanned from the phone at the pay step: it
    // pays what remains, with no key to press. Never kept for later: refused when offline.
    if (CheckoutViewModel::isWalletCode(typed)) {
        m_search->clear();
        QString reason;
        if (m_vm.payByWallet(typed, &reason)) {
            showSearchMessage({});
            return;
        }
        QApplication::beep();
        showSearchMessage(reason);
        return;
    }
    // "You may serve the next customer": the scan is the next customer's first item. With a card
    // payment of this sale not final, the one-key question comes first.
    if (!m_vm.canEditCart() && !m_vm.scanStartsNextSale() && m_vm.leavingAsksFirst()) {
        m_search->clear();
        askHowTheCustomerLeaves(typed);
        return;
    }
    if (const std::optional<Product> open = m_vm.needsPrice(typed)) {
        m_search->clear();
        askPrice(typed, *open);
        return;
    }
    // A product sold by the kg, typed by its code: its weight is asked, as on the grid (issue 36:
    // it was sold as 1 at its price a kg, and its receipt could name no weight).
    if (const Product *byKg = m_catalog->catalog().byCode(typed.trimmed()); byKg && byKg->unit == SaleUnit::Kilogram) {
        m_search->clear();
        addFromGrid(byKg->code);
        return;
    }
    QString reason;
    if (m_vm.addProduct(typed, &reason)) {
        m_search->clear();
        showSearchMessage({});
        m_cartView->scrollToBottom();
        return;
    }
    QApplication::beep();
    showSearchMessage(reason);
    // Never joined to the next scan: the message keeps what was typed.
    m_search->clear();
    const QList<Product> candidates = m_vm.matchingProducts(typed);
    if (candidates.size() > 1)
        pickProduct(candidates);
}

void MainWindow::pickProduct(const QList<Product> &candidates)
{
    // A short list under the field, driven by the arrow keys and Enter like any menu.
    QMenu menu(this);
    menu.setAccessibleName(tr("Matching products"));
    for (const Product &p : candidates) {
        QAction *a = menu.addAction(QStringLiteral("%1   %2").arg(p.name(m_vm.cart()->language() == Language::SimplifiedChinese),
            p.price.toDisplayString()));
        a->setData(p.code);
    }
    menu.setActiveAction(menu.actions().constFirst());
    QAction *chosen = menu.exec(m_search->mapToGlobal(QPoint(0, m_search->height())));
    if (!chosen) {
        m_search->setFocus();
        return;
    }
    if (const std::optional<Product> open = m_vm.needsPrice(chosen->data().toString())) {
        askPrice(chosen->data().toString(), *open);
        return;
    }
    QString reason;
    if (m_vm.addProduct(chosen->data().toString(), &reason)) {
        m_search->clear();
        showSearchMessage({});
        m_cartView->scrollToBottom();
    } else {
        showSearchMessage(reason);
    }
    m_search->setFocus();
}

}   // namespace OncePay::Ui
