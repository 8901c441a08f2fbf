/** A service URL without its credentials, for error messages and logs (MQTT_URL, REDIS_URL). */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return '(invalid URL)';
  }
}
