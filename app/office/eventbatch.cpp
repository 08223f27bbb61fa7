#include "office/eventbatch.h"

#include "canonicaljson.h"
#include "timeutil.h"

#include <QCryptographicHash>
#include <QRegularExpression>

namespace OncePay::Office::EventBatchReader {

namespace {

using Errors = QList<Problem::FieldError>;

const JsonNode *memberOfType(const JsonNode &object, QStringView name, JsonNode::Type type)
{
    const JsonNode *node = object.member(name);
    return node && node->type == type ? node : nullptr;
}

QString stringAt(const JsonNode &object, QStringView name)
{
    const JsonNode *node = memberOfType(object, name, JsonNode::Type::String);
    return node ? node->string : QString();
}

// The fields of `data` the reports read (OFFICE.md names them); a missing or odd one is left
// out, never refused: `data` is the till's own record, kept whole whatever it holds.
void readReportFields(const JsonNode &data, OfficeEvent &event)
{
    event.state = stringAt(data, u"state");
    event.staff = stringAt(data, u"staff");
    event.currency = stringAt(data, u"currency");
    if (const JsonNode *number = data.member(u"number")) {
        if (number->type == JsonNode::Type::String)
            event.number = number->string;
        else if (number->type == JsonNode::Type::Number)
            event.number = QString::fromLatin1(number->number);
    }
    const JsonNode *amount = nullptr;
    if (event.kind == QLatin1String("sale")) {
        if (const JsonNode *totals = memberOfType(data, u"totals", JsonNode::Type::Object))
            amount = totals->member(u"total");
    } else if (event.kind == QLatin1String("refund") || event.kind == QLatin1String("cash")) {
        amount = data.member(u"amount");
    }
    if (amount && amount->type == JsonNode::Type::Number) {
        if (const std::optional<qint64> minor = amount->toInteger()) {
            event.hasAmount = true;
            event.amount = *minor;
        }
    }
}

// One event of the batch at `index`; errors name it as events[index].field.
std::optional<OfficeEvent> readEvent(const JsonNode &node, int index, Errors &errors)
{
    const QString where = QStringLiteral("events[%1]").arg(index);
    if (node.type != JsonNode::Type::Object) {
        errors.append({where, QStringLiteral("must be an object")});
        return std::nullopt;
    }
    const qsizetype before = errors.size();
    for (const auto &member : node.members) {
        static const QStringList known{QStringLiteral("seq"), QStringLiteral("kind"), QStringLiteral("at"), QStringLiteral("data")};
        if (!known.contains(member.first))
            errors.append({where + QLatin1Char('.') + member.first, QStringLiteral("is not a field of an event")});
    }
    OfficeEvent event;
    const JsonNode *seq = node.member(u"seq");
    const std::optional<qint64> seqValue = seq && seq->type == JsonNode::Type::Number ? seq->toInteger() : std::nullopt;
    if (!seqValue || *seqValue < 1 || *seqValue > (qint64(1) << 53))
        errors.append({where + QStringLiteral(".seq"), QStringLiteral("must be an integer from 1")});
    else
        event.seq = *seqValue;
    const JsonNode *kind = memberOfType(node, u"kind", JsonNode::Type::String);
    if (!kind || !isKnownKind(kind->string))
        errors.append({where + QStringLiteral(".kind"), QStringLiteral("must be one of sale, refund, cash, discard, shift, staff")});
    else
        event.kind = kind->string;
    const JsonNode *at = memberOfType(node, u"at", JsonNode::Type::String);
    const std::optional<qint64> atMs = at ? fromRfc3339(at->string) : std::nullopt;
    if (!atMs)
        errors.append({where + QStringLiteral(".at"), QStringLiteral("must be an RFC 3339 time such as 2026-12-07T10:15:02.113Z")});
    else {
        event.at = at->string;
        event.atMs = *atMs;
    }
    const JsonNode *data = memberOfType(node, u"data", JsonNode::Type::Object);
    if (!data)
        errors.append({where + QStringLiteral(".data"), QStringLiteral("must be an object")});
    if (errors.size() != before)
        return std::nullopt;
    event.data = canonicalJson(*data);
    // The event's canonical JSON is its four members in key order, the data's canonical form
    // inside: written from the parts rather than canonicalising the data a second time.
    QByteArray canonical;
    canonical.reserve(event.data.size() + 96);
    canonical.append(R"({"at":)").append(canonicalJson(*at)).append(R"(,"data":)").append(event.data);
    canonical.append(R"(,"kind":)").append(canonicalJson(*kind)).append(R"(,"seq":)").append(seq->number).append('}');
    event.fingerprint = QCryptographicHash::hash(canonical, QCryptographicHash::Sha256).toHex();
    readReportFields(*data, event);
    return event;
}

}   // namespace

bool isKnownKind(const QString &kind)
{
    static const QStringList kinds{QStringLiteral("sale"), QStringLiteral("refund"), QStringLiteral("cash"),
        QStringLiteral("discard"), QStringLiteral("shift"), QStringLiteral("staff")};
    return kinds.contains(kind);
}

std::optional<EventBatch> read(const QByteArray &body, Problem *problem)
{
    // Deep enough for a till's record (a sale's lines and their discounts), bounded all the same.
    JsonParseResult parsed = parseJson(body, 48);
    if (!parsed.value) {
        *problem = Problem::validation({{QStringLiteral("body"),
            QStringLiteral("is not valid JSON: %1 at byte %2").arg(parsed.error).arg(parsed.offset)}});
        return std::nullopt;
    }
    const JsonNode &root = *parsed.value;
    if (root.type != JsonNode::Type::Object) {
        *problem = Problem::validation({{QStringLiteral("body"), QStringLiteral("must be a JSON object")}});
        return std::nullopt;
    }
    Errors errors;
    for (const auto &member : root.members) {
        if (member.first != QLatin1String("till") && member.first != QLatin1String("events"))
            errors.append({member.first, QStringLiteral("is not a field of an events batch")});
    }
    EventBatch batch;
    const JsonNode *till = root.member(u"till");
    static const QRegularExpression tillName(QStringLiteral("^[A-Za-z0-9_.-]{1,32}$"));
    if (till && till->type == JsonNode::Type::String && tillName.match(till->string).hasMatch())
        batch.till = till->string;
    else
        errors.append({QStringLiteral("till"), QStringLiteral("must be the till's number as a string, e.g. \"1\"")});
    const JsonNode *events = memberOfType(root, u"events", JsonNode::Type::Array);
    if (!events)
        errors.append({QStringLiteral("events"), QStringLiteral("must be an array of events")});
    if (!errors.isEmpty()) {
        *problem = Problem::validation(errors);
        return std::nullopt;
    }
    if (events->items.size() > size_t(maxEvents)) {
        *problem = Problem::make(413, QStringLiteral("payload-too-large"), QStringLiteral("Payload too large"),
            QStringLiteral("A batch holds at most %1 events; this one holds %2. Send them in several batches.")
                .arg(maxEvents)
                .arg(events->items.size()));
        return std::nullopt;
    }
    batch.events.reserve(qsizetype(events->items.size()));
    for (size_t i = 0; i < events->items.size(); ++i) {
        std::optional<OfficeEvent> event = readEvent(events->items[i], int(i), errors);
        if (!event)
            continue;
        // One transaction per batch, in seq order: each event's seq is the one before it plus one.
        if (!batch.events.isEmpty() && errors.isEmpty() && event->seq != batch.events.constLast().seq + 1) {
            errors.append({QStringLiteral("events[%1].seq").arg(i),
                QStringLiteral("must be %1: a batch's events follow each other in seq order").arg(batch.events.constLast().seq + 1)});
        }
        batch.events.append(std::move(*event));
    }
    if (!errors.isEmpty()) {
        *problem = Problem::validation(errors.mid(0, 20));
        return std::nullopt;
    }
    return batch;
}

}   // namespace OncePay::Office::EventBatchReader
