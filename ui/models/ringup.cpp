#include "ringup.h"

namespace OncePay::Ui {

RingUp::RingUp(const Catalog *catalog, CartModel *cart, Gate *gate)
    : m_catalog(catalog)
    , m_cart(cart)
    , m_gate(gate)
{
}

QList<Product> RingUp::matchingProducts(const QString &codeOrName) const
{
    QList<Product> out;
    for (const Product *p : m_catalog->matches(codeOrName))
        out.append(*p);
    return out;
}

bool RingUp::addProduct(const QString &codeOrName, QString *reason)
{
    const QString typed = codeOrName.trimmed();
    const ScanMatch match = matchScan(*m_catalog, typed, m_layouts);
    switch (match.kind) {
    case ScanMatch::Kind::Product:
        break;
    case ScanMatch::Kind::Several:
        *reason = tr("%n products match \"%1\": pick one.", nullptr, int(match.candidates.size())).arg(typed);
        return false;   // a paid sale stays on screen
    case ScanMatch::Kind::NotFound:
        *reason = m_catalog->isEmpty() ? tr("The catalog is still loading; scan again in a moment.")
                                       : tr("No product has the code or name \"%1\".").arg(typed);
        return false;
    case ScanMatch::Kind::WrongCheckDigit:
        *reason = tr("The barcode %1 did not read right (its check digit is wrong). Scan it again, or type the code "
                     "printed under it.")
                      .arg(typed);
        return false;
    case ScanMatch::Kind::EmbeddedNotFound:
        *reason = tr("The scale's label %1 is for item %2, which is not in the catalog. Weigh it again or ask a "
                     "manager to add the item.")
                      .arg(typed, match.code);
        return false;
    case ScanMatch::Kind::NeedsPrice:
        *reason = tr("%1 is sold at a price you type.").arg(match.item.product.name(m_cart->language() == Language::SimplifiedChinese));
        return false;
    }
    if (!m_gate->readyToAdd(reason))
        return false;
    if (match.item.isWeighed() || match.item.fixedAmount)
        m_cart->addItem(match.item);
    else
        m_cart->add(match.item.product);
    return true;
}

std::optional<Product> RingUp::needsPrice(const QString &codeOrName) const
{
    const ScanMatch match = matchScan(*m_catalog, codeOrName, m_layouts);
    if (match.kind != ScanMatch::Kind::NeedsPrice)
        return std::nullopt;
    return match.item.product;
}

bool RingUp::addProductAtPrice(const QString &codeOrName, const QString &price, QString *reason)
{
    const std::optional<Product> product = needsPrice(codeOrName);
    if (!product) {
        *reason = tr("No product sold at a typed price has the code \"%1\".").arg(codeOrName.trimmed());
        return false;
    }
    const std::optional<Money> amount = Money::parse(price.trimmed(), product->price.currency());
    if (!amount || amount->minorUnits() < 1 || amount->minorUnits() > m_openPriceLimit.minorUnits()) {
        *reason = tr("Type a price above 0 and at most %1, such as 12.50.").arg(m_openPriceLimit.toDisplayString());
        return false;
    }
    if (!m_gate->readyToAdd(reason))
        return false;
    SaleItem item;
    item.product = *product;
    item.fixedAmount = amount->minorUnits();
    m_cart->addItem(item);
    return true;
}

bool RingUp::canDiscount(int row, QString *reason) const
{
    if (m_cart->isEmpty()) {
        *reason = tr("The sale has no items to discount.");
        return false;
    }
    if (!m_gate->canEditCart()) {
        *reason = tr("Part of this sale is paid or on its way: its amount can no longer change. Take the rest, or cancel "
                     "the sale.");
        return false;
    }
    if (row != -1 && (row < 0 || row >= m_cart->rowCount())) {
        *reason = tr("Select the line to discount first.");
        return false;
    }
    return true;
}

std::optional<Discount> RingUp::parseDiscount(int row, const QString &text, QString *reason) const
{
    if (!canDiscount(row, reason))
        return std::nullopt;
    if (text.trimmed().isEmpty())
        return Discount();
    const std::optional<Discount> d = Discount::parse(text, m_cart->total().currency());
    if (!d)
        *reason = tr("\"%1\" is not a discount: type a percent such as 10% or an amount such as 5.00.").arg(text.trimmed());
    return d;
}

bool RingUp::discountAboveLimit(int row, const QString &text, int limitPercent) const
{
    const std::optional<Discount> d = Discount::parse(text, m_cart->total().currency());
    if (!d || d->isNone())
        return false;
    // A percent is judged as typed (10 % of 24.95 rounds to 2.50, still 10 %).
    if (d->kind == Discount::Kind::Percent)
        return d->value > qint64(limitPercent) * 100;
    const SalePricing &p = m_cart->pricing();
    qint64 base = 0;
    if (row == -1) {
        base = p.subtotal - p.lineDiscounts;
    } else if (row >= 0 && row < p.lines.size()) {
        base = p.lines.at(row).amount;
    }
    return d->amountOf(base) * 100 > base * limitPercent;
}

bool RingUp::discountLine(int row, const QString &text, QString *reason)
{
    const std::optional<Discount> d = parseDiscount(qMax(0, row) == row ? row : -2, text, reason);
    if (!d)
        return false;
    m_cart->setLineDiscount(row, *d);
    return true;
}

bool RingUp::discountSale(const QString &text, QString *reason)
{
    const std::optional<Discount> d = parseDiscount(-1, text, reason);
    if (!d)
        return false;
    m_cart->setSaleDiscount(*d);
    return true;
}

bool RingUp::addWeighedProduct(const QString &code, const QString &kilograms, QString *reason)
{
    const Product *product = m_catalog->byCode(code);
    if (!product || product->unit != SaleUnit::Kilogram) {
        *reason = tr("No product sold by the kg has the code \"%1\".").arg(code);
        return false;
    }
    const std::optional<qint64> grams = parseKilograms(kilograms);
    if (!grams) {
        *reason = tr("\"%1\" is not a weight: type kilograms such as 0.532.").arg(kilograms.trimmed());
        return false;
    }
    if (!m_gate->readyToAdd(reason))
        return false;
    SaleItem item;
    item.product = *product;
    item.grams = *grams;
    m_cart->addItem(item);
    return true;
}

void RingUp::removeLine(int row)
{
    if (m_gate->canEditCart())
        m_cart->removeLine(row);
}

void RingUp::changeQuantity(int row, int delta)
{
    if (m_gate->canEditCart())
        m_cart->setQuantity(row, m_cart->quantity(row) + delta);
}

}   // namespace OncePay::Ui
