#include "gateway/store/storeplacement.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

#include <sys/vfs.h>

#include <cerrno>
#include <cstring>

namespace OncePay::Gateway::StorePlacement {

std::optional<QString> readBootId(const QString &path, QString *error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read the boot id (%1): %2").arg(path, f.errorString());
        return std::nullopt;
    }
    const QString id = QString::fromLatin1(f.read(128)).trimmed();
    static const QRegularExpression uuid(QStringLiteral("^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"));
    if (!uuid.match(id).hasMatch()) {
        *error = QStringLiteral("the boot id in %1 is not a UUID").arg(path);
        return std::nullopt;
    }
    return id;
}

QString bootId()
{
    static const QString id = [] {
        QString error;
        return readBootId(QString::fromLatin1(kBootIdPath), &error).value_or(QString());
    }();
    return id;
}

QString remoteFileSystemName(qint64 magic)
{
    // linux/magic.h and the file systems' own headers (some are not in linux/magic.h).
    static const struct
    {
        qint64 magic;
        const char *name;
    } remote[] = {
        {0x6969, "NFS"},
        {0x517B, "SMB/CIFS"},
        {0xFF534D42, "SMB/CIFS"},
        {0xFE534D42, "SMB2"},
        {0x01021997, "9p"},
        {0x65735546, "FUSE"},
        {0x00C36400, "Ceph"},
        {0x5346414F, "AFS"},
        {0x6B414653, "AFS"},
        {0x73757245, "Coda"},
        {0x7461636F, "OCFS2"},
        {0x01161970, "GFS2"},
        {0x0BD00BD0, "Lustre"},
    };
    for (const auto &fs : remote) {
        if (fs.magic == magic)
            return QString::fromLatin1(fs.name);
    }
    return {};
}

bool checkLocalFolder(const QString &folder, QString *error)
{
    // A folder still to be made lives where its nearest existing parent does.
    QDir dir(folder);
    while (!dir.exists() && !dir.isRoot())
        dir.setPath(QFileInfo(dir.absolutePath()).absolutePath());
    struct statfs s
    {};
    if (::statfs(QFile::encodeName(dir.absolutePath()).constData(), &s) != 0) {
        *error = QStringLiteral("cannot tell which file system holds %1: %2").arg(folder, QString::fromLocal8Bit(strerror(errno)));
        return false;
    }
    const QString name = remoteFileSystemName(qint64(quint32(s.f_type)));
    if (name.isEmpty())
        return true;
    *error = QStringLiteral("%1 is on a %2 file system: a SQLite store must be on a local disk (its leases "
                            "are kept on this machine's clock; another host sharing the file would take over "
                            "live payments). Use a local path, or PostgreSQL for several machines")
                 .arg(folder, name);
    return false;
}

}   // namespace OncePay::Gateway::StorePlacement
