// Settings → Website in jsdom against a fake API: the launcher preview follows the draft and draws the
// text colour the chat page will use, warning when the chosen one would not read on the colour.
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SectionState } from '../../../../contracts/settings';
import { fakeApiForEachTest, renderSection, sectionStateOf } from './section-testing';
import WebsiteSection from './WebsiteSection';

let state: SectionState;
fakeApiForEachTest((request) =>
  request.method === 'GET' && request.url === '/api/v1/settings/website'
    ? { status: 200, data: state }
    : { status: 404, data: { message: 'not here' } },
);

const LOW_CONTRAST = /^Low contrast/;

describe('WebsiteSection', () => {
  it('previews the launcher with readable text: black or white instead of a colour that does not read', async () => {
    state = sectionStateOf('website', 'seller', {
      set: { widgetColour: '#ffff00', widgetTextColour: '#ffffff', widgetGreeting: 'Ask us' },
    });
    renderSection(<WebsiteSection />);
    const launcher = await screen.findByText('Ask us');
    expect(launcher).toHaveStyle({ backgroundColor: 'rgb(255, 255, 0)', color: 'rgb(0, 0, 0)' });
    expect(screen.getByText(LOW_CONTRAST)).toHaveTextContent(/uses black text instead\.$/);

    fireEvent.change(screen.getByLabelText(/^Widget text colour/), { target: { value: '#333333' } });
    expect(launcher).toHaveStyle({ color: 'rgb(51, 51, 51)' });
    expect(screen.queryByText(LOW_CONTRAST)).toBeNull();

    fireEvent.change(screen.getByLabelText(/^Widget colour/), { target: { value: '#1a1a1a' } });
    expect(launcher).toHaveStyle({ backgroundColor: 'rgb(26, 26, 26)', color: 'rgb(255, 255, 255)' });
    expect(screen.getByText(LOW_CONTRAST)).toHaveTextContent(/uses white text instead\.$/);
  });
});
