#pragma once

#include "intentjournal.h"
#include "tillsession.h"

#include <QString>

#include <memory>
#include <optional>

namespace OncePay::Ctl {

// What the journal commands share: the global options and the TillSession they open with them.
// Each step answers std::nullopt when it went well, otherwise the exit code to return after it
// printed the reason (one line on stderr).
class CtlSession final
{
public:
    struct Options
    {
        QString dbPath;
        QString gateways;   // one URL or several, comma separated
        QString token;
        int requestTimeoutMs = 10'000;
        QString caFile;   // extra certificate authorities for https:// (PEM)
        bool allowInsecureHttp = false;   // the token over plain HTTP to another machine
        // The shop's office (issue 38): the till's outbox goes there while a command that sends
        // runs (pay, sale, sync, office push). Empty: none.
        QString office;
        QString officeToken;
        QString officeTill = QStringLiteral("1");
    };
    // ONCEPAY_DB, ONCEPAY_GATEWAY (default http://127.0.0.1:8080), ONCEPAY_TOKEN, ONCEPAY_CA_FILE,
    // ONCEPAY_OFFICE, ONCEPAY_OFFICE_TOKEN, ONCEPAY_OFFICE_TILL.
    static Options optionsFromEnvironment();
    // A --gateway list that is not one: a usage error.
    static std::optional<int> checkGateways(const QString &gateways);
    // An --office that is not an http(s) URL: a usage error.
    static std::optional<int> checkOffice(const QString &office);

    enum class Use {
        ReadJournal,   // list, show, export: the journal read-only; neither token nor gateway needed
        ReadAndAsk,   // reconcile: the journal read-only, and the gateway's list
        Sync,   // pay, refund, sync: the journal owned, the engine started (recovery, then sending)
        Change,   // void: an existing journal owned, the engine not started (nothing recovered or
            // sent); neither token nor gateway needed
        OwnAndAsk,   // close-shift: the journal owned (nothing is sent), and the gateway's list
    };

    explicit CtlSession(Options options);
    ~CtlSession();

    const Options &options() const { return m_options; }
    std::optional<int> open(Use use);
    TillSession &till() { return *m_till; }

    // Every intent the query matches, read from the journal (open first).
    bool readIntents(IntentJournal::Query query, QList<Intent> *intents, QString *error);

private:
    Options m_options;
    std::unique_ptr<TillSession> m_till;
};

}   // namespace OncePay::Ctl
