import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { BarChart, type BarDatum } from './bar-chart';
import RechartsBars from './charts/recharts-bars';
import { system } from './theme';

afterEach(cleanup);

const DATA: BarDatum[] = [
  { label: 'Draft', value: 4 },
  { label: 'Live', value: 5, color: 'green.solid' },
  { label: 'Pending', value: 1 },
  { label: 'Rejected', value: 0 },
];

/** Each drawn bar's box in the SVG, by its position from left to right. */
function bars(container: HTMLElement) {
  return [...container.querySelectorAll('.recharts-bar-rectangle path')].map((bar) => ({
    y: Number(bar.getAttribute('y')),
    height: Number(bar.getAttribute('height')),
  }));
}

describe('the bar chart', () => {
  it('draws heights proportional to the values, the tallest to the top, all on one zero baseline', () => {
    const HEIGHT = 200;
    const { container } = render(<RechartsBars data={DATA} height={HEIGHT} width={400} />);
    const drawn = bars(container);
    // The zero bar has no height to draw.
    expect(drawn).toHaveLength(3);
    const [draft, live, pending] = drawn as [(typeof drawn)[0], (typeof drawn)[0], (typeof drawn)[0]];

    // 5 is taller than 4 (the bug: the tallest was squashed so 5 looked like 4), in proportion.
    expect(live.height).toBeGreaterThan(draft.height);
    expect(draft.height / live.height).toBeCloseTo(4 / 5, 2);
    expect(pending.height / live.height).toBeCloseTo(1 / 5, 2);

    // The tallest reaches the top of the plot (below the 20 px kept for its value label).
    expect(live.y).toBeCloseTo(20, 0);
    // One baseline: every bar ends where the value axis is zero.
    const baselines = drawn.map((bar) => bar.y + bar.height);
    for (const baseline of baselines) expect(baseline).toBeCloseTo(baselines[0] as number, 3);
    expect(baselines[0]).toBeLessThanOrEqual(HEIGHT);

    // Each value is written above its bar.
    const labels = [...container.querySelectorAll('.recharts-label-list text')].map((t) => t.textContent);
    expect(labels).toEqual(expect.arrayContaining(['4', '5', '1']));
  });

  it('keeps the values as text for those who do not see the bars', async () => {
    render(
      <ChakraProvider value={system}>
        <BarChart label="Products by status" data={DATA} />
      </ChakraProvider>,
    );
    expect(
      screen.getByRole('img', { name: 'Products by status: Draft 4, Live 5, Pending 1, Rejected 0' }),
    ).toBeVisible();
  });

  it('colours a bar by its token through the theme variables', () => {
    const { container } = render(<RechartsBars data={DATA} height={200} width={400} />);
    const live = container.querySelectorAll('.recharts-bar-rectangle path')[1] as SVGElement;
    expect(live.getAttribute('style') ?? '').toContain('var(--chakra-colors-green-solid)');
  });

  it('is the only module that imports recharts, and only lazily', () => {
    const wrapper = readFileSync(path.join(__dirname, 'bar-chart.tsx'), 'utf8');
    expect(wrapper).not.toMatch(/from ['"]recharts['"]/);
    expect(wrapper).toContain("import('./charts/recharts-bars')");
  });
});
