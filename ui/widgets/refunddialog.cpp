#include "refunddialog.h"

#include "intentjournal.h"
#include "tillsession.h"

#include "intenttext.h"
#include "receiptdialog.h"
#include "counterdevices.h"
#include "intentjournal.h"
#include "refundslip.h"
#include "tillsession.h"

#include <QApplication>
#include <QButtonGroup>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QEvent>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QShortcut>
#include <QSpinBox>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QVBoxLayout>

namespace OncePay::Ui {

namespace {
// The quantity to give back of a line: a spin box from 0 to what remains of it.
class QuantityDelegate final : public QStyledItemDelegate
{
public:
    QuantityDelegate(RefundLinesModel *model, QObject *parent)
        : QStyledItemDelegate(parent)
        , m_model(model) {}

    QWidget *createEditor(QWidget *parent, const QStyleOptionViewItem &, const QModelIndex &index) const override
    {
        auto *box = new QSpinBox(parent);
        box->setRange(0, m_model->refundable(index.row()));
        box->setAlignment(Qt::AlignRight);
        box->setAccessibleName(RefundDialog::tr("Quantity to refund"));
        return box;
    }

private:
    RefundLinesModel *m_model;
};

// "Enter" in the number field finds the sale, and stops there: it must never reach the
// dialog's default button (Refund) of a sale shown before.
class EnterFilter final : public QObject
{
public:
    EnterFilter(std::function<void()> onEnter, QObject *parent)
        : QObject(parent)
        , m_onEnter(std::move(onEnter)) {}

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::KeyPress) {
            const int key = static_cast<QKeyEvent *>(event)->key();
            if (key == Qt::Key_Return || key == Qt::Key_Enter) {
                m_onEnter();
                return true;
            }
        }
        return QObject::eventFilter(watched, event);
    }

private:
    std::function<void()> m_onEnter;
};

QLabel *valueLabel(QWidget *parent, const QString &accessibleName)
{
    auto *label = new QLabel(parent);
    label->setAccessibleName(accessibleName);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}
}   // namespace

