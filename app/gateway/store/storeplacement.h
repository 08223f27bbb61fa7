#pragma once

#include <QString>

#include <optional>

namespace OncePay::Gateway {

// Where a SQLite store may live. Its leases are measured on this machine's boot-time clock and
// named by the boot's id (gatewayschema.h, LeaseClock), so every process sharing the file must
// run on this machine, in this boot: a file on a network file system could be shared with
// another host, whose clock says nothing about ours and whose processes would take over live
// claims. Such a store is refused at start, and so is a machine whose boot id cannot be read.
namespace StorePlacement {

constexpr const char *kBootIdPath = "/proc/sys/kernel/random/boot_id";

// The boot id in `path` (a UUID), or nullopt and `error` when it cannot be read or is not one.
// Never a made-up constant: two machines would then share it.
std::optional<QString> readBootId(const QString &path, QString *error);
// The id of this boot, read once; empty when it could not be read (the store refuses to open).
QString bootId();

// The name of the network or user-space file system with this statfs f_type ("NFS", "SMB/CIFS",
// "9p", "FUSE", ...), or an empty string for one that lives on this machine.
QString remoteFileSystemName(qint64 magic);
// False and `error` when `folder` is on such a file system.
bool checkLocalFolder(const QString &folder, QString *error);

}   // namespace StorePlacement
}   // namespace OncePay::Gateway
