import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NOTIFICATION_SOUND_URL, playNotificationSound } from './sound';

let warn: ReturnType<typeof vi.spyOn>;

function stubAudio(play: () => Promise<void> | undefined) {
  const created: string[] = [];
  vi.stubGlobal(
    'Audio',
    class {
      constructor(src: string) {
        created.push(src);
      }
      play = play;
    },
  );
  return created;
}

beforeEach(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('playNotificationSound', () => {
  it('plays /Audio/notification.wav', async () => {
    const created = stubAudio(() => Promise.resolve());
    await expect(playNotificationSound()).resolves.toBe(true);
    expect(created).toEqual(['/Audio/notification.wav']);
    expect(NOTIFICATION_SOUND_URL).toBe('/Audio/notification.wav');
    expect(warn).not.toHaveBeenCalled();
  });

  it('only warns when autoplay is blocked', async () => {
    stubAudio(() => Promise.reject(new DOMException('play() failed', 'NotAllowedError')));
    await expect(playNotificationSound()).resolves.toBe(false);
    expect(warn).toHaveBeenCalledOnce();
  });

  it('only warns when play throws synchronously or Audio is missing', async () => {
    stubAudio(() => {
      throw new Error('Not implemented: HTMLMediaElement.prototype.play');
    });
    await expect(playNotificationSound()).resolves.toBe(false);
    vi.stubGlobal('Audio', undefined);
    await expect(playNotificationSound()).resolves.toBe(false);
    expect(warn).toHaveBeenCalledTimes(2);
  });

  it('copes with engines whose play() returns nothing', async () => {
    stubAudio(() => undefined);
    await expect(playNotificationSound()).resolves.toBe(true);
  });
});

describe('public/Audio/notification.wav', () => {
  const file = readFileSync(resolve(import.meta.dirname, '../../public/Audio/notification.wav'));

  it('is a valid 16-bit PCM mono 22050 Hz RIFF/WAVE file', () => {
    expect(file.toString('ascii', 0, 4)).toBe('RIFF');
    expect(file.readUInt32LE(4)).toBe(file.length - 8);
    expect(file.toString('ascii', 8, 12)).toBe('WAVE');
    expect(file.toString('ascii', 12, 16)).toBe('fmt ');
    expect(file.readUInt32LE(16)).toBe(16);
    expect(file.readUInt16LE(20)).toBe(1); // PCM
    expect(file.readUInt16LE(22)).toBe(1); // mono
    expect(file.readUInt32LE(24)).toBe(22050);
    expect(file.readUInt32LE(28)).toBe(22050 * 2); // byte rate
    expect(file.readUInt16LE(32)).toBe(2); // block align
    expect(file.readUInt16LE(34)).toBe(16);
    expect(file.toString('ascii', 36, 40)).toBe('data');
    expect(file.readUInt32LE(40)).toBe(file.length - 44);
  });

  it('is a short, audible chime that fades to silence', () => {
    const samples = (file.length - 44) / 2;
    const seconds = samples / 22050;
    expect(seconds).toBeGreaterThan(0.3);
    expect(seconds).toBeLessThan(0.6);
    let peak = 0;
    for (let i = 0; i < samples; i++) peak = Math.max(peak, Math.abs(file.readInt16LE(44 + i * 2)));
    expect(peak).toBeGreaterThan(8000); // audible
    expect(peak).toBeLessThan(32767); // not clipped
    expect(Math.abs(file.readInt16LE(file.length - 2))).toBeLessThan(50); // no click at the end
  });
});
