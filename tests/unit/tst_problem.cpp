#include "problem.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using OncePay::Problem;

Q_DECLARE_METATYPE(OncePay::Problem)

namespace {

QJsonObject parseObject(const QByteArray &json)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    return error.error == QJsonParseError::NoError ? doc.object() : QJsonObject();
}

Problem validationFailed()
{
    Problem p = Problem::make(400, QStringLiteral("validation-failed"), QStringLiteral("Validation failed"),
        QStringLiteral("2 fields are invalid."));
    p.errors.append({QStringLiteral("amount"), QStringLiteral("must be an integer from 1 to 100000000")});
    p.errors.append({QStringLiteral("order_id"), QStringLiteral("is required")});
    return p;
}

Problem cardDeclined()
{
    Problem p = Problem::make(402, QStringLiteral("card-declined"), QStringLiteral("Card declined"),
        QStringLiteral("The acquirer declined the card."));
    p.extra.insert(QStringLiteral("payment"),
        QJsonObject{{QStringLiteral("id"), QStringLiteral("pay_1")},
            {QStringLiteral("status"), QStringLiteral("declined")},
            {QStringLiteral("amount"), 1999},
            {QStringLiteral("decline_code"), QStringLiteral("card_declined")}});
    return p;
}

}   // namespace

class TestProblem final : public QObject
{
    Q_OBJECT

private slots:
    void constants();
    void toJsonMembers();
    void toJsonErrors();
    void toJsonExtra();
    void roundTrip_data();
    void roundTrip();
    void fromWire();
    void notAProblem_data();
    void notAProblem();
};

void TestProblem::constants()
{
    QCOMPARE(QByteArray(Problem::typeBase), QByteArray("https://oncepay.example/problems/"));
    QCOMPARE(QByteArray(Problem::mediaType), QByteArray("application/problem+json"));
    const Problem p = Problem::make(409, QStringLiteral("idempotency-key-in-use"), QStringLiteral("t"), QStringLiteral("d"));
    QCOMPARE(p.typeUri(), QStringLiteral("https://oncepay.example/problems/idempotency-key-in-use"));
    QCOMPARE(p.status, 409);
    QCOMPARE(p.slug, QStringLiteral("idempotency-key-in-use"));
    QCOMPARE(p.title, QStringLiteral("t"));
    QCOMPARE(p.detail, QStringLiteral("d"));
    QVERIFY(p.errors.isEmpty());
    QVERIFY(p.extra.isEmpty());
}

void TestProblem::toJsonMembers()
{
    const Problem p = Problem::make(422, QStringLiteral("idempotency-key-reused"), QStringLiteral("Idempotency key reused"),
        QStringLiteral("The key was used with a different request."));
    const QByteArray json = p.toJson();
    QVERIFY(!json.contains('\n'));   // compact

    const QJsonObject o = parseObject(json);
    QCOMPARE(o.value(QStringLiteral("type")).toString(),
        QStringLiteral("https://oncepay.example/problems/idempotency-key-reused"));
    QCOMPARE(o.value(QStringLiteral("title")).toString(), QStringLiteral("Idempotency key reused"));
    QVERIFY(o.value(QStringLiteral("status")).isDouble());   // a JSON number, not a string
    QCOMPARE(o.value(QStringLiteral("status")).toInt(), 422);
    QCOMPARE(o.value(QStringLiteral("detail")).toString(), QStringLiteral("The key was used with a different request."));
    // No errors: no "errors" member, and nothing else either.
    QVERIFY(!o.contains(QStringLiteral("errors")));
    QCOMPARE(o.size(), 4);
    QCOMPARE(p.toJsonObject(), o);
}

void TestProblem::toJsonErrors()
{
    const QJsonObject o = parseObject(validationFailed().toJson());
    QCOMPARE(o.value(QStringLiteral("type")).toString(), QStringLiteral("https://oncepay.example/problems/validation-failed"));
    QCOMPARE(o.value(QStringLiteral("status")).toInt(), 400);

    const QJsonValue errors = o.value(QStringLiteral("errors"));
    QVERIFY(errors.isArray());
    const QJsonArray arr = errors.toArray();
    QCOMPARE(arr.size(), 2);
    QCOMPARE(arr.at(0).toObject().value(QStringLiteral("field")).toString(), QStringLiteral("amount"));
    QCOMPARE(arr.at(0).toObject().value(QStringLiteral("message")).toString(),
        QStringLiteral("must be an integer from 1 to 100000000"));
    QCOMPARE(arr.at(1).toObject().value(QStringLiteral("field")).toString(), QStringLiteral("order_id"));
    QCOMPARE(arr.at(1).toObject().value(QStringLiteral("message")).toString(), QStringLiteral("is required"));
    QCOMPARE(arr.at(0).toObject().size(), 2);
}

void TestProblem::toJsonExtra()
{
    Problem p = cardDeclined();
    // Extension members must not be able to replace the standard ones.
    p.extra.insert(QStringLiteral("status"), 200);
    p.extra.insert(QStringLiteral("type"), QStringLiteral("about:blank"));

    const QJsonObject o = parseObject(p.toJson());
    QCOMPARE(o.value(QStringLiteral("type")).toString(), QStringLiteral("https://oncepay.example/problems/card-declined"));
    QCOMPARE(o.value(QStringLiteral("status")).toInt(), 402);
    const QJsonObject payment = o.value(QStringLiteral("payment")).toObject();
    QCOMPARE(payment.value(QStringLiteral("id")).toString(), QStringLiteral("pay_1"));
    QCOMPARE(payment.value(QStringLiteral("status")).toString(), QStringLiteral("declined"));
    QCOMPARE(payment.value(QStringLiteral("decline_code")).toString(), QStringLiteral("card_declined"));
}