RefundDialog::RefundDialog(TillSession *session, SaleRecords *records, const ReceiptContext &context, Language language,
    QWidget *parent)
    : QDialog(parent)
    , m_vm(session->engine(), session->journal(), records)
    , m_session(session)
    , m_context(context)
    , m_language(language)
{
    setWindowTitle(tr("Refund"));
    m_vm.setTerminal(context.terminal);
    m_vm.setLanguage(language);
    auto *layout = new QVBoxLayout(this);

    auto *find = new QHBoxLayout;
    auto *numberLabel = new QLabel(tr("Receipt &number:"), this);
    m_number = new QLineEdit(this);
    m_number->setAccessibleName(tr("Receipt number"));
    m_number->setPlaceholderText(tr("Scan or type the receipt number (or the sale number), then Enter"));
    m_number->setClearButtonEnabled(true);
    m_number->installEventFilter(new EnterFilter([this] {
        this->find();
    },
        m_number));
    numberLabel->setBuddy(m_number);
    auto *findButton = new QPushButton(tr("&Find"), this);
    findButton->setAccessibleName(tr("Find the sale"));
    connect(findButton, &QPushButton::clicked, this, &RefundDialog::find);
    find->addWidget(numberLabel);
    find->addWidget(m_number, 1);
    find->addWidget(findButton);
    layout->addLayout(find);

    m_state = new QLabel(this);
    m_state->setAccessibleName(tr("Refund state"));
    m_state->setWordWrap(true);
    m_state->setMinimumHeight(40);
    layout->addWidget(m_state);

    auto *saleBox = new QGroupBox(tr("The sale"), this);
    auto *saleForm = new QFormLayout(saleBox);
    m_sale = valueLabel(saleBox, tr("Sale and receipt number"));
    m_paid = valueLabel(saleBox, tr("Paid"));
    m_given = valueLabel(saleBox, tr("Given back"));
    m_remains = valueLabel(saleBox, tr("Remains"));
    saleForm->addRow(tr("Sale:"), m_sale);
    saleForm->addRow(tr("Paid:"), m_paid);
    saleForm->addRow(tr("Given back:"), m_given);
    saleForm->addRow(tr("Remains:"), m_remains);
    layout->addWidget(saleBox);

    auto *modes = new QHBoxLayout;
    m_byItems = new QRadioButton(tr("By &items"), this);
    m_byAmount = new QRadioButton(tr("By a&mount"), this);
    m_byItems->setAccessibleName(tr("Refund by items"));
    m_byAmount->setAccessibleName(tr("Refund by amount"));
    auto *group = new QButtonGroup(this);
    group->addButton(m_byItems);
    group->addButton(m_byAmount);
    connect(m_byItems, &QRadioButton::toggled, this, [this](bool on) {
        if (on)
            m_vm.setMode(RefundViewModel::Mode::Items);
    });
    connect(m_byAmount, &QRadioButton::toggled, this, [this](bool on) {
        if (on) {
            m_vm.setMode(RefundViewModel::Mode::Amount);
            m_amount->setFocus();
            m_amount->selectAll();
        }
    });
    m_all = new QPushButton(tr("&All that remains"), this);
    m_all->setAccessibleName(tr("Refund all that remains"));
    connect(m_all, &QPushButton::clicked, this, [this] {
        m_vm.chooseAll();
    });
    modes->addWidget(m_byItems);
    modes->addWidget(m_byAmount);
    modes->addStretch(1);
    modes->addWidget(m_all);
    layout->addLayout(modes);

    m_lines = new QTableView(this);
    m_lines->setModel(m_vm.lines());
    m_lines->setAccessibleName(tr("Items of the sale"));
    m_lines->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_lines->setSelectionMode(QAbstractItemView::SingleSelection);
    m_lines->setEditTriggers(QAbstractItemView::AnyKeyPressed | QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    m_lines->setItemDelegateForColumn(int(RefundLinesModel::Column::Refund), new QuantityDelegate(m_vm.lines(), m_lines));
    m_lines->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_lines->horizontalHeader()->setSectionResizeMode(int(RefundLinesModel::Column::Item), QHeaderView::Stretch);
    m_lines->verticalHeader()->hide();
    m_lines->setToolTip(tr("Select a line: type how many to give back, or + and -."));
    // + and - on the selected line, as on the cart.
    for (const auto &[key, delta] : {std::pair{Qt::Key_Plus, 1}, std::pair{Qt::Key_Minus, -1}}) {
        new QShortcut(
            QKeySequence(key), m_lines, this, [this, delta = delta] {
                const int row = m_lines->currentIndex().row();
                m_vm.lines()->setChosen(row, m_vm.lines()->chosen(row) + delta);
            },
            Qt::WidgetShortcut);
    }
    layout->addWidget(m_lines, 1);

    auto *form = new QFormLayout;
    m_amount = new QLineEdit(this);
    m_amount->setAccessibleName(tr("Amount to refund"));
    m_amount->setPlaceholderText(tr("e.g. 5.00"));
    connect(m_amount, &QLineEdit::textEdited, &m_vm, &RefundViewModel::setAmountText);
    form->addRow(tr("Amount:"), m_amount);   // Alt+M ("By amount") goes here
    m_reason = new QComboBox(this);
    m_reason->setEditable(true);
    m_reason->setInsertPolicy(QComboBox::NoInsert);
    m_reason->setAccessibleName(tr("Reason for the refund"));
    m_reason->addItems({QString(), tr("Returned by the customer"), tr("Damaged or faulty"), tr("Charged by mistake"),
        tr("Price corrected")});
    connect(m_reason, &QComboBox::currentTextChanged, &m_vm, &RefundViewModel::setReason);
    form->addRow(tr("&Reason:"), m_reason);
    m_tender = valueLabel(this, tr("Where the money goes"));
    m_tender->setWordWrap(true);
    form->addRow(tr("To:"), m_tender);
    layout->addLayout(form);

    m_problem = new QLabel(this);
    m_problem->setAccessibleName(tr("Why it cannot be refunded"));
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(QStringLiteral("QLabel { color: #b00020; font-weight: bold; }"));
    layout->addWidget(m_problem);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_refund = buttons->addButton(tr("Refund"), QDialogButtonBox::AcceptRole);
    m_refund->setAccessibleName(tr("Refund"));
    m_refund->setMinimumHeight(40);
    m_slip = buttons->addButton(tr("Refund &slip…"), QDialogButtonBox::ActionRole);
    m_slip->setAccessibleName(tr("Show the refund slip"));
    // Enter always means Refund (the default button): no other button takes it by having the
    // focus, so a second Enter after the first finds Refund locked and does nothing else.
    for (QPushButton *b : buttons->findChildren<QPushButton *>())
        b->setAutoDefault(false);
    m_all->setAutoDefault(false);
    findButton->setAutoDefault(false);
    m_refund->setDefault(true);
    // Not QDialogButtonBox::accepted: that would close the dialog, and the refund's state is shown here.
    connect(m_refund, &QPushButton::clicked, this, &RefundDialog::clickRefund);
    connect(m_slip, &QPushButton::clicked, this, &RefundDialog::openSlip);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);

    connect(&m_vm, &RefundViewModel::changed, this, &RefundDialog::refresh);
    connect(&m_vm, &RefundViewModel::phaseChanged, this, &RefundDialog::showPhase);
    showPhase(m_vm.phase(), tr("Scan or type the receipt number of the sale to refund."));
    refresh();
    m_number->setFocus();
    resize(720, 640);
}

