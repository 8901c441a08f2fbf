// Settings → Localization in jsdom against a fake API: the live example follows the chosen locale and
// the default currency, the currencies offered are edited as tags, the default currency is chosen among
// them, and a seller's section shows the time zone only.
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SectionState } from '../../../../contracts/settings';
import LocalizationSection, { localeExample } from './LocalizationSection';
import { fakeApiForEachTest, renderSection, sectionStateOf } from './section-testing';

const localization = (scope: 'marketplace' | 'seller'): SectionState =>
  sectionStateOf('localization', scope, { sellerFields: (field) => field === 'timeZone' });

let state: SectionState;
fakeApiForEachTest((request) =>
  request.method === 'GET' && request.url === '/api/v1/settings/localization'
    ? { status: 200, data: state }
    : { status: 404, data: { message: 'not here' } },
);

describe('LocalizationSection', () => {
  it('shows a live example of the chosen locale and a price in the default currency', async () => {
    state = localization('marketplace');
    renderSection(<LocalizationSection />);
    expect(await screen.findByTestId('locale-example')).toHaveTextContent('27 Nov 2026 · 1,234.50');
    expect(screen.getByTestId('price-example')).toHaveTextContent('₹1,234.50');

    fireEvent.change(screen.getByLabelText('Date and number format'), { target: { value: 'de-DE' } });
    expect(screen.getByTestId('locale-example')).toHaveTextContent('27. Nov. 2026 · 1.234,50');

    fireEvent.change(screen.getByLabelText('Default currency'), { target: { value: 'JPY' } });
    expect(screen.getByTestId('price-example')).toHaveTextContent('¥1.235');
    expect(screen.getByRole('button', { name: 'Save changes' })).toBeEnabled();
  });

  it('edits the currencies offered as tags, and offers only those as the default', async () => {
    state = localization('marketplace');
    renderSection(<LocalizationSection />);
    await screen.findByTestId('locale-example');
    fireEvent.change(screen.getByLabelText('Add a currency'), { target: { value: 'KWD' } });
    expect(screen.getByRole('button', { name: 'Remove KWD' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Remove USD' }));
    expect(screen.queryByRole('button', { name: 'Remove USD' })).toBeNull();
    const defaults = screen.getByLabelText('Default currency') as HTMLSelectElement;
    const offered = [...defaults.options].map((option) => option.value);
    expect(offered).toContain('KWD');
    expect(offered).not.toContain('USD');
  });

  it('shows a seller only the time zone, as inherited', async () => {
    state = localization('seller');
    renderSection(<LocalizationSection />);
    expect(await screen.findByLabelText('Time zone')).toHaveValue('Asia/Kolkata');
    expect(screen.getByText('Inherited')).toBeInTheDocument();
    expect(screen.queryByLabelText('Default currency')).toBeNull();
    expect(screen.queryByTestId('locale-example')).toBeNull();
  });
});

describe('localeExample', () => {
  it('writes the example date and number in a locale', () => {
    expect(localeExample('en-GB')).toBe('27 Nov 2026 · 1,234.50');
    expect(localeExample('en-IN')).toBe('27 Nov 2026 · 1,234.50');
    expect(localeExample('not a locale')).toBe('—');
  });
});
