#include "cashpanel.h"

#include "cashtender.h"
#include "checkoutviewmodel.h"

#include <QAction>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace OncePay::Ui {

namespace {
// A note as people name it: "¥50", not "¥50.00".
QString noteText(const Money &note)
{
    QString text = note.toDisplayString();
    const int digits = Money::minorDigits(note.currency());
    if (digits > 0 && text.endsWith(QLatin1Char('.') + QString(digits, QLatin1Char('0'))))
        text.chop(digits + 1);
    return text;
}
}   // namespace

CashPanel::CashPanel(CheckoutViewModel *vm, QWidget *parent)
    : QWidget(parent)
    , m_vm(vm)
{
    setAccessibleName(tr("Cash payment"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_quick = new QGridLayout;
    layout->addLayout(m_quick);
    auto *row = new QHBoxLayout;
    auto *caption = new QLabel(tr("Cash received:"), this);
    m_amount = new QLineEdit(this);
    m_amount->setAccessibleName(tr("Cash received"));
    caption->setBuddy(m_amount);
    auto *takeButton = new QPushButton(tr("Take"), this);
    takeButton->setAccessibleName(tr("Take the cash received"));
    auto *cancel = new QPushButton(tr("Cancel"), this);
    cancel->setAccessibleName(tr("Cancel the cash payment"));
    row->addWidget(caption);
    row->addWidget(m_amount, 1);
    row->addWidget(takeButton);
    row->addWidget(cancel);
    layout->addLayout(row);
    m_message = new QLabel(this);
    m_message->setAccessibleName(tr("Cash message"));
    m_message->setWordWrap(true);
    // A word longer than the column (what a scanner typed here) is cut, never the window widened
    // beyond its screen (issue 36).
    m_message->setMinimumWidth(1);
    m_message->setStyleSheet(QStringLiteral("QLabel { color: #b71c1c; font-weight: bold; }"));
    m_message->hide();
    layout->addWidget(m_message);
    // Less than the total is a part payment offered, not an error (issue 36): what is left and how
    // to take it, in the panel's own colours. Enter records nothing (a mistyped amount stays a
    // typo); taking it as part of the sale, the rest by card or more cash, is the deliberate Alt+P.
    m_prompt = new QLabel(this);
    m_prompt->setAccessibleName(tr("Part payment offered"));
    m_prompt->setWordWrap(true);
    m_prompt->setMinimumWidth(1);
    m_prompt->hide();
    layout->addWidget(m_prompt);
    m_part = new QPushButton(this);
    m_part->setAccessibleName(tr("Take as part payment"));
    m_part->setAutoDefault(false);
    m_part->hide();
    layout->addWidget(m_part);
    connect(m_part, &QPushButton::clicked, this, [this] {
        const auto tendered = Money::parse(m_amount->text().trimmed(), m_vm->remaining().currency());
        QString reason;
        if (tendered && m_vm->payCashPart(*tendered, &reason)) {
            m_part->hide();
            m_prompt->hide();
            return;
        }
        showError(reason);
    });

    connect(m_amount, &QLineEdit::returnPressed, this, &CashPanel::takeTyped);
    connect(m_amount, &QLineEdit::textEdited, m_message, &QWidget::hide);
    connect(m_amount, &QLineEdit::textEdited, this, &CashPanel::offerPart);
    connect(takeButton, &QPushButton::clicked, this, &CashPanel::takeTyped);
    connect(cancel, &QPushButton::clicked, this, &CashPanel::finish);
    auto *escape = new QAction(this);
    escape->setShortcut(QKeySequence(Qt::Key_Escape));
    escape->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(escape, &QAction::triggered, this, &CashPanel::finish);
    addAction(escape);
    connect(m_vm, &CheckoutViewModel::actionsChanged, this, [this] {
        if (!isVisible())
            return;
        if (m_vm->canPay())
            refreshTenders();
        else
            finish();   // paid (by this panel or by card), or the sale is locked
    });
    hide();
}

void CashPanel::start()
{
    if (!m_vm->canPay())
        return;
    m_message->hide();
    m_prompt->hide();
    m_part->hide();
    refreshTenders();
    m_amount->setText(m_vm->remaining().toDecimalString());
    show();
    m_amount->setFocus();
    m_amount->selectAll();
}

void CashPanel::refreshTenders()
{
    // deleteLater: this may run inside one of these buttons' clicked().
    for (QPushButton *b : std::as_const(m_quickButtons)) {
        m_quick->removeWidget(b);
        b->hide();
        b->deleteLater();
    }
    m_quickButtons.clear();
    const QList<Money> amounts = quickTenders(m_vm->remaining());
    for (int n = 0; n < amounts.size(); ++n) {
        const Money &amount = amounts.at(n);
        auto *button = new QPushButton(n == 0 ? tr("Exact %1").arg(amount.toDisplayString()) : noteText(amount), this);
        button->setAccessibleName(n == 0 ? tr("Exact amount") : tr("Cash %1").arg(noteText(amount)));
        button->setMinimumHeight(40);
        connect(button, &QPushButton::clicked, this, [this, amount] {
            take(amount);
        });
        m_quick->addWidget(button, n == 0 ? 0 : 1 + (n - 1) / 4, n == 0 ? 0 : (n - 1) % 4, 1, n == 0 ? 4 : 1);
        m_quickButtons << button;
    }
}

void CashPanel::takeTyped()
{
    const Money total = m_vm->remaining();
    const QString text = m_amount->text().trimmed();
    const auto tendered = Money::parse(text, total.currency());
    if (!tendered) {
        m_prompt->hide();
        m_part->hide();
        showError(tr("\"%1\" is not an amount.").arg(text));
        m_amount->selectAll();
        return;
    }
    if (offerPart()) {
        m_amount->setFocus();   // nothing recorded: Alt+P takes it, or another amount
        return;
    }
    take(*tendered);
}

bool CashPanel::offerPart()
{
    const Money total = m_vm->remaining();
    const auto tendered = Money::parse(m_amount->text().trimmed(), total.currency());
    const bool part = tendered && tendered->minorUnits() > 0 && tendered->minorUnits() < total.minorUnits();
    m_prompt->setVisible(part);
    m_part->setVisible(part);
    if (!part)
        return false;
    const Money left(total.minorUnits() - tendered->minorUnits(), total.currency());
    m_prompt->setText(tr("Part payment: %1 in cash now, %2 left to pay by card or more cash. Alt+P takes it; nothing is recorded until then.")
                          .arg(tendered->toDisplayString(), left.toDisplayString()));
    m_part->setText(tr("Take %1 as &part payment; the rest by card or more cash").arg(tendered->toDisplayString()));
    return true;
}

void CashPanel::showError(const QString &text)
{
    m_message->setText(text);
    m_message->show();
}

void CashPanel::take(const Money &tendered)
{
    Money change;
    QString reason;
    m_part->hide();
    m_prompt->hide();
    if (m_vm->payCash(tendered, &change, &reason))
        return;   // the sale is being recorded; actionsChanged closes the panel
    showError(reason);
    m_amount->setFocus();
    m_amount->selectAll();
}

void CashPanel::finish()
{
    if (!isVisible())
        return;
    hide();
    m_message->hide();
    m_prompt->hide();
    m_part->hide();
    emit closed();
}

}   // namespace OncePay::Ui
