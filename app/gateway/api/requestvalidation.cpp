#include "gateway/api/requestvalidation.h"

#include "gateway/acquirer/acquirersimulator.h"
#include "idempotencykey.h"
#include "money.h"

#include <QRegularExpression>

namespace OncePay::Gateway {

qsizetype codePoints(QStringView text)
{
    // A pair of surrogates is one character (API.md: lengths count Unicode code points).
    qsizetype n = 0;
    for (qsizetype i = 0; i < text.size(); ++i, ++n) {
        if (text.at(i).isHighSurrogate() && i + 1 < text.size() && text.at(i + 1).isLowSurrogate())
            ++i;
    }
    return n;
}

namespace {

constexpr qint64 kMaxAmount = 100'000'000;

struct Checker
{
    const JsonNode &body;
    QList<Problem::FieldError> errors;

    void error(const QString &field, const QString &message) { errors.append({field, message}); }

    bool isObject()
    {
        if (body.type == JsonNode::Type::Object)
            return true;
        error(QStringLiteral("body"), QStringLiteral("must be a JSON object"));
        return false;
    }

    void onlyKnown(std::initializer_list<const char *> known)
    {
        for (const auto &m : body.members) {
            bool ok = false;
            for (const char *k : known)
                ok = ok || m.first == QLatin1String(k);
            if (!ok)
                error(m.first, QStringLiteral("unknown field"));
        }
    }

    const JsonNode *typed(const char *field, JsonNode::Type type, bool required)
    {
        const JsonNode *n = body.member(QString::fromLatin1(field));
        if (!n || (!required && n->type == JsonNode::Type::Null)) {
            if (required)
                error(QLatin1String(field), QStringLiteral("is required"));
            return nullptr;
        }
        if (n->type != type) {
            error(QLatin1String(field), QStringLiteral("must be a %1, not a %2").arg(QLatin1String(JsonNode::typeName(type)), QLatin1String(JsonNode::typeName(n->type))));
            return nullptr;
        }
        return n;
    }

    qint64 amount()
    {
        const JsonNode *n = typed("amount", JsonNode::Type::Number, true);
        if (!n)
            return 0;
        const auto v = n->toInteger();
        if (!v) {
            error(QStringLiteral("amount"), QStringLiteral("must be an integer count of minor units"));
            return 0;
        }
        if (*v < 1 || *v > kMaxAmount) {
            error(QStringLiteral("amount"), QStringLiteral("must be between 1 and %1").arg(kMaxAmount));
            return 0;
        }
        return *v;
    }

