#include "lateoutcomesdialog.h"

#include "intenttext.h"
#include "lateoutcomes.h"
#include "shiftreport.h"

#include <QDateTime>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace OncePay::Ui {

LateOutcomesDialog::LateOutcomesDialog(LateOutcomes *outcomes, QWidget *parent)
    : QDialog(parent)
    , m_outcomes(outcomes)
{
    auto *layout = new QVBoxLayout(this);
    m_intro = new QLabel(this);
    m_intro->setAccessibleName(tr("What happened after the customer left"));
    m_intro->setWordWrap(true);
    layout->addWidget(m_intro);
    m_table = new QTableWidget(0, 4, this);
    m_table->setAccessibleName(tr("Declined payments"));
    m_table->setHorizontalHeaderLabels({tr("Time"), tr("Sale"), tr("Amount"), tr("Why")});
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->hide();
    // A row is as tall as its wrapped "why" at the width the column has now, not at the width it
    // had when the row was filled (a row three times too tall).
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setWordWrap(true);
    layout->addWidget(m_table);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_acknowledge = buttons->addButton(tr("&Acknowledge"), QDialogButtonBox::ActionRole);
    connect(m_acknowledge, &QPushButton::clicked, this, [this] {
        const int row = m_table->currentRow() < 0 ? 0 : m_table->currentRow();
        if (QTableWidgetItem *item = m_table->item(row, 0))
            m_outcomes->acknowledge(item->data(Qt::UserRole).toString());
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    // A barcode scanner types digits and Enter wherever the keyboard is: no button here is ever
    // pressed by Enter (acknowledging is a deliberate click or Alt+A), and the dialog does not take
    // the keyboard from the scan field when it pops up.
    // Nothing in it takes the keyboard (the mouse and Alt+A still work): whatever is typed reaches
    // keyPressEvent() and goes back to the checkout.
    for (QPushButton *b : buttons->findChildren<QPushButton *>()) {
        b->setAutoDefault(false);
        b->setDefault(false);
        b->setFocusPolicy(Qt::NoFocus);
    }
    m_table->setFocusPolicy(Qt::NoFocus);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_ShowWithoutActivating);
    connect(m_outcomes, &LateOutcomes::alertsChanged, this, &LateOutcomesDialog::refresh);
    refresh();
    resize(640, 320);
}

void LateOutcomesDialog::keyPressEvent(QKeyEvent *event)
{
    const bool enter = event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter;
    const bool plain = !(event->modifiers() & (Qt::AltModifier | Qt::ControlModifier | Qt::MetaModifier));
    const QString text = event->text();
    if (plain && (enter || (!text.isEmpty() && text.at(0).isPrint()))) {
        emit typedForCheckout(enter ? QString() : text, enter);
        event->accept();
        return;
    }
    QDialog::keyPressEvent(event);   // Escape closes: a deliberate act, never a scanner's
}

void LateOutcomesDialog::refresh()
{
    const QList<Intent> alerts = m_outcomes->alerts();
    const bool refunds = std::any_of(alerts.cbegin(), alerts.cend(), &LateOutcomes::isRefundOfChargedLate);
    const bool declines = !std::all_of(alerts.cbegin(), alerts.cend(), &LateOutcomes::isRefundOfChargedLate);
    setWindowTitle(refunds ? tr("After the customer left") : tr("Payments declined after the customer left"));
    QStringList intro;
    if (declines || alerts.isEmpty()) {
        intro << tr("These sales were handed over before the bank's answer came, and the bank then refused the"
                    " payment. The goods were not paid for: follow up, then acknowledge.");
    }
    if (refunds) {
        intro << tr("A card payment the customer gave up went through after all, and the till refunded it by itself. "
                    "Tell the customer what is below, then acknowledge.");
    }
    m_intro->setText(intro.join(QLatin1Char('\n')));
    m_table->setRowCount(int(alerts.size()));
    for (int r = 0; r < alerts.size(); ++r) {
        const Intent &i = alerts.at(r);
        const QStringList cells{IntentText::shortTime(i.updatedAt), i.saleLabel(), i.amount.toDisplayString(), why(i)};
        for (int c = 0; c < cells.size(); ++c) {
            auto *item = new QTableWidgetItem(cells.at(c));
            item->setData(Qt::UserRole, i.key);
            m_table->setItem(r, c, item);
        }
    }
    m_table->resizeRowsToContents();
    m_acknowledge->setEnabled(!alerts.isEmpty());
    if (!alerts.isEmpty() && m_table->currentRow() < 0)
        m_table->selectRow(0);
}

QString LateOutcomesDialog::why(const Intent &i)
{
    if (LateOutcomes::isRefundOfChargedLate(i)) {
        if (i.state == IntentState::Succeeded) {
            return tr("The card payment for sale %1 went through after the customer paid another way; the till refunded %2 "
                      "to the card automatically. Tell the customer it will show on their statement.")
                .arg(i.saleLabel(), i.amount.toDisplayString());
        }
        return tr("The card payment for sale %1 went through after the customer paid another way, and the till could not "
                  "refund it: %2")
            .arg(i.saleLabel(), ShiftReport::owedAdvice(i.amount, i.paymentKey));
    }
    return i.state == IntentState::Declined
        ? tr("declined by the bank (%1)").arg(i.declineCode.isEmpty() ? i.lastProblem : IntentText::declineReason(i.declineCode))
        : tr("needs attention: %1").arg(i.lastProblem);
}

}   // namespace OncePay::Ui
