// public/widget.js, the one-tag embed for storefronts, run as the browser runs it (a classic script).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

const source = readFileSync(path.resolve(__dirname, '../../../public/widget.js'), 'utf8');

/** Adds the tag as a storefront would, then runs the script (jsdom does not fetch it). */
function embed(attributes: Record<string, string>) {
  const tag = document.createElement('script');
  for (const [name, value] of Object.entries(attributes)) tag.setAttribute(name, value);
  document.head.appendChild(tag);
  new Function(source)();
}

const chatButton = () => document.querySelector<HTMLButtonElement>('#mp-help-chat button');

afterEach(() => {
  document.head.innerHTML = '';
  document.body.innerHTML = '';
  vi.restoreAllMocks();
});

describe('the storefront embed script', () => {
  it('is small and has no dependencies', () => {
    expect(source.length).toBeLessThan(4000);
    expect(source).not.toMatch(/\bimport\b|\brequire\(/);
  });

  it('adds a chat button that opens the seller chat of its own origin in an iframe, and closes it', () => {
    embed({ src: 'https://backoffice.example:8443/widget.js?v=1', 'data-seller': 'SHOP 1/x', async: '' });
    const button = chatButton();
    expect(button).toHaveAccessibleName('Chat with us');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(document.querySelector('iframe')).toBeNull(); // nothing loads until asked

    button?.click();
    const frame = document.querySelector('iframe');
    expect(frame?.src).toBe('https://backoffice.example:8443/chat/SHOP%201%2Fx');
    expect(frame).toHaveAttribute('title', 'Help chat');
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(button).toHaveAccessibleName('Close the chat');

    button?.click();
    expect(frame?.style.display).toBe('none');
    button?.click();
    expect(document.querySelectorAll('iframe')).toHaveLength(1); // reopened, not reloaded
    expect(frame?.style.display).toBe('block');
  });

  it('adds one button however often the tag is included', () => {
    embed({ src: 'https://b.example/widget.js', 'data-seller': 'S1' });
    embed({ src: 'https://b.example/widget.js', 'data-seller': 'S1' });
    expect(document.querySelectorAll('#mp-help-chat')).toHaveLength(1);
  });

  it('without data-seller adds nothing and says what is missing', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    embed({ src: 'https://b.example/widget.js' });
    expect(chatButton()).toBeNull();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('data-seller'));
  });
});
