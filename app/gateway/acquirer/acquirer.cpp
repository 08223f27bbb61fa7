#include "gateway/acquirer/acquirer.h"

namespace OncePay::Gateway {

AcquirerAnswer AcquirerAnswer::conflict(const char *code, const char *why)
{
    return {Kind::Conflict, QString::fromLatin1(code), QString::fromLatin1(why)};
}

QByteArray AcquirerAnswer::metricsLabel() const
{
    switch (kind) {
    case Kind::Approved:
        return "approved";
    case Kind::Declined:
        return "declined";
    case Kind::AnswerLost:
        return "answer_lost";
    case Kind::Refused:
        return "refused";
    case Kind::NotFound:
        return "not_found";
    case Kind::Pending:
        return "pending";
    case Kind::Reversed:
        return "reversed";
    case Kind::Conflict:
        return "conflict";
    }
    return "unknown";
}

}   // namespace OncePay::Gateway
