#pragma once

#include <QCommandLineParser>
#include <QString>
#include <QStringList>

#include <optional>

namespace OncePay::Ctl {

// The parser of one oncepay-ctl command: its options, `--help` printing its usage, and bad usage
// as one line on stderr.
class CommandLine final
{
public:
    // `synopsis`: what follows the command's name in its usage line, e.g. "KEY [--json]".
    CommandLine(const QString &command, const QString &synopsis, const QString &description);

    void addOption(const QCommandLineOption &option) { m_parser.addOption(option); }
    void addOptions(const QList<QCommandLineOption> &options) { m_parser.addOptions(options); }
    void addPositionalArgument(const QString &name, const QString &description, const QString &syntax = {})
    {
        m_parser.addPositionalArgument(name, description, syntax);
    }

    // Parses the command's own arguments (those after its name). std::nullopt: go on; otherwise
    // the exit code to return, after the usage was printed (--help, 0) or the error was (2).
    std::optional<int> parse(const QStringList &arguments);

    bool isSet(const QString &name) const { return m_parser.isSet(name); }
    QString value(const QString &name) const { return m_parser.value(name); }
    QStringList values(const QString &name) const { return m_parser.values(name); }
    QStringList positionalArguments() const { return m_parser.positionalArguments(); }
    QString errorText() const { return m_parser.errorText(); }
    QString helpText() const;

    // Qt's help text with its first line ("Usage: /path/to/binary ...") replaced by `usage`.
    static QString helpText(const QCommandLineParser &parser, const QString &usage);
    static QCommandLineOption helpOption();

private:
    QString m_command;
    QString m_synopsis;
    QCommandLineParser m_parser;
};

}   // namespace OncePay::Ctl
