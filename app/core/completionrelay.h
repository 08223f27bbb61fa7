#pragma once

#include <QObject>
#include <QPointer>

#include <functional>
#include <mutex>
#include <vector>

namespace OncePay {

// Runs completions handed over by worker threads on the thread their contexts live on: the
// application's main thread, or another thread that runs an event loop (the till's demo
// gateway runs on one). The hand-off is a std::mutex-guarded list, and the wake-up a queued call by
// name that carries nothing: every byte that crosses threads is ordered by a lock that
// ThreadSanitizer sees (Debian's Qt is not built with it, so the locks inside Qt's own event
// posting are invisible to it, and a functor posted through Qt reads as a data race).
// One relay per thread that asks for one, never destroyed (it may hold completions of objects
// already gone, and a worker may still post to it after its thread has ended: those are never
// run, as Qt never delivers an event to an object of a finished thread).
class CompletionRelay final : public QObject
{
    Q_OBJECT

public:
    // The main thread's relay, made on first use (from any thread); null before a
    // QCoreApplication exists.
    static CompletionRelay *instance();
    // The calling thread's relay, made on first use; the main thread's is instance(). Its
    // completions run only while the thread runs an event loop.
    static CompletionRelay *forCurrentThread();
    // The relay that serves `context`: the main thread's relay for a context living there, the
    // calling thread's for one living on the calling thread; null for any other (a context on a
    // third thread, which the caller cannot make a relay for) or before a QCoreApplication.
    static CompletionRelay *forContext(const QObject *context);

    // Thread-safe. `run` executes on the relay's thread, unless `context` is gone by then.
    void post(QPointer<QObject> context, std::function<void()> run);

private:
    CompletionRelay() = default;
    Q_INVOKABLE void deliver();

    static constexpr qint64 kSliceMs = 8;   // completions run back to back at most this long

    struct Entry
    {
        QPointer<QObject> context;
        std::function<void()> run;
    };
    std::mutex m_mutex;
    std::vector<Entry> m_entries;
    bool m_scheduled = false;
    CompletionRelay *m_madeBefore = nullptr;   // the list of every thread's relay (never freed)
};

}   // namespace OncePay
