#include "http/systemdnotify.h"

#include <QLoggingCategory>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace OncePay::Http {

namespace {
Q_LOGGING_CATEGORY(lcNotify, "oncepay.gateway.server", QtInfoMsg)
}   // namespace

bool SystemdNotify::notify(const QByteArray &state)
{
    const QByteArray name = qgetenv("NOTIFY_SOCKET");
    if (name.isEmpty())
        return false;
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    // Only Unix sockets: systemd names one of those (a path or an abstract name); other
    // forms (vsock) are for virtual machines, not this service.
    if ((name.front() != '/' && name.front() != '@') || size_t(name.size()) >= sizeof(addr.sun_path)) {
        qCWarning(lcNotify) << "NOTIFY_SOCKET is not a Unix socket name this gateway can use:" << name;
        return false;
    }
    std::memcpy(addr.sun_path, name.constData(), size_t(name.size()));
    socklen_t length = socklen_t(offsetof(sockaddr_un, sun_path) + size_t(name.size()));
    if (name.front() == '@')
        addr.sun_path[0] = '\0';   // abstract: the name is the bytes after the NUL, no terminator
    else
        ++length;   // a path: with its terminating NUL

    const int fd = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        qCWarning(lcNotify) << "cannot notify the service manager: socket:" << std::strerror(errno);
        return false;
    }
    const ssize_t sent = ::sendto(fd, state.constData(), size_t(state.size()), MSG_NOSIGNAL,
        reinterpret_cast<const sockaddr *>(&addr), length);
    const int sendError = errno;
    ::close(fd);
    if (sent != ssize_t(state.size())) {
        qCWarning(lcNotify) << "cannot notify the service manager at" << name << ":" << std::strerror(sendError);
        return false;
    }
    return true;
}

}   // namespace OncePay::Http
