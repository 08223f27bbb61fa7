#pragma once

#include "tillerror.h"

#include <QString>

namespace OncePay {

// Where a journal file may live, checked before it is opened, with the problem named: a path
// that is a folder, a missing folder (created on request, 0700), a folder or file that cannot be
// written, a folder other accounts may write. IntentJournal::open() itself never creates folders
// (oncepay-ctl refuses a typo); the till does, for its --db. What is wrong is a TillError kind
// (JournalPathEmpty ... JournalReadOnly); its words are made where they are shown.
class JournalLocation final
{
public:
    enum class Folder {
        MustExist,
        CreateWhenMissing
    };
    static bool prepare(const QString &path, Folder folder, TillError *error);

    // JournalFolderShared when accounts other than its owner may write in the folder of the
    // journal `path` (group- or world-writable, sticky or not: they could replace the journal,
    // or make its -wal before SQLite does); no error otherwise. IntentJournal::open() asks it
    // too, for oncepay-ctl.
    static TillError sharedFolderRefusal(const QString &path);

    // The till's own data folder, for its journal when no --db is given: $XDG_DATA_HOME/OncePay,
    // ~/.local/share/OncePay as the README says. Tills before it kept their data in
    // ~/.local/share/OncePay/OncePay (AppDataLocation with the organisation and the application
    // both "OncePay"): while the journal is there and not in the new place, that folder stays in
    // use, so no till loses its journal. Nothing is moved: a till running from the old version
    // would still be writing there.
    static QString defaultFolder();
};

}   // namespace OncePay
