#include "salelookup.h"

#include "intentjournal.h"
#include "salebook.h"

#include <QRegularExpression>

namespace OncePay::Ui {

std::optional<qint64> SaleLookup::intentId(const QString &text, const QString &terminal, TillError *error)
{
    const QString t = text.trimmed();
    static const QRegularExpression digits(QStringLiteral("^\\d{1,12}$"));
    static const QRegularExpression number(QStringLiteral("^(.+)-(\\d{1,12})$"));
    // A refund slip's number, "R1-000043": the till's number and the refund's intent id.
    static const QRegularExpression refund(QStringLiteral("^[Rr](\\d{1,9})-(\\d{1,12})$"));
    QString till;
    QString id;
    if (digits.match(t).hasMatch()) {
        id = t;
    } else if (const auto r = refund.match(t); r.hasMatch()) {
        const int ours = SaleBook::tillNumberOf(terminal);
        if (r.captured(1).toInt() != ours) {
            *error = TillError(TillError::Kind::ReceiptOfOtherTill, {t, r.captured(1), QString::number(ours)});
            return std::nullopt;
        }
        id = r.captured(2);
    } else if (const auto m = number.match(t); m.hasMatch()) {
        till = m.captured(1);
        id = m.captured(2);
    } else {
        *error = TillError(TillError::Kind::NotAReceiptNumber,
            {t, QStringLiteral("%1-000042").arg(terminal.isEmpty() ? QStringLiteral("till") : terminal)});
        return std::nullopt;
    }
    // Receipt::number names a till without a terminal name "till".
    const QString ours = terminal.trimmed().isEmpty() ? QStringLiteral("till") : terminal.trimmed();
    if (!till.isEmpty() && till.compare(ours, Qt::CaseInsensitive) != 0) {
        *error = TillError(TillError::Kind::ReceiptOfOtherTill, {t, till, ours});
        return std::nullopt;
    }
    const qint64 value = id.toLongLong();
    if (value < 1) {
        *error = TillError(TillError::Kind::NoSuchReceipt, {t});
        return std::nullopt;
    }
    return value;
}

bool SaleLookup::looksLikeSaleNumber(const QString &text)
{
    static const QRegularExpression number(QStringLiteral("^\\d{1,9}-\\d{6,12}$"));
    return number.match(text.trimmed()).hasMatch();
}

bool SaleLookup::looksLikeSale(const QString &text)
{
    static const QRegularExpression sale(QStringLiteral("^S\\d{8}-\\d{9}-\\d{3}$"));
    return sale.match(text.trimmed()).hasMatch();
}

void SaleLookup::find(IntentJournal *journal, const QString &text, const QString &terminal, QObject *context, const Found &found)
{
    const QString t = text.trimmed();
    if (t.isEmpty())
        return found(false, TillError(TillError::Kind::ReceiptNumberMissing), {});
    if (looksLikeSale(t) || looksLikeSaleNumber(t)) {
        IntentJournal::Query q;
        if (looksLikeSale(t))
            q.orderId = t;
        else
            q.saleNumber = t;
        q.kind = IntentKind::Payment;
        q.newestFirst = true;
        journal->list(q, context, [journal, found, t, terminal, context](bool ok, const TillError &error, const QList<Intent> &payments) {
            if (!ok)
                return found(false, error, {});
            if (payments.isEmpty()) {
                // "1-000042" is also the receipt number of a till named "1": read it so.
                if (!looksLikeSale(t) && t.section(QLatin1Char('-'), 0, 0) == terminal.trimmed())
                    return findReceipt(journal, t, terminal, context, found);
                if (!looksLikeSale(t))
                    return found(false, TillError(TillError::Kind::NoSaleWithNumber, {t}), {});
                return found(false, TillError(TillError::Kind::NoPaymentForSale, {t}), {});
            }
            for (const Intent &p : payments) {
                if (p.state == IntentState::Succeeded)
                    return found(true, {}, p);
            }
            found(true, {}, payments.constFirst());
        });
        return;
    }
    findReceipt(journal, t, terminal, context, found);
}

void SaleLookup::findReceipt(IntentJournal *journal, const QString &t, const QString &terminal, QObject *context, const Found &found)
{
    TillError error;
    const auto id = intentId(t, terminal, &error);
    if (!id)
        return found(false, error, {});
    // The journal numbers its intents 1, 2, 3, ... and never deletes one (AUTOINCREMENT: a
    // refused or rolled-back insert takes no number), so intent N is row N in id order. The row
    // read is checked against N all the same: a gap only ever means "not found", never another sale.
    IntentJournal::Query q;
    q.limit = 1;
    q.offset = *id - 1;
    journal->list(q, context, [found, id = *id, t](bool ok, const TillError &error, const QList<Intent> &rows) {
        if (!ok)
            return found(false, error, {});
        if (rows.isEmpty() || rows.constFirst().id != id)
            return found(false, TillError(TillError::Kind::NoSuchReceipt, {t}), {});
        found(true, {}, rows.constFirst());
    });
}

}   // namespace OncePay::Ui
