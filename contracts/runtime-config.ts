// Runtime client configuration (GET /api/v1/globalConfigs/runtime): what the SPA learns from the
// server at run time instead of baking it into the bundle (ARCHITECTURE.md). zod/mini: the browser
// loads it early.
import * as z from 'zod/mini';

/** The embedded broker's WebSocket path on the app's own origin. */
export const SAME_ORIGIN_BROKER_PATH = '/mqtt';

export const runtimeConfigSchema = z.object({
  /** SPEC §5: the call service works only when this flag is "true". */
  callServiceEnabled: z.enum(['true', 'false']),
  /** Prefix of the per-user broker topics (`{prefix}_{userId}_message`). */
  mqttTopicPrefix: z.string(),
  /** MQTT_WS_URL of an external broker; null: the embedded broker at `/mqtt` on this origin. */
  mqttUrl: z.nullable(z.string()),
  /** The broker client's keepalive in seconds: SPEC §9's 120 unless MQTT_KEEPALIVE_SECONDS says otherwise. */
  mqttKeepaliveSeconds: z.number(),
});
export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;

/**
 * The WebSocket URL the browser's broker client connects to: the configured external broker, or
 * same-origin `/mqtt` with ws: or wss: following the page's own protocol.
 */
export function brokerWebSocketUrl(
  config: Pick<RuntimeConfig, 'mqttUrl'>,
  page: { protocol: string; host: string },
): string {
  if (config.mqttUrl) return config.mqttUrl;
  const scheme = page.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${page.host}${SAME_ORIGIN_BROKER_PATH}`;
}
