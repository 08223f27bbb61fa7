#pragma once

#include "http/httpanswer.h"
#include "http/httprequest.h"
#include "http/httpresponder.h"
#include "office/officetypes.h"

#include <QHash>
#include <QObject>
#include <QTimeZone>

#include <functional>
#include <optional>

namespace OncePay::Office {

class OfficeStore;

// The office's routes (OFFICE.md): POST /v1/events, GET /v1/tills/{till}/position and the
// reports (GET /v1/reports/sales, /shifts, /gaps), behind bearer tokens kept hashed in the store;
// /healthz and /livez. Answers are written when the store calls back, never by blocking.
class OfficeApi final : public QObject
{
    Q_OBJECT

public:
    OfficeApi(OfficeStore *store, QObject *parent = nullptr);

    void handle(Http::HttpRequest &&request, const Http::HttpResponder &responder);
    int requestsInFlight() const { return m_inFlight; }
    // The zone of the reports' days (--time-zone); the machine's unless set.
    void setTimeZone(const QTimeZone &zone) { m_zone = zone; }

    // A batch of 500 sales with their lines is well over the gateway's 64 KiB.
    static constexpr qint64 maxBodyBytes = 16 * 1024 * 1024;

signals:
    void idle();   // no request in flight any more

private:
    using Request = Http::HttpRequest;
    using Respond = std::function<void(const Http::HttpAnswer &)>;

    void route(const Request &rq, const Respond &respond);
    void authenticated(const Request &rq, const OfficeCaller &caller, const Respond &respond);
    void postEvents(const Request &rq, const OfficeCaller &caller, const Respond &respond);
    void getPosition(const Request &rq, const OfficeCaller &caller, const QString &till, const Respond &respond);
    // GET /v1/reports/{sales,shifts,gaps} (officereportsapi.cpp), owner tokens only.
    void getReport(const Request &rq, const OfficeCaller &caller, const QString &report, const Respond &respond);
    // Calls `done` with the token's caller (nullopt: no such token), or answers 503 itself when the
    // store cannot say.
    void authenticate(const QByteArray &authorization, const Respond &respond,
        const std::function<void(std::optional<OfficeCaller>)> &done);

    OfficeStore *m_store;
    int m_inFlight = 0;
    QTimeZone m_zone = QTimeZone::systemTimeZone();
    QHash<QString, OfficeCaller> m_known;   // token digest -> caller, as the store said
};

}   // namespace OncePay::Office
