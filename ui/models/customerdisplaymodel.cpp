#include "customerdisplaymodel.h"

#include "cartmodel.h"
#include "languages.h"

#include <QJsonArray>
#include <QJsonObject>

namespace OncePay::Ui {

namespace {

// The display's words, translated with the display's own translator (not the cashier's).
const char *const kContext = "OncePay::Ui::CustomerDisplayModel";
const char *const kWelcome = QT_TRANSLATE_NOOP("OncePay::Ui::CustomerDisplayModel", "Welcome");
const char *const kPending = QT_TRANSLATE_NOOP("OncePay::Ui::CustomerDisplayModel", "Payment pending — please wait");
const char *const kPaid = QT_TRANSLATE_NOOP("OncePay::Ui::CustomerDisplayModel", "Paid, thank you");
const char *const kDeclined = QT_TRANSLATE_NOOP("OncePay::Ui::CustomerDisplayModel", "Card declined");
const char *const kSeeCashier = QT_TRANSLATE_NOOP("OncePay::Ui::CustomerDisplayModel", "Please wait for the cashier");
const char *const kTotal = QT_TRANSLATE_NOOP("OncePay::Ui::CustomerDisplayModel", "Total");
const char *const kToPay = QT_TRANSLATE_NOOP("OncePay::Ui::CustomerDisplayModel", "To pay");

}   // namespace

CustomerDisplayModel::CustomerDisplayModel(CheckoutViewModel *checkout, QObject *parent)
    : QObject(parent)
    , m_checkout(checkout)
{
    connect(m_checkout, &CheckoutViewModel::phaseChanged, this, &CustomerDisplayModel::refresh);
    connect(m_checkout, &CheckoutViewModel::actionsChanged, this, &CustomerDisplayModel::refresh);
    connect(m_checkout->cart(), &CartModel::totalChanged, this, &CustomerDisplayModel::refresh);
    connect(m_checkout->cart(), &QAbstractItemModel::modelReset, this, &CustomerDisplayModel::refresh);
    refresh();
}

void CustomerDisplayModel::setLanguage(const QString &language, const QString &directory)
{
    m_language = languageFromCode(language) == Language::SimplifiedChinese ? QStringLiteral("zh_CN") : QStringLiteral("en");
    if (m_language == QLatin1String("zh_CN")) {
        if (!m_translator.load(QStringLiteral("oncepay_zh_CN"), directory))
            m_language = QStringLiteral("en");
    }
    refresh();
    emit changed();
}

void CustomerDisplayModel::setShopName(const QString &name)
{
    m_shopName = name;
    emit changed();
}

QString CustomerDisplayModel::text(const char *source) const
{
    if (m_language == QLatin1String("en"))
        return QString::fromUtf8(source);
    const QString translated = m_translator.translate(kContext, source);
    return translated.isEmpty() ? QString::fromUtf8(source) : translated;
}

QString CustomerDisplayModel::stateText() const
{
    switch (m_state) {
    case State::Welcome:
    case State::Items:
        return {};
    case State::Pending:
        return text(kPending);
    case State::Paid:
        return text(kPaid);
    case State::Declined:
        return text(kDeclined);
    case State::SeeCashier:
        return text(kSeeCashier);
    }
    return {};
}

QString CustomerDisplayModel::totalCaption() const
{
    return text(m_remaining ? kToPay : kTotal);
}

QString CustomerDisplayModel::welcomeText() const
{
    return text(kWelcome);
}

CustomerDisplayModel::State CustomerDisplayModel::stateFor(CheckoutViewModel &checkout)
{
    using P = CheckoutViewModel::Phase;
    const std::optional<Intent> intent = checkout.intent();
    switch (checkout.phase()) {
    case P::Storing:
    case P::Sending:
    case P::WaitingForConnection:
    case P::BankProcessing:
    case P::Checking:
    case P::NotConfirmed:
        return State::Pending;
    case P::Paid:
        // The phase follows the journal; the journal's own word is asked again here, so that the
        // display can never run ahead of the gateway.
        if (intent && intent->state == IntentState::Succeeded)
            return State::Paid;
        return State::Pending;
    case P::Declined:
        return State::Declined;
    case P::NeedsAttention:
    case P::Failed:
        return State::SeeCashier;
    case P::Selling:
    case P::Voided:
        break;
    }
    return checkout.cart()->isEmpty() ? State::Welcome : State::Items;
}

void CustomerDisplayModel::refresh()
{
    const State state = stateFor(*m_checkout);
    CartModel *cart = m_checkout->cart();
    QList<Line> lines;
    const QJsonArray json = cart->linesJson();
    const bool chinese = m_language == QLatin1String("zh_CN");
    const QString currency = cart->total().currency();
    for (const QJsonValue &v : json) {
        const QJsonObject o = v.toObject();
        Line line;
        const QString zh = o.value(QStringLiteral("name_zh")).toString();
        line.name = chinese && !zh.isEmpty() ? zh : o.value(QStringLiteral("name")).toString();
        const qint64 grams = o.value(QStringLiteral("weight_g")).toInteger();
        line.quantity = grams > 0 ? QStringLiteral("%1 kg").arg(QString::number(double(grams) / 1000.0, 'f', 3))
                                  : QStringLiteral("× %1").arg(o.value(QStringLiteral("quantity")).toInt());
        line.amount = Money(o.value(QStringLiteral("amount")).toInteger(), currency).toDisplayString();
        lines.append(line);
    }
    // A part paid and the rest to pay: what is left is what the customer needs to see.
    const Money remaining = m_checkout->remaining();
    const bool partPaid = m_checkout->paid().minorUnits() > 0 && state != State::Paid;
    const QString total = (partPaid ? remaining : cart->total()).toDisplayString();
    const bool same = state == m_state && total == m_total && partPaid == m_remaining && lines.size() == m_lines.size()
        && std::equal(lines.cbegin(), lines.cend(), m_lines.cbegin(), [](const Line &a, const Line &b) {
               return a.name == b.name && a.quantity == b.quantity && a.amount == b.amount;
           });
    if (same)
        return;
    m_state = state;
    m_lines = lines;
    m_total = total;
    m_remaining = partPaid;
    emit changed();
}

}   // namespace OncePay::Ui
