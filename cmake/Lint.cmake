# Compiler-side checks for CI (docs/development.md, "Static checks"):
#
# ONCEPAY_WARNINGS_AS_ERRORS: every warning in our own code fails the build (-Werror). On in the
#   asan and tsan presets, which compile the whole tree in CI; off in release, so that a newer
#   compiler's new warning does not stop a shop from building the till.
# ONCEPAY_CLAZY: clazy (Qt's own mistakes: a detaching range loop, a lambda connected without a
#   context, a QString built from a temporary, ...) runs as a plugin of the clang that compiles
#   the tree, so it costs no second parse. On in the asan preset (clang++). The checks are the
#   list below; docs/development.md argues for each one left out.
option(ONCEPAY_WARNINGS_AS_ERRORS "Fail the build on any compiler or clazy warning in our code" OFF)
option(ONCEPAY_CLAZY "Run clazy's checks as a clang plugin while compiling (needs clang++)" OFF)

set(ONCEPAY_CLAZY_CHECKS
    level0
    level1
    # level1's warnings that would flag what we do on purpose:
    no-non-pod-global-static        # Q_LOGGING_CATEGORY and constant tables are such statics
    no-rule-of-two-soft             # a copy constructor with a default assignment is Qt's own idiom in value types
    no-qproperty-without-notify     # read-only Q_PROPERTYs of gadgets have nothing to notify
    no-qstring-ref                  # Qt 5 advice (midRef): Qt 6 has no QStringRef; the copies it flags are small
    # from level2 and the manual level, the ones that catch real mistakes here:
    old-style-connect
    qstring-allocations
    static-pmf
    isempty-vs-count
)

function(oncepay_enable_lint)
    if(ONCEPAY_WARNINGS_AS_ERRORS)
        add_compile_options(-Werror)
    endif()
    if(NOT ONCEPAY_CLAZY)
        return()
    endif()
    if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
        message(FATAL_ERROR "ONCEPAY_CLAZY needs clang++ (CMAKE_CXX_COMPILER=clang++), not ${CMAKE_CXX_COMPILER_ID}")
    endif()
    find_library(ONCEPAY_CLAZY_PLUGIN NAMES ClazyPlugin.so ClazyPlugin PATH_SUFFIXES x86_64-linux-gnu)
    if(NOT ONCEPAY_CLAZY_PLUGIN)
        message(FATAL_ERROR "ONCEPAY_CLAZY: clazy's clang plugin is not installed (apt-get install clazy; scripts/install-deps)")
    endif()
    list(JOIN ONCEPAY_CLAZY_CHECKS "," checks)
    add_compile_options(
        "SHELL:-Xclang -load -Xclang ${ONCEPAY_CLAZY_PLUGIN}"
        "SHELL:-Xclang -add-plugin -Xclang clazy"
        "SHELL:-Xclang -plugin-arg-clazy -Xclang ${checks}")
    # What moc and uic generate is not ours to fix: clazy skips the build tree. (Only an
    # environment variable says so; the launcher sets it for each compile.)
    set(CMAKE_CXX_COMPILER_LAUNCHER env "CLAZY_IGNORE_DIRS=${CMAKE_BINARY_DIR}/.*" ${CMAKE_CXX_COMPILER_LAUNCHER} PARENT_SCOPE)
endfunction()
