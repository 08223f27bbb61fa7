#include "commandline.h"

#include "ctloutput.h"
#include "exitcode.h"

namespace OncePay::Ctl {

CommandLine::CommandLine(const QString &command, const QString &synopsis, const QString &description)
    : m_command(command)
    , m_synopsis(synopsis)
{
    m_parser.setApplicationDescription(description);
    m_parser.addOption(helpOption());
}

QCommandLineOption CommandLine::helpOption()
{
    return QCommandLineOption({QStringLiteral("h"), QStringLiteral("help")}, QStringLiteral("Displays this help."));
}

std::optional<int> CommandLine::parse(const QStringList &arguments)
{
    if (!m_parser.parse(QStringList{QStringLiteral("oncepay-ctl ") + m_command} + arguments))
        return fail(Usage, m_parser.errorText());
    if (m_parser.isSet(QStringLiteral("help"))) {
        out(helpText().toUtf8());
        return Succeeded;
    }
    return std::nullopt;
}

QString CommandLine::helpText() const
{
    return helpText(m_parser, QStringLiteral("oncepay-ctl [global options] %1 %2").arg(m_command, m_synopsis).trimmed());
}

QString CommandLine::helpText(const QCommandLineParser &parser, const QString &usage)
{
    const QString qtText = parser.helpText();
    return QStringLiteral("Usage: %1\n").arg(usage) + qtText.mid(qtText.indexOf(QLatin1Char('\n')) + 1);
}

}   // namespace OncePay::Ctl
