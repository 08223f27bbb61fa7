// The till's journal opened on arbitrary bytes (a damaged disk, a wrong file given as --db):
// never crashes; the file is either refused with an error or read, and a file that is not a
// journal is never replaced.
#include "intentjournal.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <cstdlib>

using OncePay::IntentJournal;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int argc = 1;
    static char name[] = "fuzz_journal";
    static char *argv[] = {name, nullptr};
    static QCoreApplication app(argc, argv);
    static QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("journal.db"));
    for (const QString &f : {path, path + QStringLiteral("-wal"), path + QStringLiteral("-shm")})
        QFile::remove(f);
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    {
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
            std::abort();
    }
    for (const bool readOnly : {true, false}) {
        IntentJournal journal({path, 0, readOnly});
        OncePay::TillError error;
        if (!journal.open(&error)) {
            if (!error.isError() || error.text().isEmpty())
                std::abort();   // a refusal always says why
            continue;
        }
        QEventLoop loop;
        QObject context;
        journal.list({}, &context, [&loop](bool, const OncePay::TillError &, QList<OncePay::Intent>) {
            loop.quit();
        });
        loop.exec();
        journal.close();
    }
    return 0;
}
