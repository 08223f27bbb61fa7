#include "shiftfindingsmodel.h"

#include "intenttext.h"

namespace OncePay::Ui {

ShiftFindingsModel::ShiftFindingsModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void ShiftFindingsModel::setFindings(const QList<ShiftFinding> &findings)
{
    beginResetModel();
    m_findings = findings;
    endResetModel();
}

int ShiftFindingsModel::count(ShiftFinding::Action action) const
{
    return int(std::count_if(m_findings.cbegin(), m_findings.cend(), [action](const ShiftFinding &f) {
        return f.action == action;
    }));
}

QColor ShiftFindingsModel::actionColor(ShiftFinding::Action action)
{
    switch (action) {
    case ShiftFinding::Action::Investigate:
        return QColor(0xf7, 0xc6, 0xc6);
    case ShiftFinding::Action::Sync:
        return QColor(0xfb, 0xe7, 0xb5);
    case ShiftFinding::Action::None:
        break;
    }
    return {};
}

namespace {

// The till's state in words; a refund that succeeded gave money back, it did not take any.
QString tillState(const ShiftFinding &f)
{
    if (*f.localState == IntentState::Voided)
        return ShiftFindingsModel::tr("Voided");
    if (f.subject == ShiftFinding::Subject::Refund && *f.localState == IntentState::Succeeded)
        return ShiftFindingsModel::tr("Refunded");
    return IntentText::state(*f.localState);
}

QString serverState(const ShiftFinding &f)
{
    if (f.subject == ShiftFinding::Subject::Refund) {
        if (f.gatewayStatus == QLatin1String("succeeded"))
            return ShiftFindingsModel::tr("Refunded");
        if (f.gatewayStatus == QLatin1String("failed"))
            return ShiftFindingsModel::tr("Refund failed");
    }
    return IntentText::paymentStatus(f.gatewayStatus);
}

}   // namespace

QString ShiftFindingsModel::text(const ShiftFinding &f, Column column) const
{
    auto amount = [](const Money &m) {
        return m.isValid() ? m.toDisplayString() : QString();
    };
    switch (column) {
    case Column::What: {
        QString what;
        switch (f.subject) {
        case ShiftFinding::Subject::Payment:
            what = f.tender == Tender::Cash ? tr("Cash payment") : tr("Card payment");
            break;
        case ShiftFinding::Subject::Refund:
            what = f.tender == Tender::Cash ? tr("Cash refund") : tr("Card refund");
            break;
        case ShiftFinding::Subject::RefundTotal:
            what = tr("Refunded in all");
            break;
        }
        const QString sale = f.saleNumber.isEmpty() ? f.orderId : f.saleNumber;
        return sale.isEmpty() ? what : tr("%1, sale %2").arg(what, sale);
    }
    case Column::Finding:
        return f.findingText();
    case Column::Till:
        if (!f.localState)
            return tr("not on the till");
        return f.subject == ShiftFinding::Subject::RefundTotal
            ? amount(f.localAmount)
            : tr("%1, %2").arg(tillState(f), amount(f.localAmount));
    case Column::Server:
        if (f.gatewayStatus.isEmpty())
            return f.tender == Tender::Cash ? tr("not sent (cash)") : tr("not on the server");
        return f.subject == ShiftFinding::Subject::RefundTotal
            ? amount(f.gatewayAmount)
            : tr("%1, %2").arg(serverState(f), amount(f.gatewayAmount));
    case Column::Bank:
        return f.bankText();
    case Column::ToDo:
        return f.advice();
    case Column::ColumnCount:
        break;
    }
    return {};
}

int ShiftFindingsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_findings.size());
}

int ShiftFindingsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(Column::ColumnCount);
}

QVariant ShiftFindingsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const ShiftFinding &f = m_findings.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return text(f, Column(index.column()));
    case Qt::ToolTipRole:
        return tr("Key %1").arg(f.key) + QLatin1Char('\n') + f.advice();
    case Qt::BackgroundRole: {
        const QColor c = actionColor(f.action);
        return c.isValid() ? QVariant(c) : QVariant();
    }
    case KeyRole:
        return f.key;
    case ActionRole:
        return int(f.action);
    default:
        return {};
    }
}

QVariant ShiftFindingsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (Column(section)) {
    case Column::What:
        return tr("Payment");
    case Column::Finding:
        return tr("Finding");
    case Column::Till:
        return tr("Till");
    case Column::Server:
        return tr("Server");
    case Column::Bank:
        return tr("Bank");
    case Column::ToDo:
        return tr("What to do");
    case Column::ColumnCount:
        break;
    }
    return {};
}

}   // namespace OncePay::Ui
