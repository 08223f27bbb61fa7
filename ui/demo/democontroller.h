#pragma once

#include "checkoutviewmodel.h"
#include "demolinks.h"
#include "tillsession.h"

#include <QObject>
#include <QTimer>

#include <functional>

namespace OncePay::Ui {

// Plays the article's stories on the real till, step by step with a caption for each: the
// actions go through the same view model, engine, simulator and gateway as a cashier's.
class DemoController final : public QObject
{
    Q_OBJECT

public:
    enum class Story {
        DoubleClick,
        AnswerLost,
        HourOffline,
        KeyReused,
        PaidAnotherWay,
        WalletGivenUp
    };
    Q_ENUM(Story)

    DemoController(TillSession *session, DemoLinks demo, CheckoutViewModel *checkout, QObject *parent = nullptr);

    static QString title(Story story);
    // Starts a story from a clean sale, online, with the bank in its normal mode.
    void play(Story story);
    void stop();
    // The audience has read the caption: go on now instead of after the step delay.
    void next();
    bool isPlaying() const { return m_step >= 0; }
    int stepDelayMs() const { return m_pauseMs; }
    void setStepDelayMs(int ms) { m_pauseMs = ms; }

signals:
    void captionChanged(const QString &caption, int step, int steps);
    void finished(OncePay::Ui::DemoController::Story story);
    // Show the audience the payments queue (the offline story, before it drains).
    void queueRequested();
    // Show the bank's ledger for these keys: the proof, at the end of every story.
    void ledgerRequested(const QStringList &keys);
    // Two real clicks on the window's Pay button, as fast as a nervous cashier makes them.
    void doubleClickRequested();

private:
    struct Step
    {
        std::function<QString()> caption;   // evaluated when the step starts
        std::function<void()> action;
        std::function<bool()> done;   // empty: done at once
    };
    void runStep();
    void askLedger(const QStringList &keys, const std::function<void(int charges)> &then);
    void advance();
    QList<Step> stepsFor(Story story);
    QList<Step> walletStory();
    // The cashier takes cash for what remains; done when the sale is paid.
    Step cashForTheRest(const QString &caption);

    TillSession *m_session;
    DemoLinks m_demo;
    CheckoutViewModel *m_checkout;
    QList<Step> m_steps;
    Story m_story = Story::DoubleClick;
    int m_step = -1;
    QTimer m_poll;
    int m_pauseMs = 6000;   // long enough to read a caption aloud; Next goes on at once
    QTimer m_advance;
    // Facts found along the way, shown in later captions.
    QString m_key;
    QStringList m_keys;   // every payment of the story, for the ledger at its end
    int m_charges = -1;
    int m_refunds = -1;   // the bank's refunds against the story's charges
    bool m_tillRefunded = false;   // the till's own refund of the given-up card succeeded
    QString m_ledgerStatus;   // the bank's word for the story's last charge (the wallet story)
    QMetaObject::Connection m_watch;
    int m_firstStatus = 0;
    int m_secondStatus = 0;
    // The "buggy client" of the key-reuse story: another register of the shop (till-2), so its
    // payments never count in this till's shift.
    GatewayClient *m_otherRegister = nullptr;
};

}   // namespace OncePay::Ui
