/**
 * A call's length as a clock reads it: "m:ss" under an hour, "h:mm:ss" from an hour on (0 → "0:00",
 * 65 → "1:05", 3725 → "1:02:05"). Fractions are dropped and anything negative or not a number reads
 * "0:00", so a half-written log never shows "NaN:aN".
 */
export function formatCallDuration(seconds: number): string {
  const total = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const secs = total % 60;
  const two = (value: number) => String(value).padStart(2, '0');
  return hours > 0 ? `${hours}:${two(minutes)}:${two(secs)}` : `${minutes}:${two(secs)}`;
}
