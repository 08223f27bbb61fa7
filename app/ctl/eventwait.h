#pragma once

#include <QEventLoop>
#include <QObject>
#include <QTimer>

#include <functional>

namespace OncePay::Ctl {

// Runs the event loop until a condition holds. The condition is checked when something it
// depends on may have changed: a callback calls recheck(), or a watched signal fires. Nothing
// polls; the only timer is the deadline.
class EventWait final
{
public:
    explicit EventWait(std::function<bool()> done);

    // Re-checks after `signal`, once the emitter's slot has returned to the event loop (queued):
    // the condition then sees the state the emitter left, not the one it is in the middle of.
    template <typename Sender, typename Signal>
    void recheckOn(const Sender *sender, Signal signal)
    {
        QObject::connect(
            sender, signal, &m_loop, [this] {
                recheck();
            },
            Qt::QueuedConnection);
    }
    // For a callback: ends the wait if the condition now holds.
    void recheck();
    // The context of asynchronous calls made for this wait: their answers are dropped once it is gone.
    QObject *context() { return &m_loop; }

    // True once the condition holds; false if `timeoutMs` (-1: no limit) passed first.
    bool exec(qint64 timeoutMs = -1);

private:
    std::function<bool()> m_done;
    QEventLoop m_loop;
    QTimer m_deadline;
};

// Runs one asynchronous call whose reply is (bool ok, const QString &error, T value) (the catalog
// and staff stores') and waits for its answer.
template <typename T, typename Call>
bool awaitAnswer(Call call, T *value, QString *error)
{
    bool done = false;
    bool ok = false;
    EventWait wait([&] {
        return done;
    });
    call(wait.context(), [&](bool o, const QString &e, T v) {
        done = true;
        ok = o;
        *error = e;
        *value = std::move(v);
        wait.recheck();
    });
    wait.exec();
    return ok;
}

}   // namespace OncePay::Ctl
