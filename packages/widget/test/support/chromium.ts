/**
 * How the tests and the bench start Debian's Chromium (no browser download): headless as root needs
 * no sandbox, and the background services would only knock on the closed network.
 */
export const chromiumLaunchOptions = {
  executablePath: "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
};
