import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { system } from '../theme';
import { placeCard, TourButton } from './Tour';
import { PAGE_TOURS, type TourStep } from './tour-texts';

const STEPS: TourStep[] = [
  { title: 'First', body: 'The first step body.' },
  { title: 'Second', body: 'The second step body.', target: '[data-tour="export"]' },
  { title: 'Third', body: 'The third step body.' },
];

function renderButton(props: { path: string; steps: readonly TourStep[] }, extra?: React.ReactNode) {
  return render(
    <ChakraProvider value={system}>
      {extra}
      <TourButton {...props} />
    </ChakraProvider>,
  );
}

const dialog = () => screen.findByRole('dialog');
const expectStep = async (title: string, n: number, of: number) => {
  expect(await screen.findByRole('heading', { name: title })).toBeInTheDocument();
  expect(screen.getByText(`Step ${n} of ${of}`)).toBeInTheDocument();
};
const expectClosed = () => waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('<TourButton />', () => {
  it('is hidden when the page has no guide (or it is not shown there)', () => {
    renderButton({ path: '/marketing/manage-invoices', steps: [] });
    expect(screen.queryByRole('button', { name: 'Page guide' })).not.toBeInTheDocument();
  });

  it('steps through Next, Back and Done', async () => {
    const user = userEvent.setup();
    renderButton({ path: '/anything', steps: STEPS });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Page guide' }));
    await dialog();
    await expectStep('First', 1, 3);
    expect(screen.getByText('The first step body.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Back' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await expectStep('Second', 2, 3);
    expect(screen.getByRole('button', { name: 'Back' })).toBeEnabled();

    await user.click(screen.getByRole('button', { name: 'Back' }));
    await expectStep('First', 1, 3);

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await expectStep('Third', 3, 3);
    expect(screen.queryByRole('button', { name: 'Next' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Done' }));
    await expectClosed();

    // Opening again starts from the first step.
    await user.click(screen.getByRole('button', { name: 'Page guide' }));
    await expectStep('First', 1, 3);
  });

  it('closes on Escape and pages with the arrow keys', async () => {
    const user = userEvent.setup();
    renderButton({ path: '/anything', steps: STEPS });
    await user.click(screen.getByRole('button', { name: 'Page guide' }));
    await expectStep('First', 1, 3);
    await user.keyboard('{ArrowRight}');
    await expectStep('Second', 2, 3);
    await user.keyboard('{ArrowLeft}');
    await expectStep('First', 1, 3);
    await user.keyboard('{Escape}');
    await expectClosed();
  });

  it('walks a page guide from its first step', async () => {
    const user = userEvent.setup();
    const steps = PAGE_TOURS['/staff/manage-staff'] as readonly TourStep[];
    renderButton({ path: '/staff/manage-staff', steps });
    await user.click(screen.getByRole('button', { name: 'Page guide' }));
    await expectStep(steps[0]!.title, 1, steps.length);
  });

  it('shows a step centred when its target is absent and next to it when present', async () => {
    const user = userEvent.setup();
    const target = (
      <button type="button" data-tour="export">
        Export
      </button>
    );
    renderButton({ path: '/anything', steps: STEPS }, target);
    const exportButton = screen.getByRole('button', { name: 'Export' });
    vi.spyOn(exportButton, 'getBoundingClientRect').mockReturnValue(
      DOMRect.fromRect({ x: 100, y: 40, width: 80, height: 32 }),
    );

    await user.click(screen.getByRole('button', { name: 'Page guide' }));
    const first = await dialog();
    expect(first).not.toHaveStyle({ position: 'fixed' });
    expect(document.querySelector('[data-tour-spotlight]')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await expectStep('Second', 2, 3);
    // Below the target: its bottom (40 + 32) plus the 12 px gap.
    await waitFor(() => expect(screen.getByRole('dialog')).toHaveStyle({ position: 'fixed', top: '84px' }));
    expect(document.querySelector('[data-tour-spotlight]')).toHaveStyle({ top: '34px', left: '94px' });
  });

  it('keeps the card on screen: below, above, or over a target too tall for either', () => {
    const viewport = [1280, 800] as const;
    expect(placeCard({ top: 40, left: 100, width: 80, height: 32 }, ...viewport)).toMatchObject({ top: 84 });
    expect(placeCard({ top: 700, left: 100, width: 80, height: 32 }, ...viewport)).toMatchObject({
      bottom: 112,
    });
    // A long table that fills the screen (it may start above it, scrolled to its middle).
    expect(placeCard({ top: -200, left: 0, width: 1000, height: 1400 }, ...viewport)).toMatchObject({
      bottom: 16,
    });
    expect(placeCard({ top: 150, left: 0, width: 1000, height: 600 }, ...viewport)).toMatchObject({
      bottom: 16,
    });
    // A phone: the card is as wide as the screen allows.
    expect(placeCard({ top: 40, left: 10, width: 50, height: 30 }, 390, 844)).toMatchObject({
      left: 16,
      width: 358,
    });
  });
});
