import { describe, expect, it } from 'vitest';
import { isPublicPath } from './routes';

describe('isPublicPath', () => {
  it('opens the public pages and one shop chat per code, nothing below or beside them', () => {
    for (const path of ['/signin', '/unsubscribe', '/chat/SEL-0001'])
      expect(isPublicPath(path), path).toBe(true);
    for (const path of ['/', '/chat/', '/chat', '/chat/SEL-0001/x', '/chatting/x', '/sellers/help-chats'])
      expect(isPublicPath(path), path).toBe(false);
  });
});
