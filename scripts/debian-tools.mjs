// The command-line tools the document tests read PDFs and XML with (poppler's pdftotext, pdfinfo and
// pdfdetach; libxml2's xmllint). Installed from Debian on the spot when running as root, like Chromium
// (scripts/chromium.mjs); elsewhere the tests that need them say so and skip.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const tools = [
  { binary: '/usr/bin/pdftotext', pkg: 'poppler-utils' },
  { binary: '/usr/bin/xmllint', pkg: 'libxml2-utils' },
];

export function ensureDocumentTools() {
  const missing = tools.filter((tool) => !existsSync(tool.binary));
  if (missing.length === 0) return true;
  if (process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) {
    console.warn(
      `The document tests skip their PDF and XML checks without ${missing.map((t) => t.pkg).join(' and ')}: sudo apt-get install -y ${missing.map((t) => t.pkg).join(' ')}`,
    );
    return false;
  }
  console.info(`Installing ${missing.map((t) => t.pkg).join(', ')} for the document tests…`);
  try {
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    execFileSync('apt-get', ['install', '-y', '-qq', ...missing.map((t) => t.pkg)], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  } catch (error) {
    console.warn(`Could not install them (${error.message}); those checks will skip.`);
  }
  return tools.every((tool) => existsSync(tool.binary));
}
