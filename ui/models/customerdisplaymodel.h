#pragma once

#include "checkoutviewmodel.h"

#include <QObject>
#include <QStringList>
#include <QTranslator>

namespace OncePay::Ui {

// What the customer's screen shows (issue 24): the shop, the lines, the total, and the payment's
// true state in large words, in the display's own language (apart from the cashier's). "Paid"
// only once the journal holds the gateway's succeeded (or the cash): a payment on its way, whose
// answer was lost or that waits for the connection, is "Payment pending — please wait".
class CustomerDisplayModel final : public QObject
{
    Q_OBJECT

public:
    enum class State {
        Welcome,   // nothing rung up
        Items,   // ringing up (or a part paid and the rest to pay)
        Pending,   // a payment is on its way or its answer is awaited
        Paid,   // the sale is paid: the gateway said succeeded, or cash
        Declined,   // the card was declined: another card or cash
        SeeCashier,   // something the cashier sorts out
    };
    Q_ENUM(State)

    struct Line
    {
        QString name;
        QString quantity;
        QString amount;
    };

    CustomerDisplayModel(CheckoutViewModel *checkout, QObject *parent = nullptr);
    // "en" or "zh_CN": the display's words and the products' names; the translations are read from
    // `directory` (the till's own, compiled in).
    void setLanguage(const QString &language, const QString &directory = QStringLiteral(":/i18n"));
    QString language() const { return m_language; }
    void setShopName(const QString &name);

    State state() const { return m_state; }
    QString stateText() const;   // "Paid, thank you"
    QString shopName() const { return m_shopName; }
    QList<Line> lines() const { return m_lines; }
    QString totalCaption() const;   // "Total" / "To pay"
    QString totalText() const { return m_total; }
    QString welcomeText() const;

    static State stateFor(CheckoutViewModel &checkout);

signals:
    void changed();

private:
    QString text(const char *source) const;
    void refresh();

    CheckoutViewModel *m_checkout;
    QTranslator m_translator;
    QString m_language = QStringLiteral("en");
    QString m_shopName;
    State m_state = State::Welcome;
    QList<Line> m_lines;
    QString m_total;
    bool m_remaining = false;
};

}   // namespace OncePay::Ui
