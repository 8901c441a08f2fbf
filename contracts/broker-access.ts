// The broker's questions over HTTP (server/modules/broker-access): an external MQTT broker asks whether
// a client may connect and what it may do on a topic. Two products' documented formats:
//
// - EMQX 5, HTTP authentication and HTTP authorization:
//   https://docs.emqx.com/en/emqx/latest/access-control/authn/http.html
//   https://docs.emqx.com/en/emqx/latest/access-control/authz/http.html
//   The request body is a JSON template of placeholders (${username}, ${password}, ${clientid},
//   ${peerhost}, ${action}, ${topic}, ${qos}, ${retain}); the answer is 200 with
//   `{ "result": "allow" | "deny" | "ignore", "is_superuser": false }` (any other status means
//   "ignore", so a refusal must be a 200 saying deny).
// - mosquitto-go-auth's HTTP backend (README "HTTP", backends/http.go):
//   https://github.com/iegomez/mosquitto-go-auth#http
//   JSON or form body: `username`, `password`, `clientid` to authenticate; `username`, `clientid`,
//   `topic`, `acc` (1 read, 2 write, 3 readwrite, 4 subscribe) to check an ACL. It decides by the status
//   (2xx allow, anything else deny) and, in `http_response_mode json`, also by `{ "ok", "error" }`.
//
// Which broker asks is read from the body: EMQX's templates carry `peerhost` (authentication) and
// `action` (authorization); mosquitto-go-auth sends neither and sends `acc`.
import { z } from 'zod';

const text = (max: number) => z.string().max(max);

/** Client ids, usernames: MQTT allows 65,535 bytes; ours are UUIDs and short tab ids. */
const MAX_NAME = 1024;
/** Access tokens are a few hundred characters. */
const MAX_PASSWORD = 8192;
/** MQTT's own limit on a topic. */
const MAX_TOPIC = 65_535;

export const brokerAuthBodySchema = z.object({
  username: text(MAX_NAME).optional(),
  password: text(MAX_PASSWORD).optional(),
  clientid: text(MAX_NAME).optional(),
  /** EMQX's ${peerhost}; its presence says the answer must be in EMQX's format. */
  peerhost: text(256).optional(),
});
export type BrokerAuthBody = z.infer<typeof brokerAuthBodySchema>;

export const emqxActionSchema = z.enum(['publish', 'subscribe']);

/** mosquitto's access values (mosquitto_plugin.h): 1 read, 2 write, 3 read and write, 4 subscribe. */
export const goAuthAccSchema = z.coerce.number().int().min(1).max(4);

export const brokerAclBodySchema = z
  .object({
    username: text(MAX_NAME),
    clientid: text(MAX_NAME).optional(),
    topic: text(MAX_TOPIC).min(1),
    /** EMQX: what the client does. */
    action: emqxActionSchema.optional(),
    /** mosquitto-go-auth: the access asked for (a number in JSON, a string in a form). */
    acc: goAuthAccSchema.optional(),
  })
  .refine((body) => (body.action === undefined) !== (body.acc === undefined), {
    message: 'Send either action (EMQX) or acc (mosquitto-go-auth)',
    path: ['action'],
  });
export type BrokerAclBody = z.infer<typeof brokerAclBodySchema>;

/** EMQX's answer (always status 200). `expire_at`: EMQX ≥ 5.8 disconnects the client then (epoch s). */
export const emqxAnswerSchema = z.object({
  result: z.enum(['allow', 'deny', 'ignore']),
  is_superuser: z.boolean().optional(),
  expire_at: z.number().int().optional(),
});

/** mosquitto-go-auth's answer: status 200 allows, 403 denies; the body serves its json response mode. */
export const goAuthAnswerSchema = z.object({ ok: z.boolean(), error: z.string() });
