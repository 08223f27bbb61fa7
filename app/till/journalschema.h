#pragma once

#include "intent.h"
#include "sqlbatchworker.h"

#include <QList>
#include <QSqlQuery>
#include <QString>
#include <QVariant>

// The SQL shape of the till's journal: its schema with the migrations from every earlier version,
// and how an intent row is read and a journal line written. IntentJournal and JournalRules share it.
namespace OncePay::JournalSchema {

inline constexpr int version = 11;

// Creates the journal (from 0) or migrates it from an earlier version, inside the transaction
// that then sets user_version.
void migrate(SqlTx &tx, int from);

// The columns readIntent() reads, in its order, for "SELECT <intentColumns()> FROM intents".
QString intentColumns();
Intent readIntent(const QSqlQuery &q);
QList<Intent> readIntents(QSqlQuery &q);   // every row left, then finished

// The final states as an SQL list, "('succeeded', ...)", for "state IN" / "state NOT IN".
QString finalStatesSql();

QVariant orNull(const QString &s);
// Appends a line to the audit journal (never rewritten: SQLite refuses).
void appendJournal(SqlTx &tx, const QString &key, qint64 at, const QString &from, const QString &to,
    const QString &detail);

}   // namespace OncePay::JournalSchema
