#pragma once

#include <QString>

namespace OncePay {

// Files that belong to one account on a shared PC: the till's folder (0700) and its SQLite
// databases (0600). SQLite gives a database's -wal, -shm and rollback journal the main file's
// mode, so a main file made 0600 before SQLite first opens it keeps all of them to the owner.
// No umask is set: a file a person exports to a place of their choosing (a catalog, a Z report,
// a receipt) keeps the permissions they are used to.
class PrivateFiles final
{
public:
    // Makes `dir`, and each missing folder above it, 0700. `narrow`: an existing `dir` is made
    // 0700 too (the till's own data folder; never a folder an operator chose).
    static bool makeFolder(const QString &dir, bool narrow, QString *error);
    // Creates `path` empty and 0600 when it is not there; an existing file is left as it is.
    static bool createFile(const QString &path, QString *error);
    // Takes the group's and others' permissions from the database `path` and from its -wal, -shm
    // and -journal (a database an older till made 0644). Only for a file known to be ours: one
    // of another program's keeps its permissions. A file of another account is left as it is.
    static void narrowDatabase(const QString &path);
    // Whether accounts other than its owner may create, replace or remove files in `dir`: it is
    // group- or world-writable. The sticky bit (/tmp) does not help a database: another account
    // can still make its -wal or -shm before SQLite does, and SQLite would use theirs.
    static bool othersMayWrite(const QString &dir);
};

}   // namespace OncePay