    QString text(const char *field, bool required, int maxLength)
    {
        const JsonNode *n = typed(field, JsonNode::Type::String, required);
        if (!n)
            return {};
        if (codePoints(n->string) > maxLength) {
            error(QLatin1String(field), QStringLiteral("must be at most %1 characters").arg(maxLength));
            return {};
        }
        if (n->string.contains(QChar(0))) {
            error(QLatin1String(field), QStringLiteral("must not contain NUL characters"));
            return {};
        }
        return n->string;
    }
};

}   // namespace

PaymentValidation validatePayment(const JsonNode &body)
{
    Checker c{body, {}};
    PaymentValidation out;
    if (!c.isObject()) {
        out.errors = c.errors;
        return out;
    }
    c.onlyKnown({"amount", "currency", "order_id", "payment_method", "wallet_code", "description", "metadata"});
    Payment &p = out.fields;
    p.amount = c.amount();

    p.currency = c.text("currency", true, 3);
    if (!p.currency.isEmpty() && !Money::isSupportedCurrency(p.currency))
        c.error(QStringLiteral("currency"), QStringLiteral("must be a supported ISO 4217 code in capitals (CNY, USD, EUR, JPY, ...)"));

    static const QRegularExpression orderId(QStringLiteral("^[A-Za-z0-9_-]{1,64}$"));
    p.orderId = c.text("order_id", true, 64);
    if (body.member(u"order_id") && body.member(u"order_id")->type == JsonNode::Type::String
        && !orderId.match(p.orderId).hasMatch())
        c.error(QStringLiteral("order_id"), QStringLiteral("must be 1 to 64 of A-Z a-z 0-9 - _"));

    p.paymentMethod = c.text("payment_method", true, 64);
    const QString walletCode = c.text("wallet_code", false, 64);
    const bool wallet = p.paymentMethod == QLatin1String("wallet");
    if (wallet) {
        // API.md "Wallet payments": the code the customer's phone shows, kept with the method.
        if (!body.member(u"wallet_code"))
            c.error(QStringLiteral("wallet_code"), QStringLiteral("is required for a wallet payment"));
        else if (Payment::walletBrandOf(walletCode).isEmpty())
            c.error(QStringLiteral("wallet_code"), QStringLiteral("must be a payment code: 18 digits starting 10 to 15 or 25 to 30"));
        else
            p.paymentMethod = QStringLiteral("wallet:") + walletCode;
    } else if (!p.paymentMethod.isEmpty()
        && (Payment::isWalletMethod(p.paymentMethod) || !AcquirerSimulator::isKnownToken(p.paymentMethod))) {
        // "wallet:<code>" is the gateway's own form of a wallet payment (kept on the record, sent
        // to the acquirer), not a method a client names: it would skip the wallet_code checks.
        c.error(QStringLiteral("payment_method"), QStringLiteral("must be wallet or a test token such as tok_visa"));
    }
    if (!wallet && body.member(u"wallet_code"))
        c.error(QStringLiteral("wallet_code"), QStringLiteral("is only for payment_method wallet"));

    p.description = c.text("description", false, 500);

    if (const JsonNode *meta = c.typed("metadata", JsonNode::Type::Object, false)) {
        if (meta->members.size() > 20)
            c.error(QStringLiteral("metadata"), QStringLiteral("must have at most 20 entries"));
        bool ok = meta->members.size() <= 20;
        for (const auto &m : meta->members) {
            if (m.first.isEmpty() || codePoints(m.first) > 40 || m.second.type != JsonNode::Type::String
                || codePoints(m.second.string) > 500 || m.first.contains(QChar(0)) || m.second.string.contains(QChar(0))) {
                c.error(QStringLiteral("metadata.") + m.first.left(40),
                    QStringLiteral("keys are 1 to 40 characters and values strings of at most 500, without NUL"));
                ok = false;
            }
        }
        if (ok)
            p.metadataJson = canonicalJson(*meta);
    }
    out.errors = c.errors;
    return out;
}

RefundValidation validateRefund(const JsonNode &body)
{
    Checker c{body, {}};
    RefundValidation out;
    if (!c.isObject()) {
        out.errors = c.errors;
        return out;
    }
    c.onlyKnown({"amount", "reason"});
    out.fields.amount = c.amount();
    out.fields.reason = c.text("reason", false, 500);
    out.errors = c.errors;
    return out;
}

SimulationValidation validateSimulation(const JsonNode &body)
{
    Checker c{body, {}};
    SimulationValidation out;
    if (!c.isObject()) {
        out.errors = c.errors;
        return out;
    }
    c.onlyKnown({"mode", "latency_ms", "wallet_confirm_ms"});
    if (const JsonNode *mode = body.member(u"mode")) {
        out.mode = mode->type == JsonNode::Type::String ? SimulationState::modeFromName(mode->string) : std::nullopt;
        if (!out.mode)
            c.error(QStringLiteral("mode"), QStringLiteral("must be normal, decline_all, timeout_after_charge or error_before_charge"));
    }
    const auto milliseconds = [&](const char16_t *name, std::optional<int> *into) {
        const JsonNode *n = body.member(name);
        if (!n)
            return;
        const std::optional<qint64> v = n->toInteger();
        if (v && *v >= 0 && *v <= 60'000)
            *into = int(*v);
        else
            c.error(QString::fromUtf16(name), QStringLiteral("must be an integer from 0 to 60000"));
    };
    milliseconds(u"latency_ms", &out.latencyMs);
    milliseconds(u"wallet_confirm_ms", &out.walletConfirmMs);
    if (c.errors.isEmpty() && !out.mode && !out.latencyMs && !out.walletConfirmMs)
        c.error(QStringLiteral("mode"), QStringLiteral("is required: at least one of mode, latency_ms and wallet_confirm_ms"));
    out.errors = c.errors;
    return out;
}

SimulationState SimulationValidation::applyTo(SimulationState current) const
{
    if (mode)
        current.mode = *mode;
    if (latencyMs)
        current.latencyMs = *latencyMs;
    if (walletConfirmMs)
        current.walletConfirmMs = *walletConfirmMs;
    return current;
}

namespace {
// merchant and the keys named in `keys` as the acquirer service takes them.
QString merchantField(Checker &c, const JsonNode &body)
{
    QString merchant = c.text("merchant", true, 64);
    if (body.member(u"merchant") && body.member(u"merchant")->type == JsonNode::Type::String && merchant.isEmpty())
        c.error(QStringLiteral("merchant"), QStringLiteral("must not be empty"));
    return merchant;
}

QString keyField(Checker &c, const JsonNode &body, const char *name)
{
    QString key = c.text(name, true, 255);
    const QString field = QString::fromLatin1(name);
    if (body.member(field) && body.member(field)->type == JsonNode::Type::String && !IdempotencyKey::isValidKey(key))
        c.error(field, QStringLiteral("must be 1 to 255 of A-Z a-z 0-9 - _ . : ~"));
    return key;
}

QString currencyField(Checker &c)
{
    QString currency = c.text("currency", true, 3);
    if (!currency.isEmpty() && !Money::isSupportedCurrency(currency))
        c.error(QStringLiteral("currency"), QStringLiteral("must be a supported ISO 4217 code in capitals"));
    return currency;
}
}   // namespace

ChargeValidation validateCharge(const JsonNode &body)
{
    Checker c{body, {}};
    ChargeValidation out;
    if (!c.isObject()) {
        out.errors = c.errors;
        return out;
    }
    c.onlyKnown({"merchant", "key", "amount", "currency", "token"});
    ChargeRequest &r = out.fields;
    r.merchant = merchantField(c, body);
    r.key = keyField(c, body, "key");
    r.amount = c.amount();
    r.currency = currencyField(c);
    // Unknown tokens are the bank's business: the simulator refuses them without charging.
    r.token = c.text("token", true, 64);
    if (body.member(u"token") && body.member(u"token")->type == JsonNode::Type::String && r.token.isEmpty())
        c.error(QStringLiteral("token"), QStringLiteral("must not be empty"));
    out.errors = c.errors;
    return out;
}

AcquirerRefundValidation validateAcquirerRefund(const JsonNode &body)
{
    Checker c{body, {}};
    AcquirerRefundValidation out;
    if (!c.isObject()) {
        out.errors = c.errors;
        return out;
    }
    c.onlyKnown({"merchant", "key", "charge_key", "amount", "currency"});
    RefundCall &r = out.fields;
    r.merchant = merchantField(c, body);
    r.key = keyField(c, body, "key");
    r.chargeKey = keyField(c, body, "charge_key");
    r.amount = c.amount();
    r.currency = currencyField(c);
    out.errors = c.errors;
    return out;
}

ReversalValidation validateReversal(const JsonNode &body)
{
    Checker c{body, {}};
    ReversalValidation out;
    if (!c.isObject()) {
        out.errors = c.errors;
        return out;
    }
    c.onlyKnown({"merchant", "key"});
    out.merchant = merchantField(c, body);
    out.key = keyField(c, body, "key");
    out.errors = c.errors;
    return out;
}

Problem validationProblem(const QList<Problem::FieldError> &errors)
{
    return Problem::validation(errors);
}

std::optional<JsonNode> parseRequestBody(const QByteArray &body, Problem *error)
{
    JsonParseResult parsed = parseJson(body);
    if (!parsed.value) {
        *error = validationProblem({{QStringLiteral("body"), QStringLiteral("is not valid JSON: %1 at byte %2").arg(parsed.error).arg(parsed.offset)}});
        return std::nullopt;
    }
    return std::move(parsed.value);
}

}   // namespace OncePay::Gateway
