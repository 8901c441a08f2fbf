// The one list of flags Chromium is launched with: the end-to-end tests (playwright.config.ts), the
// benchmarks in Chromium (bench/visible-in-chromium.ts, scripts/bench-video.mjs). Headless, no GPU,
// no QUIC and nothing that phones home, so runs are quiet and comparable.
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A fake camera (a moving test pattern) and microphone (a beep), allowed without asking: for calls. */
export const FAKE_MEDIA_ARGS = ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream'];