void RefundDialog::showSale(const Intent &intent)
{
    m_number->setText(Receipt::number(intent, m_context.terminal));
    m_vm.load(intent);
}

void RefundDialog::suggestNumber(const QString &number)
{
    m_number->setText(number);
    m_number->selectAll();
}

void RefundDialog::find()
{
    // The sale shown already: Enter moves on to what to give back, and never reloads it (that
    // would drop what the cashier chose).
    const auto payment = m_vm.payment();
    if (payment && m_vm.phase() == RefundViewModel::Phase::Ready
        && m_number->text().trimmed().compare(Receipt::number(*payment, m_context.terminal), Qt::CaseInsensitive) == 0) {
        focusChoice();
        return;
    }
    m_vm.find(m_number->text());
}

void RefundDialog::focusChoice()
{
    if (m_vm.mode() == RefundViewModel::Mode::Items && m_vm.hasLines()) {
        m_lines->setFocus();
        if (!m_lines->currentIndex().isValid())
            m_lines->setCurrentIndex(m_vm.lines()->index(0, int(RefundLinesModel::Column::Refund)));
    } else if (m_amount->isEnabled()) {
        m_amount->setFocus();
    }
}

void RefundDialog::clickRefund()
{
    const Money amount = m_vm.amount();
    const bool cash = m_vm.tender() == Tender::Cash;
    if (m_gate && !m_vm.refundAsked() && (cash || amount.minorUnits() > m_limit.minorUnits())) {
        m_gate(cash ? tr("A cash refund") : tr("A refund above %1").arg(m_limit.toDisplayString()),
            [this, dialog = QPointer<RefundDialog>(this)](const QString &approver) {
                if (!dialog)
                    return;
                // The approval is stamped on the refund in the transaction that stores it.
                IntentJournal::Approval approval(m_session->journal(), approver);
                m_vm.refund();
                refresh();
            });
        return;
    }
    // Locked inside the view model before anything else runs; the button follows.
    m_vm.refund();
    refresh();
}

void RefundDialog::refresh()
{
    const auto payment = m_vm.payment();
    const bool loaded = payment && m_vm.phase() != RefundViewModel::Phase::Loading;
    const bool asked = m_vm.refundAsked();
    const QString none = tr("—", "no value");
    if (payment) {
        // A sale's short number is its receipt number: said once.
        const QString receipt = Receipt::number(*payment, m_context.terminal);
        m_sale->setText(receipt == payment->saleLabel() ? receipt
                                                        : tr("%1 · receipt %2").arg(payment->saleLabel(), receipt));
        m_paid->setText(tr("%1 by %2 (%3)").arg(payment->amount.toDisplayString(), IntentText::paymentMethod(*payment), IntentText::stateOf(*payment)));
        QString given = m_vm.refunded().toDisplayString();
        if (m_vm.inProgress().minorUnits() > 0)
            given += QLatin1Char(' ') + tr("(and %1 on its way)").arg(m_vm.inProgress().toDisplayString());
        m_given->setText(given);
        m_remains->setText(m_vm.remaining().toDisplayString());
        m_tender->setText(payment->isCash() ? tr("Cash out of the drawer: the journal records it at once.")
                                            : tr("Back to the card %1, through the bank.").arg(IntentText::paymentMethod(*payment)));
    } else {
        for (QLabel *l : {m_sale, m_paid, m_given, m_remains, m_tender})
            l->setText(none);
    }
    const bool items = m_vm.mode() == RefundViewModel::Mode::Items;
    const bool editable = loaded && !asked && m_vm.phase() == RefundViewModel::Phase::Ready;
    m_byItems->setEnabled(editable && m_vm.lines()->anyRefundable());
    m_byAmount->setEnabled(editable);
    {
        const QSignalBlocker a(m_byItems), b(m_byAmount);
        m_byItems->setChecked(items);
        m_byAmount->setChecked(!items);
    }
    m_lines->setEnabled(loaded && items && m_vm.hasLines());
    m_all->setEnabled(editable);
    m_amount->setReadOnly(!editable || items);
    m_amount->setEnabled(editable && !items);
    if (items) {
        const Money total = m_vm.lines()->total();
        m_amount->setText(total.isValid() && total.minorUnits() > 0 ? total.toDisplayString() : QString());
    } else if (m_amount->text() != m_vm.amountText()) {
        m_amount->setText(m_vm.amountText());   // "All that remains" filled it in
    }
    m_reason->setEnabled(editable && payment && !payment->isCash());
    m_problem->setText(m_vm.problem());
    m_problem->setVisible(!m_vm.problem().isEmpty());
    const Money amount = m_vm.amount();
    m_refund->setText(amount.isValid() && amount.minorUnits() > 0 ? tr("Refund %1 (Enter)").arg(amount.toDisplayString())
                                                                  : tr("Refund (Enter)"));
    m_refund->setEnabled(m_vm.canRefund());
    m_slip->setEnabled(m_vm.refundIntent().has_value());
    m_number->setReadOnly(asked);
}

