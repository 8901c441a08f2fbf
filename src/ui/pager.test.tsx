import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Pager } from './pager';
import { system } from './theme';

afterEach(cleanup);

const show = (props: Partial<Parameters<typeof Pager>[0]> = {}) => {
  const onSkipChange = vi.fn();
  render(
    <ChakraProvider value={system}>
      <Pager skip={0} limit={20} count={34} onSkipChange={onSkipChange} label="Things pages" {...props} />
    </ChakraProvider>,
  );
  return onSkipChange;
};
const nav = () => screen.getByRole('navigation', { name: 'Things pages' });

describe('Pager', () => {
  it('shows the range of an exact count and stops at its end', () => {
    const onSkipChange = show({ skip: 20 });
    expect(nav()).toHaveTextContent('21–34 of 34');
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    expect(onSkipChange).toHaveBeenCalledWith(0);
  });

  it('is hidden when everything fits on one page', () => {
    show({ count: 7 });
    expect(screen.queryByRole('navigation')).toBeNull();
  });

  it('with a capped count says "of 1,000+" and pages on while pages are full', () => {
    const onSkipChange = show({ skip: 1000, count: 1000, capped: true, pageLength: 20 });
    expect(nav()).toHaveTextContent('1,001–1,020 of 1,000+');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(onSkipChange).toHaveBeenCalledWith(1020);
    cleanup();
    show({ skip: 1020, count: 1000, capped: true, pageLength: 3 });
    expect(nav()).toHaveTextContent('1,021–1,023 of 1,000+');
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
  });
});
