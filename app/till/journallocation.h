#pragma once

#include <QCoreApplication>
#include <QString>

namespace OncePay {

// Where a journal file may live, checked before it is opened, with the problem named: a path
// that is a folder, a missing folder (created on request), a folder or file that cannot be
// written. IntentJournal::open() itself never creates folders (oncepay-ctl refuses a typo);
// the till does, for its --db.
class JournalLocation final
{
    Q_DECLARE_TR_FUNCTIONS(OncePay::JournalLocation)

public:
    enum class Folder {
        MustExist,
        CreateWhenMissing
    };
    static bool prepare(const QString &path, Folder folder, QString *error);
};

}   // namespace OncePay
