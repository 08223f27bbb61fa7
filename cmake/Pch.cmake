# ONCEPAY_PCH: the Qt headers most of our files include are parsed once per library (a
# precompiled header) instead of once per file. On in the asan and tsan presets, which CI builds
# from clean on two cores (docs/development.md, "What CI builds"); off elsewhere, so that the
# release build, and clang-tidy reading its compile commands, still prove that every file
# includes what it uses. Only libraries and programs of several files use it: for a test of one
# file, building the header costs what it saves.
option(ONCEPAY_PCH "Precompile the Qt headers the libraries include most" OFF)

set(ONCEPAY_PCH_CORE
    <QtCore/QByteArray> <QtCore/QDateTime> <QtCore/QHash> <QtCore/QJsonArray> <QtCore/QJsonDocument>
    <QtCore/QJsonObject> <QtCore/QList> <QtCore/QLoggingCategory> <QtCore/QObject> <QtCore/QPointer>
    <QtCore/QSet> <QtCore/QString> <QtCore/QStringList> <QtCore/QTimer> <QtCore/QUrl>
    <QtNetwork/QNetworkReply> <QtSql/QSqlQuery>
    <functional> <memory> <optional>)
set(ONCEPAY_PCH_WIDGETS
    <QtWidgets/QWidget> <QtWidgets/QDialog> <QtWidgets/QLabel> <QtWidgets/QLineEdit> <QtWidgets/QPushButton>
    <QtWidgets/QTableView> <QtWidgets/QVBoxLayout>)

# oncepay_precompile(<target> [WIDGETS]): the target's files see the headers above (WIDGETS: and
# Qt Widgets'), precompiled. The target must link Qt Core, Network and Sql (oncepay_core does).
function(oncepay_precompile target)
    cmake_parse_arguments(ARG "WIDGETS" "" "" ${ARGN})
    if(NOT ONCEPAY_PCH)
        return()
    endif()
    set(headers ${ONCEPAY_PCH_CORE})
    if(ARG_WIDGETS)
        list(APPEND headers ${ONCEPAY_PCH_WIDGETS})
    endif()
    target_precompile_headers(${target} PRIVATE ${headers})
endfunction()

# ccache hits precompiled headers only with these sloppiness settings (its manual, "Precompiled
# headers"); the launcher passes them to every compile of a tree that uses them.
if(ONCEPAY_PCH AND CCACHE_PROGRAM)
    set(CMAKE_CXX_COMPILER_LAUNCHER ${CMAKE_COMMAND} -E env
        CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime ${CCACHE_PROGRAM})
endif()
