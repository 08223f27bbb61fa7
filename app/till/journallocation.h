#pragma once

#include "tillerror.h"

#include <QString>

namespace OncePay {

// Where a journal file may live, checked before it is opened, with the problem named: a path
// that is a folder, a missing folder (created on request), a folder or file that cannot be
// written. IntentJournal::open() itself never creates folders (oncepay-ctl refuses a typo);
// the till does, for its --db. What is wrong is a TillError kind (JournalPathEmpty ...
// JournalReadOnly); its words are made where they are shown.
class JournalLocation final
{
public:
    enum class Folder {
        MustExist,
        CreateWhenMissing
    };
    static bool prepare(const QString &path, Folder folder, TillError *error);
};

}   // namespace OncePay
