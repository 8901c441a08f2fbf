// Every bar labelled (issue 26: the dashboard labelled 2 of 4 campaigns and 3 of 5 answers, the column
// axis skipping labels that would collide) and a chart for two rates per campaign.
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { groupedChartSummary } from '../bar-chart';
import RechartsBars, { RechartsGroupedBars } from './recharts-bars';

afterEach(cleanup);

const campaigns = [
  'October newsletter for retailers',
  'Festive sale — wholesalers',
  'Spring offer',
  'Welcome series 2026',
];
const tickTexts = (container: HTMLElement) =>
  [...container.querySelectorAll('.recharts-cartesian-axis-tick-value')].map((tick) => tick.textContent);

describe('bars in rows', () => {
  it('labels every bar however long the labels, cutting only the longest', () => {
    const answers = [
      'Interested in the offer',
      'Not now',
      'Call me back next month',
      'Unsubscribe me',
      'Maybe',
    ];
    const data = answers.map((label, index) => ({ label, value: 10 + index }));
    const { container } = render(<RechartsBars data={data} height={5 * 28 + 8} width={360} rows />);
    expect(tickTexts(container)).toEqual([
      'Interested in the o…',
      'Not now',
      'Call me back next m…',
      'Unsubscribe me',
      'Maybe',
    ]);
    // Each value beside its bar.
    const values = [...container.querySelectorAll('.recharts-label-list text')].map(
      (text) => text.textContent,
    );
    expect(values).toEqual(['10', '11', '12', '13', '14']);
  });

  it('draws two rates per campaign, each labelled, with every value in words', () => {
    const series = [
      {
        name: 'Response rate',
        color: 'brand.solid',
        values: [7, 12.5, 3, 0.4],
        format: (v: number) => `${v} %`,
      },
      {
        name: 'Unsubscribe rate',
        color: 'orange.solid',
        values: [1, 0.5, 2.1, 0.2],
        format: (v: number) => `${v} %`,
      },
    ];
    const { container } = render(
      <RechartsGroupedBars categories={campaigns} series={series} height={4 * 44 + 8} width={420} />,
    );
    expect(tickTexts(container)).toHaveLength(4);
    expect(container.querySelectorAll('.recharts-bar-rectangle')).toHaveLength(8);
    const values = [...container.querySelectorAll('.recharts-label-list text')].map(
      (text) => text.textContent,
    );
    expect(values).toEqual(expect.arrayContaining(['7 %', '12.5 %', '1 %', '2.1 %']));
    expect(groupedChartSummary('Rates', campaigns.slice(0, 1), series)).toBe(
      'Rates: October newsletter for retailers: Response rate 7 %, Unsubscribe rate 1 %',
    );
  });
});
