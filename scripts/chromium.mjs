// Finds the Chromium the end-to-end tests drive. Playwright cannot download browsers here, so the tests
// use Debian's package: installed on the spot when running as root, otherwise we say what to install.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const candidates = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
];

export function findChromium() {
  if (process.env.CHROMIUM_PATH && existsSync(process.env.CHROMIUM_PATH)) return process.env.CHROMIUM_PATH;
  return candidates.find((candidate) => existsSync(candidate));
}

export function ensureChromium() {
  const found = findChromium();
  if (found) return found;
  if (process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')) {
    console.info('Chromium is missing: installing Debian’s chromium package…');
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    const installed = findChromium();
    if (installed) return installed;
  }
  throw new Error(
    'The end-to-end tests need Chromium and none was found.\n' +
      '  On Debian/Ubuntu: sudo apt-get install -y chromium\n' +
      '  Or point CHROMIUM_PATH at a Chromium or Chrome binary.',
  );
}
