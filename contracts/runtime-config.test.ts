import { describe, expect, it } from 'vitest';
import { brokerWebSocketUrl, runtimeConfigSchema } from './runtime-config';

describe('runtime config contract', () => {
  it('reads the server answer, with or without an external broker', () => {
    const base = { callServiceEnabled: 'true', mqttTopicPrefix: 'mp', mqttKeepaliveSeconds: 120 };
    expect(runtimeConfigSchema.parse({ ...base, mqttUrl: null }).mqttUrl).toBeNull();
    expect(runtimeConfigSchema.parse({ ...base, mqttUrl: 'wss://mq.example/mqtt' }).mqttUrl).toBe(
      'wss://mq.example/mqtt',
    );
    expect(runtimeConfigSchema.safeParse(base).success).toBe(false);
  });

  it('sends the browser to the external broker, else to same-origin /mqtt with the page scheme', () => {
    expect(
      brokerWebSocketUrl({ mqttUrl: 'wss://mq.example/mqtt' }, { protocol: 'http:', host: 'a:3000' }),
    ).toBe('wss://mq.example/mqtt');
    expect(brokerWebSocketUrl({ mqttUrl: null }, { protocol: 'http:', host: '127.0.0.1:3000' })).toBe(
      'ws://127.0.0.1:3000/mqtt',
    );
    expect(brokerWebSocketUrl({ mqttUrl: null }, { protocol: 'https:', host: 'office.example' })).toBe(
      'wss://office.example/mqtt',
    );
  });
});
