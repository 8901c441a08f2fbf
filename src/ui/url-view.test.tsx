import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { useUrlView } from './url-view';

interface View {
  q: string;
  page: number;
}
const parse = (search: string): View => {
  const params = new URLSearchParams(search);
  return { q: params.get('q') ?? '', page: Number(params.get('page') ?? 1) };
};
const href = (view: View) => `/things?${new URLSearchParams({ q: view.q, page: String(view.page) })}`;

describe('useUrlView', () => {
  it('reads the view from the URL and writes a patch of it back', () => {
    const location = memoryLocation({ path: '/things?q=red&page=3', record: true });
    const wrapper = ({ children }: { children: ReactNode }) => (
      <Router hook={location.hook} searchHook={location.searchHook}>
        {children}
      </Router>
    );
    const { result } = renderHook(() => useUrlView(parse, href), { wrapper });
    expect(result.current.view).toEqual({ q: 'red', page: 3 });

    act(() => result.current.setView({ page: 4 }));
    expect(result.current.view).toEqual({ q: 'red', page: 4 });
    act(() => result.current.setView({ q: 'blue', page: 1 }, { replace: true }));
    expect(result.current.view).toEqual({ q: 'blue', page: 1 });
    // The patch replaced the entry it was asked to replace, and pushed the other.
    expect(location.history).toEqual(['/things?q=red&page=3', '/things?q=blue&page=1']);
  });
});
