// One bench request through HTTP on 127.0.0.1, timed as a client sees it (the benches' shared call).

/**
 * `{ ms, status, ok, body }` (body parsed when it is JSON) for a request with the access token; a
 * JSON `body` is sent as such, a `form` (FormData) as multipart. Aborted after `timeoutMs`.
 */
export async function timedCall(base, token, method, url, { body, form, timeoutMs }) {
  const headers = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const started = performance.now();
  const response = await fetch(`${base}${url}`, {
    method,
    headers,
    body: form ?? (body !== undefined ? JSON.stringify(body) : undefined),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await response.text();
  const ms = performance.now() - started;
  let parsed = text;
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { ms, status: response.status, ok: response.ok, body: parsed };
}
