#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

namespace OncePay {

// Bearer tokens as the servers keep them: only as SHA-256 digests, never in clear, and read from
// one "Authorization: Bearer <token>" field. The gateway's token file and the office's tokens
// table hold these digests.
namespace BearerToken {

// The hex SHA-256 digest a token is kept and looked up as.
QString hash(const QByteArray &token);
// The token of an "Authorization" field's value ("Bearer <token>", the scheme in any case), or
// nullopt when it carries none.
std::optional<QByteArray> fromAuthorization(const QByteArray &authorization);
// A new token: `prefix` followed by 32 characters of [a-z0-9] from the system's random source
// (about 165 bits).
QByteArray generate(const QByteArray &prefix);

}   // namespace BearerToken
}   // namespace OncePay
