// Whole pipelined byte streams into one HttpConnection (over a socketpair, the client
// half-closing after its bytes), with a handler that answers late and out of order. Checks what
// the connection promises (API.md, "HTTP/1.1"): exactly the requests the parser frames before
// the first refused framing or "Connection: close" are executed, in order, nothing after them;
// each gets one answer, in request order; a refused framing gets its status and the connection
// closes; a half-closed client gets every answer. The reference framing is HttpRequestParser run
// on the same bytes alone (fuzz_requesthead fuzzes the parser itself).
#include "http/httpanswer.h"
#include "http/httpconnection.h"
#include "http/httprequestparser.h"
#include "http/httptransport.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QList>
#include <QSocketNotifier>
#include <QTimer>

#include <cstdlib>

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace OncePay::Http;

namespace {

HttpLimits limits()
{
    HttpLimits l;
    l.maxBodyBytes = 1024;
    l.maxHeaderBytes = 2048;
    l.headerTimeoutMs = l.bodyTimeoutMs = l.idleTimeoutMs = 60'000;   // never reached here
    l.lingerMs = 60'000;
    l.maxPipelined = 3;   // small, so that reading waits for answers now and then
    l.maxUnsentBytes = 512;   // and so that executing waits for the client to read
    return l;
}

struct Expected
{
    QList<QByteArray> executed;   // "METHOD target body" of each request that must run
    QList<bool> head;   // whether each is a HEAD request (answered without a body)
    int refusedStatus = 0;   // 0: no refusal
};

Expected reference(QByteArray bytes)
{
    Expected out;
    const HttpLimits l = limits();
    while (!bytes.isEmpty()) {
        HttpRequestParser parser({l.maxHeaderBytes, l.maxBodyBytes});
        const HttpRequestParser::State state = parser.feed(bytes);
        if (state == HttpRequestParser::State::Refused) {
            out.refusedStatus = parser.refusal().status();
            break;
        }
        if (state != HttpRequestParser::State::Complete)
            break;   // cut short by the client's end: never a request
        const HttpRequest r = parser.takeRequest();
        out.executed.append(r.methodName + ' ' + r.target + ' ' + r.body);
        out.head.append(r.method == HttpRequest::Method::Head);
        if (!r.keepAlive)
            break;
    }
    return out;
}

struct Response
{
    int status = 0;
    bool closing = false;
    QByteArray body;
};

// The answers in `wire`, interim ones (100 Continue) skipped; aborts on bytes that are not
// answers. The i-th answer has no body when `headRequests` says its request was a HEAD.
QList<Response> responses(const QByteArray &wire, const QList<bool> &headRequests)
{
    QList<Response> out;
    qsizetype pos = 0;
    while (pos < wire.size()) {
        const qsizetype headEnd = wire.indexOf("\r\n\r\n", pos);
        if (headEnd < 0 || !wire.mid(pos).startsWith("HTTP/1.1 "))
            std::abort();
        const QByteArray head = wire.mid(pos, headEnd - pos);
        Response r;
        r.status = head.mid(9, 3).toInt();
        pos = headEnd + 4;
        if (r.status == 100)
            continue;
        const qsizetype cl = head.indexOf("\r\nContent-Length: ");
        if (cl < 0)
            std::abort();
        const qsizetype eol = head.indexOf("\r\n", cl + 2);
        qsizetype length = head.mid(cl + 18, (eol < 0 ? head.size() : eol) - cl - 18).toLongLong();
        r.closing = head.contains("\r\nConnection: close");
        if (headRequests.value(out.size()))
            length = 0;   // the length a GET would have had; no body follows
        r.body = wire.mid(pos, length);
        if (r.body.size() != length)
            std::abort();
        pos += length;
        out.append(r);
    }
    return out;
}

}   // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int argc = 1;
    static char name[] = "fuzz_connection";
    static char *argv[] = {name, nullptr};
    static QCoreApplication app(argc, argv);
    if (size > 60'000)
        return 0;   // one write into the socket pair's buffer
    const QByteArray input(reinterpret_cast<const char *>(data), qsizetype(size));

    int fds[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM, 0, fds) != 0)
        std::abort();
    if (!input.isEmpty() && ::write(fds[1], input.constData(), std::size_t(input.size())) != input.size())
        std::abort();
    ::shutdown(fds[1], SHUT_WR);   // the client half-closes: it still reads every answer
    // The kernel's smallest buffer for the answers: they wait in the connection, past its bound.
    const int small = 1;
    ::setsockopt(fds[0], SOL_SOCKET, SO_SNDBUF, &small, sizeof small);
    ::fcntl(fds[1], F_SETFL, ::fcntl(fds[1], F_GETFL) | O_NONBLOCK);

    QList<QByteArray> executed;
    QList<std::pair<HttpResponder, int>> pending;   // answered later, the newest first
    QEventLoop loop;
    auto *connection = new HttpConnection(fds[0], HttpTransport::plain(fds[0]), limits(), {},
        [&](HttpRequest &&r, const HttpResponder &responder) {
            executed.append(r.methodName + ' ' + r.target + ' ' + r.body);
            const int number = int(executed.size());
            if (r.body.size() % 2 == 0) {   // some at once, some on a later turn, in reverse order
                responder.respond(HttpAnswer::json(200, {}).withHeader("X-N", QByteArray::number(number)));
                return;
            }
            pending.prepend({responder, number});
            QTimer::singleShot(0, &loop, [&] {
                const auto batch = std::exchange(pending, {});
                for (const auto &[later, n] : batch)
                    later.respond(HttpAnswer::json(201, {}).withHeader("X-N", QByteArray::number(n)));
            });
        });
    bool closed = false;
    QObject::connect(connection, &HttpConnection::closed, &loop, [&] {
        closed = true;
    });
    QByteArray wire;
    QSocketNotifier reader(fds[1], QSocketNotifier::Read);
    auto drain = [&] {
        char buffer[4096];
        for (;;) {
            const ssize_t n = ::read(fds[1], buffer, sizeof buffer);
            if (n <= 0)
                break;
            wire.append(buffer, n);
        }
    };
    QObject::connect(&reader, &QSocketNotifier::activated, &loop, [&] {
        drain();
        if (closed)
            loop.quit();
    });
    QTimer watchdog;
    watchdog.setSingleShot(true);
    QObject::connect(&watchdog, &QTimer::timeout, &loop, [] {
        std::abort();
    });   // a connection that hangs
    watchdog.start(10'000);
    connection->start();
    while (!closed)
        loop.processEvents(QEventLoop::WaitForMoreEvents);
    drain();
    reader.setEnabled(false);
    ::close(fds[1]);
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);

    const Expected expected = reference(input);
    if (executed != expected.executed)
        std::abort();   // ran something the framing did not allow, or skipped a request
    const QList<Response> answers = responses(wire, expected.head);
    if (answers.size() != expected.executed.size() + (expected.refusedStatus ? 1 : 0))
        std::abort();   // a request without its answer, or an answer too many
    for (qsizetype i = 0; i < expected.executed.size(); ++i) {
        if (answers.at(i).status != 200 && answers.at(i).status != 201)
            std::abort();
    }
    // In request order: the numbers the handler gave, 1, 2, 3...
    const QByteArray numbers = [&] {
        QByteArray out;
        qsizetype pos = 0;
        while ((pos = wire.indexOf("\r\nX-N: ", pos)) >= 0) {
            pos += 7;
            out += wire.mid(pos, wire.indexOf("\r\n", pos) - pos) + ',';
        }
        return out;
    }();
    QByteArray inOrder;
    for (qsizetype i = 1; i <= expected.executed.size(); ++i)
        inOrder += QByteArray::number(i) + ',';
    if (numbers != inOrder)
        std::abort();
    if (expected.refusedStatus && (answers.last().status != expected.refusedStatus || !answers.last().closing))
        std::abort();
    return 0;
}
