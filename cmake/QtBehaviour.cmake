# Where OncePay leans on Qt behaviour that Qt does not promise, and the Qt versions on which each
# was verified. An upgrade of Qt fails here, at configure time, instead of in production: whoever
# upgrades re-checks each item below (each names the code and the test that pins it), then adds
# the new major.minor to ONCEPAY_QT_VERIFIED.
#
# 1. A POST is re-sent once, silently, when its kept-alive connection closes before any byte of
#    the answer (Qt 6.4; later versions re-send idempotent methods only). Harmless for money
#    (every request carries its Idempotency-Key), but "the request left" must not be read from the
#    final error: ReplyProgress counts connections and `written` (app/core/replywatcher.h,
#    app/till/gatewayclient.cpp, app/gateway/acquirer/httpacquirer.cpp; tests/unit/tst_replywatcher,
#    tests/gateway/tst_acquirerservice killedMidCall).
# 2. Qt's HTTP thread shares a QNetworkReply's connection list and may destroy the slot objects
#    connected to it on its own thread. So no lambda is ever connected to a reply: ReplyWatcher
#    connects by signature (app/core/replywatcher.h; the tsan preset over tests/gateway).
# 3. Debian's Qt is not built with ThreadSanitizer, so the locks inside Qt's event posting are
#    invisible to it: completions cross threads through CompletionRelay's std::mutex
#    (app/core/completionrelay.h; the tsan preset).
# 4. QNetworkAccessManager runs at most 6 HTTP/1.1 requests per host at once (documented, but a
#    number): GatewayClient spreads a drain over several managers (app/till/gatewayclient.h;
#    tests/bench oncepay-bench-drain).
# No Qt private header is included anywhere: cmake/Layers.cmake fails the configuration if any of
# our libraries links a Qt6::*Private module.
set(ONCEPAY_QT_VERIFIED 6.4)

function(oncepay_check_qt_behaviour)
    set(found "${Qt6Core_VERSION_MAJOR}.${Qt6Core_VERSION_MINOR}")
    if(NOT found IN_LIST ONCEPAY_QT_VERIFIED AND NOT ONCEPAY_QT_BEHAVIOUR_REVIEWED STREQUAL found)
        message(FATAL_ERROR
            "Qt ${Qt6Core_VERSION} has not been verified for the Qt behaviour OncePay leans on "
            "(verified: ${ONCEPAY_QT_VERIFIED}). Re-check the items in cmake/QtBehaviour.cmake, "
            "add ${found} to ONCEPAY_QT_VERIFIED there, or configure with "
            "-DONCEPAY_QT_BEHAVIOUR_REVIEWED=${found} for a trial build.")
    endif()
endfunction()
