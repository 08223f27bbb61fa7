#pragma once

class QCommandLineParser;

namespace OncePay::Pos {

// oncepay-pos's options, declared once for the till's start and for --help/--version.
void addTillOptions(QCommandLineParser &parser);

// --help, --help-all or --version among the arguments: answered before any QApplication exists,
// so that they work without a display (a QCoreApplication is enough to print them).
bool asksForHelpOrVersion(int argc, char *argv[]);
// Prints the help or the version and returns the exit code.
int printHelpOrVersion(int argc, char *argv[]);

}   // namespace OncePay::Pos
