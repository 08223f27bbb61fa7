#pragma once

#include "httpclient.h"
#include "replywatcher.h"

#include <QList>
#include <QObject>
#include <QUrl>

#include <memory>
#include <vector>

// Client loops paying unique keys: each loop sends one payment, waits for its answer (or
// its failure), then sends the next, until stop(). Tests drive faults from the counts of
// finished requests (finished(), finishedOn()), never from sleeps.
class PaymentLoad final
{
public:
    enum class Targeting {
        Pinned,   // loop i always pays on target i % targets
        RoundRobin,   // each loop moves to the next target with every payment
    };
    struct Outcome
    {
        QString key;
        QByteArray body;
        int target = -1;
        HttpReply reply;   // status 0: no answer (refused, reset, timeout)
    };

    PaymentLoad(const QList<QUrl> &targets, int loops, Targeting targeting, int timeoutMs = 20000);
    ~PaymentLoad();
    PaymentLoad(const PaymentLoad &) = delete;
    PaymentLoad &operator=(const PaymentLoad &) = delete;

    void start();
    void stop() { m_stopped = true; }   // nothing new is sent; requests in flight finish
    bool idle() const { return m_stopped && m_inFlight == 0; }
    int finished() const { return int(m_outcomes.size()); }
    int finishedOn(int target) const { return m_finishedOn.value(target); }
    const QList<Outcome> &outcomes() const { return m_outcomes; }

private:
    void send(int loop);

    QList<QUrl> m_targets;
    Targeting m_targeting;
    std::vector<std::unique_ptr<HttpClient>> m_clients;
    QList<int> m_round;
    QList<int> m_finishedOn;
    QList<Outcome> m_outcomes;
    QObject m_context;   // owns the connections: a load destroyed drops late answers
    OncePay::ReplyWatcher m_watcher;   // after m_clients: destroyed first
    int m_sent = 0;
    int m_inFlight = 0;
    bool m_stopped = true;
};
