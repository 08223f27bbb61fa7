#pragma once

#include <QStringList>

class QTextStream;

namespace OncePay::Gateway {

// `oncepay-gateway review --db DB [--json]` lists the payments and refunds that wait for a
// person (API.md promise 11); `--resolve ID --outcome succeeded|declined` (a refund:
// succeeded|failed) writes that person's outcome through the fenced step recovery uses.
// Exit codes: 0 done, 1 refused (unknown id, not in review, busy, store error), 2 usage.
class ReviewCommand final
{
public:
    // `arguments` starts with the program name, then "review".
    static int run(const QStringList &arguments, QTextStream &out, QTextStream &err);
};

}   // namespace OncePay::Gateway
