#include "parkedsales.h"

#include "checkoutviewmodel.h"
#include "languages.h"

#include <QDateTime>
#include <QLocale>

namespace OncePay::Ui {

namespace {
constexpr int kNamesShown = 3;   // in the list's Items column: the rest is "…"
}   // namespace

ParkedSales::ParkedSales(ParkedSaleBook *book, CheckoutViewModel *checkout, QObject *parent)
    : QAbstractTableModel(parent)
    , m_book(book)
    , m_checkout(checkout)
{
}

void ParkedSales::refresh()
{
    m_book->parked(this, [this](bool ok, const TillError &error, const QList<ParkedSale> &sales) {
        if (!ok) {
            emit refused(error);
            return;
        }
        beginResetModel();
        m_sales = sales;
        endResetModel();
    });
}

void ParkedSales::setBusy(bool busy)
{
    m_busy = busy;
    // The checkout takes nothing while the journal stores or gives back a cart.
    m_checkout->setHeld(busy);
    emit busyChanged();
}

bool ParkedSales::hasCartToPark() const
{
    return !m_checkout->cart()->isEmpty() && !m_checkout->scanStartsNextSale()
        && m_checkout->phase() != CheckoutViewModel::Phase::Paid;
}

TillError ParkedSales::parkRefusal() const
{
    using K = TillError::Kind;
    if (m_busy || m_checkout->phase() == CheckoutViewModel::Phase::Storing)
        return TillError(K::ParkWhileSaving);
    if (m_checkout->paid().minorUnits() > 0)
        return TillError(K::ParkPartlyPaid, {m_checkout->paid().toDisplayString()});
    if (m_checkout->waiting().minorUnits() > 0)
        return TillError(K::ParkPaymentWaiting, {m_checkout->waiting().toDisplayString()});
    if (!m_checkout->canStartNewSale())   // a payment being given up: its answer first
        return TillError(K::ParkWhileSaving);
    return {};
}

void ParkedSales::park()
{
    parkThen({});
}

void ParkedSales::parkThen(std::function<void()> then)
{
    if (m_busy || !hasCartToPark())
        return;
    if (const TillError why = parkRefusal(); why.isError()) {
        emit refused(why);
        return;
    }
    const CartModel *cart = m_checkout->cart();
    ParkedSaleBook::Park request;
    request.cart = ParkedCart{cart->items(), cart->saleDiscount(), cart->taxMode()};
    request.total = cart->total();
    request.itemCount = cart->itemCount();
    // A card declined or given up made the cart a sale in the journal: the book checks it there.
    if (!m_checkout->saleNumber().isEmpty())
        request.orderId = m_checkout->orderId();
    setBusy(true);
    m_book->park(request, this, [this, then = std::move(then)](bool ok, const TillError &error, const ParkedSale &sale) {
        setBusy(false);
        if (!ok) {
            emit refused(error);
            return;
        }
        m_checkout->startNewSale();   // the next customer's
        refresh();
        emit parked(sale);
        if (then)
            then();
    });
}

void ParkedSales::recall(int row)
{
    if (m_busy || row < 0 || row >= m_sales.size())
        return;
    const qint64 id = m_sales.at(row).id;
    auto recallIt = [this, id] {
        setBusy(true);
        m_book->recall(id, this, [this](bool ok, const TillError &error, const ParkedSale &sale) {
            setBusy(false);
            refresh();
            if (!ok) {
                emit refused(error);
                return;
            }
            putBack(sale);
        });
    };
    // The customer on screen is never dropped: their cart is parked first, or nothing happens.
    if (hasCartToPark()) {
        if (const TillError why = parkRefusal(); why.isError()) {
            emit refused(why);
            return;
        }
        parkThen(recallIt);
        return;
    }
    recallIt();
}

void ParkedSales::putBack(const ParkedSale &sale)
{
    // A sale that is over (paid) gives way; the cart is empty and the next sale fresh.
    if (!m_checkout->cart()->isEmpty() || !m_checkout->saleNumber().isEmpty())
        m_checkout->startNewSale();
    const ParkedCart cart = sale.parkedCart();
    m_checkout->cart()->restoreItems(cart.items, cart.saleDiscount);
    emit recalled(sale, m_checkout->cart()->total());
}

void ParkedSales::remove(int row)
{
    if (m_busy || row < 0 || row >= m_sales.size())
        return;
    m_busy = true;   // the checkout itself is not held: nothing of it changes
    emit busyChanged();
    m_book->remove(m_sales.at(row).id, this, [this](bool ok, const TillError &error, const ParkedSale &sale) {
        m_busy = false;
        emit busyChanged();
        refresh();
        if (!ok) {
            emit refused(error);
            return;
        }
        emit removed(sale);
    });
}

QString ParkedSales::itemsText(const ParkedSale &sale) const
{
    const bool chinese = m_checkout->cart()->language() == Language::SimplifiedChinese;
    const ParkedCart cart = sale.parkedCart();
    QStringList names;
    for (const SaleItem &i : cart.items) {
        if (names.size() == kNamesShown) {
            names << QStringLiteral("…");
            break;
        }
        const QString name = i.product.name(chinese);
        names << (i.quantity > 1 && !i.isWeighed() ? tr("%1 ×%2").arg(name).arg(i.quantity) : name);
    }
    return tr("%n item(s): %1", nullptr, sale.itemCount).arg(names.join(tr(", ")));
}

int ParkedSales::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_sales.size());
}

int ParkedSales::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(Column::Count);
}

QVariant ParkedSales::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ParkedSale &s = m_sales.at(index.row());
    if (role == Qt::TextAlignmentRole && index.column() == int(Column::Total))
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::AccessibleTextRole)
        return {};
    switch (Column(index.column())) {
    case Column::Number:
        return s.number;
    case Column::ParkedAt: {
        // The time alone today; a sale parked on an earlier day says its date too.
        const QDateTime at = QDateTime::fromMSecsSinceEpoch(s.parkedAt);
        return at.date() == QDate::currentDate() ? QLocale().toString(at.time(), QLocale::ShortFormat)
                                                 : QLocale().toString(at, QLocale::ShortFormat);
    }
    case Column::Items:
        return itemsText(s);
    case Column::Total:
        return s.total.toDisplayString();
    case Column::ParkedBy:
        return s.parkedBy;
    case Column::Count:
        break;
    }
    return {};
}

QVariant ParkedSales::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case Column::Number:
        return tr("Number");
    case Column::ParkedAt:
        return tr("Parked at");
    case Column::Items:
        return tr("Items");
    case Column::Total:
        return tr("Total");
    case Column::ParkedBy:
        return tr("Parked by");
    case Column::Count:
        break;
    }
    return {};
}

}   // namespace OncePay::Ui
