import mqttPacket from 'mqtt-packet';
import { describe, expect, it } from 'vitest';
import { createPacketSizeGuard } from './packet-size-guard';

const publish = (bytes: number) =>
  mqttPacket.generate({
    cmd: 'publish',
    topic: 't',
    payload: Buffer.alloc(bytes, 120),
    qos: 0,
    retain: false,
    dup: false,
  } as mqttPacket.IPublishPacket);
const ping = () => mqttPacket.generate({ cmd: 'pingreq' });

function feed(guard: (chunk: Uint8Array) => void, bytes: Buffer, chunkSize: number) {
  for (let start = 0; start < bytes.length; start += chunkSize)
    guard(bytes.subarray(start, start + chunkSize));
}

describe('the MQTT packet size guard', () => {
  it.each([1, 3, 64, 100_000])(
    'lets packets within the limit through, however the bytes are split (%i)',
    (size) => {
      const seen: number[] = [];
      const guard = createPacketSizeGuard(10_000, (bytes) => seen.push(bytes));
      feed(guard, Buffer.concat([ping(), publish(9_000), ping(), publish(10), publish(9_990)]), size);
      expect(seen).toEqual([]);
    },
  );

  it.each([1, 5, 4096])(
    'reports a packet declaring more than the limit from its header (%i-byte chunks)',
    (size) => {
      const seen: number[] = [];
      const guard = createPacketSizeGuard(10_000, (bytes) => seen.push(bytes));
      const big = publish(16 * 1024 * 1024);
      // Only the first few bytes arrive: the header alone is enough.
      feed(guard, Buffer.concat([publish(100), big.subarray(0, 8)]), size);
      expect(seen).toHaveLength(1);
      expect(seen[0]).toBeGreaterThan(16 * 1024 * 1024);
    },
  );

  it('reports a malformed length of five bytes', () => {
    const seen: number[] = [];
    const guard = createPacketSizeGuard(10_000, (bytes) => seen.push(bytes));
    guard(Uint8Array.from([0x30, 0xff, 0xff, 0xff, 0xff, 0x7f]));
    expect(seen).toEqual([Number.POSITIVE_INFINITY]);
  });
});