void TestProblem::roundTrip_data()
{
    QTest::addColumn<Problem>("problem");

    QTest::newRow("plain") << Problem::make(409, QStringLiteral("idempotency-key-in-use"),
        QStringLiteral("Idempotency key in use"),
        QStringLiteral("A request with this key is still running."));
    QTest::newRow("with errors") << validationFailed();
    QTest::newRow("with extra") << cardDeclined();
    QTest::newRow("Chinese text") << Problem::make(503, QStringLiteral("store-unavailable"),
        QStringLiteral(u"存储不可用"),
        QStringLiteral(u"请稍后重试：“数据库”已锁定。"));
    QTest::newRow("quotes and escapes") << Problem::make(400, QStringLiteral("idempotency-key-invalid"),
        QStringLiteral("Bad \"key\""),
        QStringLiteral("tab\there, backslash \\ and \u00e9"));
    QTest::newRow("empty detail") << Problem::make(404, QStringLiteral("not-found"), QStringLiteral("Not found"),
        QString());
}

void TestProblem::roundTrip()
{
    QFETCH(Problem, problem);

    const std::optional<Problem> back = Problem::fromJson(problem.toJson());
    QVERIFY(back.has_value());
    QCOMPARE(back->slug, problem.slug);
    QCOMPARE(back->typeUri(), problem.typeUri());
    QCOMPARE(back->title, problem.title);
    QCOMPARE(back->status, problem.status);
    QCOMPARE(back->detail, problem.detail);
    QCOMPARE(back->errors.size(), problem.errors.size());
    for (qsizetype i = 0; i < problem.errors.size(); ++i) {
        QCOMPARE(back->errors.at(i).field, problem.errors.at(i).field);
        QCOMPARE(back->errors.at(i).message, problem.errors.at(i).message);
    }
    QCOMPARE(back->extra, problem.extra);
    // And once more through the wire: byte for byte the same document.
    QCOMPARE(back->toJson(), problem.toJson());
}

void TestProblem::fromWire()
{
    // As another implementation might write it: other member order, white space, UTF-8.
    const QByteArray body = "{\n"
                            "  \"payment\": {\"id\": \"pay_9\", \"status\": \"declined\"},\n"
                            "  \"detail\": \"Insufficient funds.\",\n"
                            "  \"status\": 402,\n"
                            "  \"title\": \"Card declined\",\n"
                            "  \"type\": \"https://oncepay.example/problems/card-declined\"\n"
                            "}\n";
    const std::optional<Problem> p = Problem::fromJson(body);
    QVERIFY(p.has_value());
    QCOMPARE(p->slug, QStringLiteral("card-declined"));
    QCOMPARE(p->status, 402);
    QCOMPARE(p->title, QStringLiteral("Card declined"));
    QCOMPARE(p->detail, QStringLiteral("Insufficient funds."));
    QVERIFY(p->errors.isEmpty());
    // Standard members are consumed; only the extension member is left in extra.
    QCOMPARE(p->extra.keys(), QStringList{QStringLiteral("payment")});
    QCOMPARE(p->extra.value(QStringLiteral("payment")).toObject().value(QStringLiteral("id")).toString(),
        QStringLiteral("pay_9"));
}

void TestProblem::notAProblem_data()
{
    QTest::addColumn<QByteArray>("body");

    QTest::newRow("empty") << QByteArray();
    QTest::newRow("not JSON") << QByteArray("<html>Bad Gateway</html>");
    QTest::newRow("truncated") << QByteArray(R"({"type":"https://oncepay.example/problems/not-found","status":404)");
    QTest::newRow("array") << QByteArray(R"([{"type":"x","status":400}])");
    QTest::newRow("string") << QByteArray(R"("problem")");
    QTest::newRow("empty object") << QByteArray("{}");
    QTest::newRow("payment") << QByteArray(R"({"id":"pay_1","object":"payment","status":"succeeded"})");
    QTest::newRow("health") << QByteArray(R"({"status":"ok"})");
    QTest::newRow("no status") << QByteArray(R"({"type":"https://oncepay.example/problems/not-found","title":"Not found"})");
    QTest::newRow("no type") << QByteArray(R"({"title":"Not found","status":404})");
    QTest::newRow("empty type") << QByteArray(R"({"type":"","status":404})");
    QTest::newRow("type not a string") << QByteArray(R"({"type":404,"status":404})");
    QTest::newRow("status a string") << QByteArray(R"({"type":"https://oncepay.example/problems/not-found","status":"404"})");
    QTest::newRow("status null") << QByteArray(R"({"type":"https://oncepay.example/problems/not-found","status":null})");
}

void TestProblem::notAProblem()
{
    QFETCH(QByteArray, body);
    QVERIFY(!Problem::fromJson(body).has_value());
}

QTEST_GUILESS_MAIN(TestProblem)
#include "tst_problem.moc"
