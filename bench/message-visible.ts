// Customer message → shown in the seller's open chat in Chromium (issue 5 "Speed", p95 ≤ 150 ms), for
// `npm run bench` (scripts/bench-chats.mjs runs this with tsx). The server runs in this process with the
// demo seed; Chromium is signed in as the demo seller with a chat open on /sellers/help-chats?chatId=….
// The customer writes through the public widget API over HTTP, as the widget does, and the message
// reaches the page through the seller's real broker client and the shell's chat store.
//
// For each sample: t0 = Date.now(); POST …/widget/SEL-0001/messages with `bench-{i}`; a MutationObserver
// records Date.now() when that text enters the open conversation (only the messages pane counts: the
// chat list shows the last message too), and again after the next frame. The figures are the second one
// minus t0. The widget allows 20 messages a minute per chat (widget-routes.ts), so the bench starts a
// fresh chat every MESSAGES_PER_CHAT messages and opens it in the same page (no reload).
//
// Usage: tsx bench/message-visible.ts --chromium /usr/bin/chromium [--samples 50] [--static-dir dist]
// Prints one line `RESULT {json}` at the end.
import path from 'node:path';
import type { ChatList, WidgetChat } from '../contracts/help-chats';
import {
  argument,
  DEMO_PASSWORD,
  observeBenchTexts,
  pageFailure,
  root,
  runMain,
  type SignedInPage,
  seenAt,
  signedInPage,
  startBenchServer,
  summary,
} from './visible-in-chromium';

const SELLER_EMAIL = 'seller@demo.local';
const SELLER_CODE = 'SEL-0001'; // the demo seller's code (server/seed/sellers.ts)
const SAMPLE_TIMEOUT_MS = 5_000;
/** Probes plus measured messages stay within the widget's 20 messages a minute per chat. */
const MESSAGES_PER_CHAT = 12;
const MAX_PROBES_PER_CHAT = 8;
const MESSAGES_PANE = '[aria-label="Messages"]';

async function main() {
  const samples = Number(argument('--samples', '50'));
  const chromiumPath = argument('--chromium');
  const staticDir = path.resolve(root, argument('--static-dir', 'dist'));
  const server = await startBenchServer('bench-message-visible', staticDir);
  let signedIn: SignedInPage | null = null;
  try {
    const { base } = server;
    const widget = `${base}/api/v1/queryBot/widget/${SELLER_CODE}`;
    const post = async <T>(url: string, body: unknown): Promise<T> => {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`POST ${url}: ${response.status} ${await response.text()}`);
      return (await response.json()) as T;
    };
    const { accessToken } = await post<{ accessToken: string }>(`${base}/api/v1/auth/signin`, {
      email: SELLER_EMAIL,
      password: DEMO_PASSWORD,
    });
    /** The back-office id of the chat the widget knows by `sessionId` (the newest chats come first). */
    const chatIdOf = async (sessionId: string) => {
      const response = await fetch(`${base}/api/v1/queryBot/listSellerQueryBotChats?skip=0&limit=20`, {
        headers: { authorization: `Bearer ${accessToken}` },
      });
      const list = (await response.json()) as ChatList;
      const entry = list.result.find((chat) => chat.sessionId === sessionId);
      if (!entry) throw new Error(`the seller's list does not show the chat ${sessionId}`);
      return entry.chatId;
    };
    const write = (sessionId: string, message: string) =>
      post<WidgetChat>(`${widget}/messages`, { sessionId, message });

    signedIn = await signedInPage(chromiumPath, base, SELLER_EMAIL);
    const { page } = signedIn;
    await observeBenchTexts(page, MESSAGES_PANE);
    const latencies: number[] = [];
    const domLatencies: number[] = [];
    const firstShownAfterMs: number[] = [];
    const missed: string[] = [];
    let probe = 0;
    for (let chat = 0; chat * MESSAGES_PER_CHAT < samples; chat++) {
      const { sessionId } = await post<WidgetChat>(`${widget}/start`, {
        name: `Benchmark Customer ${chat + 1}`,
        email: `customer${chat + 1}@bench.example`,
      });
      const chatPage = `/sellers/help-chats?chatId=${encodeURIComponent(await chatIdOf(sessionId))}`;
      // wouter follows history.pushState: the page opens the chat without a reload (the broker
      // connection stays up, as when the seller picks another chat; a reload would also sign in again).
      await page.evaluate((to) => window.history.pushState(null, '', to), chatPage);
      // The history (the bot's welcome) first: a probe it already holds would prove nothing. Then the
      // broker client, which connects after the shell loads: probe until a message shows in the open
      // chat (one published before the connection is only stored, so keep sending new ones).
      const opened = Date.now();
      await page
        .locator(`${MESSAGES_PANE} [data-testid="chat-message"]`)
        .first()
        .waitFor({ timeout: 15_000 })
        .catch(async () => {
          throw await pageFailure(signedIn as SignedInPage, `chat ${chat + 1} did not open`);
        });
      for (let attempt = 1; ; attempt++) {
        if (attempt > MAX_PROBES_PER_CHAT) {
          throw await pageFailure(signedIn, `no probe message showed in chat ${chat + 1}`);
        }
        probe++;
        await write(sessionId, `bench-probe-${probe}`);
        if (await seenAt(page, `bench-probe-${probe}`, 1000)) break;
      }
      firstShownAfterMs.push(Date.now() - opened);

      for (let i = chat * MESSAGES_PER_CHAT; i < Math.min(samples, (chat + 1) * MESSAGES_PER_CHAT); i++) {
        const text = `bench-${i}`;
        const t0 = Date.now();
        await write(sessionId, text);
        const seen = await seenAt(page, text, SAMPLE_TIMEOUT_MS);
        if (!seen) {
          // Whether it never arrived or came without the observer seeing it enter (diagnosis only).
          const inPane = await page.evaluate(
            ([pane, wanted]) => document.querySelector(pane)?.textContent?.includes(wanted) ?? false,
            [MESSAGES_PANE, text] as const,
          );
          missed.push(inPane ? `${text} (in the pane, unobserved)` : text);
          continue;
        }
        domLatencies.push(seen[0] - t0);
        latencies.push(seen[1] - t0);
      }
    }
    const result = {
      samples,
      missed: missed.length,
      missedMessages: missed,
      chats: firstShownAfterMs.length,
      measuredTo:
        'the frame after the message entered the open conversation (MutationObserver, then requestAnimationFrame)',
      ...summary(latencies),
      textInDomMs: summary(domLatencies),
      probeShownAfterOpeningMs: firstShownAfterMs,
    };
    console.info(`RESULT ${JSON.stringify(result)}`);
  } finally {
    await signedIn?.browser.close();
    await server.close();
  }
}

runMain(main);
