#pragma once

#include "checkoutviewmodel.h"
#include "demolinks.h"
#include "faultproxy.h"
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
    // Ends the story where it is; a fault it put on the network or the bank is lifted.
    void stop();
    // The audience has read the caption: go on now instead of after the step delay.
    void next();
    bool isPlaying() const { return m_step >= 0; }
    // The step's own work is under way (the payment it shows, the bank's answer): Next waits.
    bool isWorking() const { return m_working; }
    int stepDelayMs() const { return m_pauseMs; }
    void setStepDelayMs(int ms) { m_pauseMs = ms; }
    // How long a step may work before the story says it cannot go on (stepStuck).
    int stepTimeoutMs() const { return m_stepTimeoutMs; }
    void setStepTimeoutMs(int ms) { m_stepTimeoutMs = ms; }

signals:
    void captionChanged(const QString &caption, int step, int steps);
    void workingChanged(bool working);
    // The step did not get where it goes within stepTimeoutMs(): `why` says so with what the
    // till is doing, for the audience; the story still goes on if the step gets there later.
    void stepStuck(const QString &why);
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
        // The action waits until the till has measured its gateway online: a card payment that
        // the story means to reach the bank is not queued by a till still offline.
        bool online = false;
    };
    void runStep();
    void tick();   // runs the step's action once it can, then ends the step once it is done
    void endStep();
    void setWorking(bool working);
    QString whatTheTillIsDoing() const;
    // The story's network (and the engine told, as the OS tells it of a change).
    void setNetwork(NetSim::Mode mode);
    // The network loses answers from the moment this sale's card payment leaves the till: set
    // earlier, the till's own probe would find the gateway silent first and queue the payment
    // instead of sending it (issue 36: two stories stuck at step 2).
    void loseAnswersOfThePayment();
    void askLedger(const QStringList &keys, const std::function<void(int charges)> &then);
    void advance();
    QList<Step> stepsFor(Story story);
    QList<Step> walletStory();
    bool answerLost() const;   // the sale's card payment was sent and its answer lost
    // The cashier takes cash for what remains; done when the sale is paid.
    Step cashForTheRest(const QString &caption);

    TillSession *m_session;
    DemoLinks m_demo;
    CheckoutViewModel *m_checkout;
    QList<Step> m_steps;
    Story m_story = Story::DoubleClick;
    int m_step = -1;
    bool m_actionRun = false;   // the current step's action has run
    bool m_working = false;
    QTimer m_poll;
    int m_pauseMs = 6000;   // long enough to read a caption aloud; Next goes on at once
    QTimer m_advance;
    int m_stepTimeoutMs = 30'000;
    QTimer m_watchdog;
    // Facts found along the way, shown in later captions.
    QString m_key;
    QStringList m_keys;   // every payment of the story, for the ledger at its end
    int m_charges = -1;
    int m_refunds = -1;   // the bank's refunds against the story's charges
    bool m_tillRefunded = false;   // the till's own refund of the given-up card succeeded
    QString m_ledgerStatus;   // the bank's word for the story's last charge (the wallet story)
    QMetaObject::Connection m_watch;
    QMetaObject::Connection m_arm;   // loseAnswersOfThePayment()
    int m_firstStatus = 0;
    int m_secondStatus = 0;
    // The "buggy client" of the key-reuse story: another register of the shop (till-2), so its
    // payments never count in this till's shift.
    GatewayClient *m_otherRegister = nullptr;
};

}   // namespace OncePay::Ui
