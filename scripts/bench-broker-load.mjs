// One load generator of scripts/bench-broker.mjs, run as a worker thread: its share of the MQTT clients
// (clean session false, QoS 2 subscription to the client's own topic) each publishing on its own topic
// at QoS 2, so the workers together send the bench's rate. Each message carries (client, seq, sentAt);
// the client that sent it is the one that receives it, so publish → receive is timed on one clock.
//
// Talks to its parent by messages: ← { type: 'ready' } once every client is subscribed; → { type: 'go',
// startAt }; ← { type: 'done', stats } after the sending and the drain; → { type: 'close' }; ← { type:
// 'closed' } when every client has left (and, with cleanupSessions, its stored session is erased).
import { parentPort, workerData } from 'node:worker_threads';
import mqtt from 'mqtt';

const { url, clients: clientSpecs, ratePerSecond, seconds, drainMs, cleanupSessions } = workerData;
const CONNECT_CONCURRENCY = 25;

// Sub-millisecond wall-clock time; only ever compared within this thread.
const now = () => performance.timeOrigin + performance.now();

const clientOptions = (spec, clean) => ({
  clientId: spec.clientId,
  username: spec.username,
  password: spec.password,
  protocolVersion: 4,
  clean,
  keepalive: 120,
  connectTimeout: 10_000,
  // No reconnects: a dropped connection must show up in the figures, not be papered over.
  reconnectPeriod: 0,
});

async function inBatches(items, concurrency, action) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      await action(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

// Per client: how many times each seq arrived; plus what went wrong.
const received = clientSpecs.map(() => []);
const sentPerClient = clientSpecs.map(() => 0);
const latencies = clientSpecs.map(() => []);
let strays = 0;
let invalid = 0;
let publishErrors = 0;
let disconnects = 0;
let uniqueReceived = 0;
let firstSentAt = 0;
let lastReceivedAt = 0;

const clients = new Array(clientSpecs.length);
const connectStarted = now();
await inBatches(clientSpecs, CONNECT_CONCURRENCY, async (spec, index) => {
  const client = await mqtt.connectAsync(url, clientOptions(spec, false));
  // Over plain TCP, MQTT.js leaves Nagle's algorithm on (ws turns it off for WebSocket): without this the
  // generator itself would hold back QoS 2's small packets for up to 40 ms.
  client.stream.setNoDelay?.(true);
  client.on('close', () => disconnects++);
  client.on('message', (_topic, payload) => {
    const at = now();
    let message;
    try {
      message = JSON.parse(payload.toString());
    } catch {
      invalid++;
      return;
    }
    if (message.c !== index) {
      strays++; // someone else's message: the broker delivered it to the wrong client
      return;
    }
    const counts = received[index];
    counts[message.s] = (counts[message.s] ?? 0) + 1;
    if (counts[message.s] === 1) {
      uniqueReceived++;
      latencies[index].push(at - message.t);
      lastReceivedAt = at;
    }
  });
  const granted = await client.subscribeAsync(spec.topic, { qos: 2 });
  if (granted[0]?.qos !== 2) throw new Error(`${spec.topic}: granted QoS ${granted[0]?.qos}, not 2`);
  clients[index] = client;
});
// The 'close' listener counted nothing so far; from here on a close is a lost connection.
disconnects = 0;
parentPort.postMessage({ type: 'ready', connectMs: now() - connectStarted });

const { startAt } = await new Promise((resolve) =>
  parentPort.once('message', (message) => message.type === 'go' && resolve(message)),
);
const total = Math.round(ratePerSecond * seconds);
let sent = 0;
await new Promise((resolve) => setTimeout(resolve, Math.max(0, startAt - Date.now())));
firstSentAt = now();
const sendStarted = firstSentAt;

// Sends what is due by now: a late timer catches up instead of lowering the rate.
await new Promise((resolve) => {
  const tick = () => {
    const due = Math.min(total, Math.floor(((now() - sendStarted) / 1000) * ratePerSecond));
    while (sent < due) {
      const index = sent % clients.length;
      const seq = sentPerClient[index]++;
      const payload = JSON.stringify({ type: 'NOTIFICATION', title: 'bench', c: index, s: seq, t: now() });
      clients[index].publish(clientSpecs[index].topic, payload, { qos: 2 }, (error) => {
        if (error) publishErrors++;
      });
      sent++;
    }
    if (sent >= total) {
      clearInterval(timer);
      resolve();
    }
  };
  const timer = setInterval(tick, 5);
});
const sendEnded = now();

// Drain: wait until everything sent has arrived, or the drain time is up (what is missing then is lost).
const drainDeadline = now() + drainMs;
while (uniqueReceived < sent && now() < drainDeadline) {
  await new Promise((resolve) => setTimeout(resolve, 20));
}
// A short quiet time more, so a late duplicate would still be counted.
await new Promise((resolve) => setTimeout(resolve, 500));

let lost = 0;
let duplicated = 0;
let clientsWithLoss = 0;
let clientsWithDuplicates = 0;
received.forEach((counts, index) => {
  let clientLost = 0;
  let clientDuplicated = 0;
  for (let seq = 0; seq < sentPerClient[index]; seq++) {
    const count = counts[seq] ?? 0;
    if (count === 0) clientLost++;
    else clientDuplicated += count - 1;
  }
  lost += clientLost;
  duplicated += clientDuplicated;
  if (clientLost) clientsWithLoss++;
  if (clientDuplicated) clientsWithDuplicates++;
});

const p95 = (values) => values.sort((a, b) => a - b)[Math.max(0, Math.ceil(0.95 * values.length) - 1)] ?? 0;

parentPort.postMessage({
  type: 'done',
  stats: {
    clients: clients.length,
    sent,
    received: uniqueReceived,
    lost,
    duplicated,
    clientsWithLoss,
    clientsWithDuplicates,
    strays,
    invalid,
    publishErrors,
    disconnects,
    sendSeconds: (sendEnded - sendStarted) / 1000,
    // From the first publish to the last first-time delivery.
    deliverySeconds: ((lastReceivedAt || sendEnded) - firstSentAt) / 1000,
    latencies: Float64Array.from(latencies.flat()),
    worstClientP95: Math.max(...latencies.map((values) => p95([...values]))),
  },
});

await new Promise((resolve) =>
  parentPort.once('message', (message) => message.type === 'close' && resolve()),
);
await Promise.all(clients.map((client) => client.endAsync()));
if (cleanupSessions) {
  // A clean-session connect erases the stored session, so the external broker keeps nothing of ours.
  await inBatches(clientSpecs, CONNECT_CONCURRENCY, async (spec) => {
    try {
      const client = await mqtt.connectAsync(url, clientOptions(spec, true));
      await client.endAsync();
    } catch {}
  });
}
parentPort.postMessage({ type: 'closed' });
