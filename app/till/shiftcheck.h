#pragma once

#include "gatewayclient.h"
#include "shiftbook.h"
#include "shiftmatching.h"

#include <QElapsedTimer>
#include <QJsonObject>
#include <QObject>

#include <functional>
#include <memory>

namespace OncePay {

// The shift check, before a shift closes: fetches what shift matching compares and runs
// matchShift() (shiftmatching.h): the gateway's list of
// the terminal's payments since the shift opened (every page of `limit` 500), the gateway's
// refunds of the payments the shift refunded, and, on a demo gateway, the acquirer's ledgers of
// charges and refunds. Only reads: a page the current gateway cannot answer is asked again of
// the next instance. One run at a time.
class ShiftCheck final : public QObject
{
    Q_OBJECT

public:
    struct Options
    {
        // The terminal whose payments are listed, when the shift has no payment the gateway can
        // name it from (its own answer for one of the shift's payments is taken first).
        QString terminalId;
        // Clocks of the till and the gateway differ: the list starts this much before the shift
        // (and the previous close); payments of earlier shifts it then holds are left out.
        qint64 clockMarginMs = 10 * 60 * 1000;
        int pageSize = 500;
        bool askBank = true;   // the acquirer's ledgers, where the gateway has them (demo)
        int concurrency = 8;   // questions in flight when the bank is asked key by key
    };
    struct Result
    {
        QList<ShiftFinding> findings;
        QString terminalId;   // as listed; empty: the merchant's whole list
        int pages = 0;
        int listed = 0;   // payments the gateway listed
        bool bankAsked = false;
        qint64 elapsedMs = 0;
        qint64 finishedAt = 0;

        bool allAgree() const;
        // {"terminal_id", "pages", "listed", "bank", "elapsed_ms", "at", "counts", "rows": [...]}.
        QJsonObject toJson() const;
    };
    using Done = std::function<void(bool ok, const QString &error, const Result &result)>;

    ShiftCheck(GatewayClient *client, ShiftBook *book, Options options, QObject *parent = nullptr);
    ~ShiftCheck() override;

    // `done` runs on `context` and is dropped when `context` is gone first.
    void run(const ShiftBook::Snapshot &snapshot, QObject *context, Done done);
    bool isRunning() const { return m_run != nullptr; }

private:
    struct Run;
    void learnTerminal();
    void listPage();
    void fetchRefunds();
    void dropEarlier();
    void askBank();
    void askBankByKey(bool refunds, const QStringList &keys);
    void finish();
    void fail(const QString &error);
    // `done` for one request of this run, dropped when the run has ended (failed) meanwhile.
    GatewayClient::Callback step(std::function<void(const GatewayResult &)> next);

    GatewayClient *m_client;
    ShiftBook *m_book;
    Options m_options;
    std::unique_ptr<Run> m_run;
    quint64 m_generation = 0;
};

}   // namespace OncePay
