#pragma once

#include <QObject>
#include <QPointer>

#include <functional>
#include <mutex>
#include <vector>

namespace OncePay {

// Runs completions handed over by worker threads on the application's main thread, where their
// contexts live. The hand-off is a std::mutex-guarded list, and the wake-up a queued call by
// name that carries nothing: every byte that crosses threads is ordered by a lock that
// ThreadSanitizer sees (Debian's Qt is not built with it, so the locks inside Qt's own event
// posting are invisible to it, and a functor posted through Qt reads as a data race).
// One relay per process, never destroyed (it may hold completions of objects already gone).
class CompletionRelay final : public QObject
{
    Q_OBJECT

public:
    // The relay, made on first use and living on the main thread; null before a
    // QCoreApplication exists.
    static CompletionRelay *instance();
    // Whether `context` lives on the main thread, so that post() may be used for it.
    static bool servesContext(const QObject *context);

    // Thread-safe. `run` executes on the main thread, unless `context` is gone by then.
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
};

}   // namespace OncePay