void RefundDialog::showPhase(RefundViewModel::Phase phase, const QString &message)
{
    using P = RefundViewModel::Phase;
    QString color = QStringLiteral("#e8eef5");
    switch (phase) {
    case P::Refunded:
        color = QStringLiteral("#c8f0c8");
        break;
    case P::Declined:
    case P::NeedsAttention:
    case P::Failed:
    case P::NotFound:
        color = QStringLiteral("#f7c6c6");
        break;
    case P::WaitingForConnection:
    case P::Checking:
    case P::BankProcessing:
    case P::Sending:
    case P::Storing:
        color = QStringLiteral("#fbe7b5");
        break;
    default:
        break;
    }
    m_state->setStyleSheet(QStringLiteral("QLabel { background: %1; font-size: 13pt; padding: 6px; border-radius: 6px; }").arg(color));
    m_state->setText(message);
    refresh();   // the widgets the focus goes to are enabled first
    if (phase == P::Ready && !m_vm.refundAsked()) {
        // The field names the sale shown, however it was found (a refund slip's number, "42", the
        // sale's number), so that Enter there knows it is shown already.
        m_number->setText(Receipt::number(*m_vm.payment(), m_context.terminal));
        // The next keys go where the cashier chooses: the first line's quantity, or the amount.
        m_lines->setCurrentIndex(m_vm.lines()->index(0, int(RefundLinesModel::Column::Refund)));
        focusChoice();
    }
    if (phase == P::NotFound) {
        m_number->setFocus();
        m_number->selectAll();
    }
    if (phase == P::Refunded) {
        m_slip->setFocus();
        printSlipOnce();
    }
}

void RefundDialog::printSlipOnce()
{
    const auto refund = m_vm.refundIntent();
    const auto payment = m_vm.payment();
    if (!m_devices || m_slipPrinted || !refund || !payment || refund->state != IntentState::Succeeded)
        return;
    m_slipPrinted = true;
    if (m_devices->autoPrint()) {
        m_devices->print(PrintQueue::Kind::RefundSlip, tr("Refund slip %1").arg(Receipt::number(*refund, m_context.terminal)),
            slipHtml(), QStringLiteral("refund:") + refund->key);
    }
    if (payment->isCash() && m_devices->hasDrawer()) {
        // The cash goes out of the drawer: it opens, and the journal says who and why.
        IntentJournal::StaffAction a;
        a.action = QStringLiteral("open_drawer");
        a.subject = refund->key;
        a.amount = refund->amount.minorUnits();
        a.approvedBy = refund->approvedBy;
        a.detail = QStringLiteral("cash refund");
        m_session->journal()->recordStaffAction(a, this, [](bool, const TillError &, bool) {});
        m_devices->openDrawer(this, [this](bool, const QString &reason) {
            if (!reason.isEmpty())
                m_state->setText(m_state->text() + QLatin1Char('\n') + reason);
        });
    }
}

QString RefundDialog::slipHtml() const
{
    const auto refund = m_vm.refundIntent();
    const auto payment = m_vm.payment();
    if (!refund || !payment)
        return {};
    return RefundSlip::html(*refund, *payment, m_vm.lines()->lines(), m_vm.refundItems(), m_language, m_context);
}

void RefundDialog::openSlip()
{
    const auto refund = m_vm.refundIntent();
    if (!refund)
        return;
    auto *dialog = new ReceiptDialog(slipHtml(), RefundSlip::fileName(*refund, m_context.terminal), this, ReceiptDialog::Document::RefundSlip);
    // Printed on the receipt printer already: "Print again" prints there (issue 36).
    dialog->setReceiptPrinter(m_devices, tr("Refund slip %1").arg(Receipt::number(*refund, m_context.terminal)));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
}

}   // namespace OncePay::Ui
