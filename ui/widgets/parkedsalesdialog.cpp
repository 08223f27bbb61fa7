#include "parkedsalesdialog.h"

#include "parkedsales.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace OncePay::Ui {

ParkedSalesDialog::ParkedSalesDialog(ParkedSales *sales, QWidget *parent)
    : QDialog(parent)
    , m_sales(sales)
{
    setWindowTitle(tr("Parked sales"));
    setAccessibleName(tr("Parked sales"));
    setModal(true);
    auto *layout = new QVBoxLayout(this);
    auto *heading = new QLabel(tr("Enter puts the selected sale back in the cart. Del deletes it. Esc closes."), this);
    heading->setWordWrap(true);
    layout->addWidget(heading);

    m_table = new QTableView(this);
    m_table->setModel(sales);
    m_table->setAccessibleName(tr("Parked sales list"));
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setTabKeyNavigation(false);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(int(ParkedSales::Column::Items), QHeaderView::Stretch);
    m_table->setMinimumHeight(200);
    layout->addWidget(m_table, 1);

    m_onScreen = new QLabel(this);
    m_onScreen->setAccessibleName(tr("The sale on screen"));
    m_onScreen->setWordWrap(true);
    layout->addWidget(m_onScreen);
    m_message = new QLabel(this);
    m_message->setAccessibleName(tr("Parked sales message"));
    m_message->setWordWrap(true);
    m_message->setStyleSheet(QStringLiteral("QLabel { color: #b00020; font-weight: bold; }"));
    layout->addWidget(m_message);

    m_question = new QWidget(this);
    auto *question = new QHBoxLayout(m_question);
    question->setContentsMargins(0, 0, 0, 0);
    m_questionText = new QLabel(m_question);
    m_questionText->setAccessibleName(tr("Delete question"));
    m_questionText->setWordWrap(true);
    question->addWidget(m_questionText, 1);
    auto *yes = new QPushButton(tr("Delete it (Del)"), m_question);
    auto *no = new QPushButton(tr("Keep it (Esc)"), m_question);
    question->addWidget(yes);
    question->addWidget(no);
    connect(yes, &QPushButton::clicked, this, &ParkedSalesDialog::confirmDelete);
    connect(no, &QPushButton::clicked, this, &ParkedSalesDialog::closeQuestion);
    m_question->hide();
    layout->addWidget(m_question);

    auto *buttons = new QDialogButtonBox(this);
    m_recall = buttons->addButton(tr("Recall (Enter)"), QDialogButtonBox::ActionRole);
    m_delete = buttons->addButton(tr("Delete… (Del)"), QDialogButtonBox::ActionRole);
    QPushButton *close = buttons->addButton(tr("Close (Esc)"), QDialogButtonBox::RejectRole);
    connect(m_recall, &QPushButton::clicked, this, &ParkedSalesDialog::recallSelected);
    connect(m_delete, &QPushButton::clicked, this, &ParkedSalesDialog::askDelete);
    connect(close, &QPushButton::clicked, this, &QDialog::reject);
    layout->addWidget(buttons);
    // The list keeps the keyboard: a button with focus would take a scanner's Enter as a click.
    for (QPushButton *b : findChildren<QPushButton *>()) {
        b->setAutoDefault(false);
        b->setDefault(false);
        b->setFocusPolicy(Qt::NoFocus);
    }
    m_table->installEventFilter(this);

    connect(sales, &QAbstractItemModel::modelReset, this, &ParkedSalesDialog::refresh);
    connect(sales, &ParkedSales::busyChanged, this, &ParkedSalesDialog::refresh);
    connect(sales, &ParkedSales::recalled, this, &QDialog::accept);
    connect(sales, &ParkedSales::refused, this, [this](const TillError &why) {
        m_message->setText(why.text());
    });
    connect(sales, &ParkedSales::removed, this, [this](const ParkedSale &sale) {
        closeQuestion();
        m_message->setText(tr("Parked sale %1 is deleted.").arg(sale.number));
    });
    sales->refresh();
    refresh();
    m_table->setFocus();
    resize(760, 420);
}

int ParkedSalesDialog::selectedRow() const
{
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    return rows.isEmpty() ? -1 : rows.constFirst().row();
}

