#pragma once

#include "office/officeserver.h"

#include <QString>
#include <QStringList>

namespace OncePay::Office {

// The options of `oncepay-office` (docs/office.md), read into an OfficeServer::Config.
struct OfficeOptions
{
    enum class Result {
        Run,
        Help,
        Version,
        Error
    };
    Result result = Result::Run;
    QString message;   // Help: the help text; Error: one line saying what is wrong
    OfficeServer::Config config;

    static OfficeOptions parse(const QStringList &arguments);
};

}   // namespace OncePay::Office
