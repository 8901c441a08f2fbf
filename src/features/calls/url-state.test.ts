import { describe, expect, it } from 'vitest';
import { searchCallHistoryQuerySchema } from '../../../contracts/calls';
import { callListRequest } from './api';
import { callViewToSearch, defaultCallView, endOfDayIso, parseCallView, startOfDayIso } from './url-state';

describe('the call history URL', () => {
  it('round-trips every filter, the page and the open call', () => {
    const view = {
      number: '0003',
      status: 'Call Ignored' as const,
      direction: 'INCOMING' as const,
      from: '2026-11-01',
      to: '2026-11-02',
      page: 3,
      callId: 'call-9',
    };
    expect(parseCallView(callViewToSearch(view))).toEqual(view);
  });

  it('writes nothing for the default view', () => {
    expect(callViewToSearch(defaultCallView)).toBe('');
  });

  it('falls back to the default for anything malformed', () => {
    expect(
      parseCallView('?number=abc&status=Lost&direction=SIDEWAYS&from=yesterday&to=2026-13-45&page=-2'),
    ).toEqual(defaultCallView);
  });
});

describe('the list request', () => {
  it('lists when nothing is filtered', () => {
    expect(callListRequest({ ...defaultCallView, page: 2 })).toEqual({
      url: '/api/v1/callHistory/method/listCallHistory',
      params: { skip: 20, limit: 20 },
    });
  });

  it('searches with only the filters set, in a shape the server accepts', () => {
    const request = callListRequest({
      ...defaultCallView,
      number: '+91 9000',
      status: 'Not Picked',
      from: '2026-11-01',
      to: '2026-11-01',
    });
    expect(request.url).toBe('/api/v1/callHistory/method/searchCallHistory');
    expect(request.params).toEqual({
      number: '+91 9000',
      status: 'Not Picked',
      from: startOfDayIso('2026-11-01'),
      to: endOfDayIso('2026-11-01'),
      skip: 0,
      limit: 20,
    });
    expect(searchCallHistoryQuerySchema.safeParse(request.params).success).toBe(true);
  });

  it('covers the whole local day', () => {
    expect(
      new Date(endOfDayIso('2026-11-01')).getTime() - new Date(startOfDayIso('2026-11-01')).getTime(),
    ).toBe(24 * 3600 * 1000 - 1);
  });
});
