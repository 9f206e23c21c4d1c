/**
 * Debian's Chromium, no browser download (PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1):
 * the launch options of every Playwright project in web/ and admin/.
 */
export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
}
