# Sourced by .ci/run: install Debian's Chromium for the browser tests (tests/test_web_*.py drive
# it headless through Playwright at /usr/bin/chromium; Playwright's own browser download is never used).
chromium_setup() {
    if [ ! -x /usr/bin/chromium ]; then
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        apt-get install -y -qq chromium >/dev/null
    fi
    # A font with Chinese glyphs: the client speaks Traditional and Simplified Chinese (docs/i18n.md).
    if ! fc-list :lang=zh 2>/dev/null | grep -q .; then
        export DEBIAN_FRONTEND=noninteractive
        apt-get install -y -qq fonts-wqy-microhei >/dev/null 2>&1 \
            || { apt-get update -qq && apt-get install -y -qq fonts-wqy-microhei >/dev/null; } || true
    fi
    /usr/bin/chromium --version 2>/dev/null || true
}
chromium_setup
