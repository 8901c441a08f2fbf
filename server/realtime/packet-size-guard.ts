// Aedes parses whatever a client sends, however large the packet says it is, and buffers it until it
// is whole: one 16 MB publish costs 16 MB of server memory. This watches the MQTT fixed headers of a
// client's byte stream (type byte, then the "remaining length" in 1–4 bytes) and reports the first
// packet that declares more than `maxBytes`, before its body has arrived, so the connection can be
// dropped at once. The bytes themselves go to Aedes untouched.

/** The largest "remaining length" MQTT can express takes 4 bytes; a 5th continuation byte is malformed. */
const MAX_LENGTH_BYTES = 4;

export function createPacketSizeGuard(maxBytes: number, onTooLarge: (declaredBytes: number) => void) {
  let bodyLeft = 0; // bytes of the current packet's body still to pass
  let lengthBytes: number[] | null = null; // null: at a packet's type byte
  let tripped = false;

  return function watch(chunk: Uint8Array): void {
    let index = 0;
    while (index < chunk.length && !tripped) {
      if (bodyLeft > 0) {
        const step = Math.min(bodyLeft, chunk.length - index);
        bodyLeft -= step;
        index += step;
        continue;
      }
      const byte = chunk[index++] as number;
      if (lengthBytes === null) {
        lengthBytes = []; // the type byte: the remaining length follows
        continue;
      }
      lengthBytes.push(byte);
      if (byte & 0x80) {
        if (lengthBytes.length >= MAX_LENGTH_BYTES) {
          tripped = true;
          onTooLarge(Number.POSITIVE_INFINITY);
        }
        continue;
      }
      let length = 0;
      let multiplier = 1;
      for (const part of lengthBytes) {
        length += (part & 0x7f) * multiplier;
        multiplier *= 128;
      }
      lengthBytes = null;
      if (length > maxBytes) {
        tripped = true;
        onTooLarge(length);
        return;
      }
      bodyLeft = length;
    }
  };
}