void ParkedSalesDialog::refresh()
{
    const int count = m_sales->rowCount();
    if (count > 0 && selectedRow() < 0)
        m_table->selectRow(0);   // the oldest: the customer who has waited longest
    // "Parked by" only on a till with staff: an empty column says nothing.
    const auto &sales = m_sales->sales();
    m_table->setColumnHidden(int(ParkedSales::Column::ParkedBy), std::none_of(sales.cbegin(), sales.cend(), [](const ParkedSale &s) {
        return !s.parkedBy.isEmpty();
    }));
    const bool any = count > 0 && !m_sales->isBusy();
    m_recall->setEnabled(any);
    m_delete->setEnabled(any);
    if (count == 0)
        m_message->setText(tr("No sale is parked. F5 parks the sale on screen."));
    else if (m_message->text() == tr("No sale is parked. F5 parks the sale on screen."))
        m_message->clear();
    QString onScreen;
    if (m_sales->hasCartToPark()) {
        const TillError why = m_sales->parkRefusal();
        onScreen = why.isError() ? tr("The sale on screen cannot be parked, so no other can be recalled now: %1").arg(why.text())
                                 : tr("The sale on screen is parked first when you recall another.");
    }
    m_onScreen->setText(onScreen);
    m_onScreen->setVisible(!onScreen.isEmpty());
}

void ParkedSalesDialog::recallSelected()
{
    const int row = selectedRow();
    if (row < 0 || m_sales->isBusy())
        return;
    m_message->clear();
    m_sales->recall(row);
}

void ParkedSalesDialog::askDelete()
{
    const int row = selectedRow();
    if (row < 0 || m_sales->isBusy())
        return;
    const ParkedSale &sale = m_sales->sales().at(row);
    m_deleting = sale.id;
    m_questionText->setText(tr("Delete parked sale %1 (%2, %3)? Its items go back on the shelf; the journal keeps that you deleted it.")
                                .arg(sale.number, m_sales->itemsText(sale), sale.total.toDisplayString()));
    m_question->show();
    m_message->clear();
}

void ParkedSalesDialog::confirmDelete()
{
    if (!m_question->isVisible())
        return;
    for (int row = 0; row < m_sales->sales().size(); ++row) {
        if (m_sales->sales().at(row).id == m_deleting) {
            m_sales->remove(row);
            return;
        }
    }
    closeQuestion();
}

void ParkedSalesDialog::closeQuestion()
{
    m_question->hide();
    m_deleting = 0;
    m_table->setFocus();
}

void ParkedSalesDialog::keep(const QString &code)
{
    m_scanned << code;
    m_message->setText(m_scanned.size() == 1
            ? tr("%1 was scanned: it is kept and added to the sale when this list closes.").arg(code)
            : tr("%1 scanned items are kept and added to the sale when this list closes.").arg(m_scanned.size()));
}

bool ParkedSalesDialog::eventFilter(QObject *watched, QEvent *event)
{
    if (watched != m_table || event->type() != QEvent::KeyPress)
        return QDialog::eventFilter(watched, event);
    auto *key = static_cast<QKeyEvent *>(event);
    const ScanDetector::Verdict verdict = m_scans.press(*key);
    const bool plain = !(key->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier));
    switch (key->key()) {
    case Qt::Key_Return:
    case Qt::Key_Enter:
        // A scan, or anything typed before the Enter, is a code for the sale; only a bare Enter
        // (a person's) recalls, and never while the delete question is open.
        if (verdict == ScanDetector::Verdict::Scanned || !m_scans.code().trimmed().isEmpty())
            keep(m_scans.code().trimmed());
        else if (m_question->isVisible())
            m_message->setText(tr("Press Del to delete it, or Esc to keep it."));
        else
            recallSelected();
        return true;
    case Qt::Key_Delete:
        if (m_question->isVisible())
            confirmDelete();
        else
            askDelete();
        return true;
    case Qt::Key_Escape:
        if (m_question->isVisible()) {
            closeQuestion();
            return true;
        }
        return false;   // closes the list
    case Qt::Key_Up:
    case Qt::Key_Down:
    case Qt::Key_PageUp:
    case Qt::Key_PageDown:
    case Qt::Key_Home:
    case Qt::Key_End:
        m_scans.reset();   // a person choosing a line: what was typed before is dropped
        return QDialog::eventFilter(watched, event);
    default:
        break;
    }
    // Characters wait for their Enter (a scan's digits); the list never searches by them.
    return plain && !key->text().isEmpty() && key->text().at(0).isPrint();
}

}   // namespace OncePay::Ui
