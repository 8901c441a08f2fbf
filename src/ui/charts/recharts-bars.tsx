// The bars of BarChart and GroupedBarChart (src/ui/bar-chart.tsx), drawn with recharts. Loaded lazily by
// that wrapper: recharts (with its d3 and redux pieces) is its own chunk, fetched by the first page that
// shows a chart and never by the sign-in page or the shell.
import {
  Bar,
  Cell,
  LabelList,
  BarChart as RechartsBarChart,
  ResponsiveContainer,
  XAxis,
  YAxis,
} from 'recharts';
import { formatNumber } from '../../../contracts/domain/format';
import type { BarDatum, BarSeries } from './bar-data';

/** A Chakra colour token (`green.solid`) as the CSS variable the theme defines for it. */
export function tokenColor(token: string): string {
  return `var(--chakra-colors-${token.replaceAll('.', '-')})`;
}

export interface RechartsBarsProps {
  data: readonly BarDatum[];
  height: number;
  /** A fixed width (tests, print); the container's width otherwise. */
  width?: number;
  /**
   * One row per bar, its label on the left: every bar is labelled however long the labels (campaign
   * names, answers). Columns skip labels that would run into each other.
   */
  rows?: boolean;
}

/** Room for a row's label; a longer one is cut (the full text is in the chart's text alternative). */
const ROW_LABEL_WIDTH = 132;
const ROW_LABEL_CHARS = 20;
const cut = (label: string) =>
  label.length > ROW_LABEL_CHARS ? `${label.slice(0, ROW_LABEL_CHARS - 1).trimEnd()}…` : label;
const tick = { fontSize: 11, fill: tokenColor('fg.muted') };

/** The category axis: under the columns, or left of the rows with every label drawn. */
function categoryAxis(rows: boolean | undefined) {
  return rows ? (
    <YAxis
      type="category"
      dataKey="label"
      interval={0}
      width={ROW_LABEL_WIDTH}
      tickFormatter={cut}
      tickLine={false}
      axisLine={{ stroke: tokenColor('border') }}
      tick={tick}
    />
  ) : (
    // Labels that would run into each other are skipped (every value is in the text alternative).
    <XAxis
      dataKey="label"
      interval="preserveStartEnd"
      minTickGap={6}
      tickLine={false}
      axisLine={{ stroke: tokenColor('border') }}
      tick={tick}
    />
  );
}

/** The value axis runs from 0 to the largest value exactly: bars in proportion, on one zero baseline. */
function valueAxis(rows: boolean | undefined, max: number) {
  return rows ? (
    <XAxis type="number" hide domain={[0, max]} allowDataOverflow />
  ) : (
    <YAxis hide domain={[0, max]} allowDataOverflow />
  );
}

function sized(chart: React.ReactElement, height: number, width: number | undefined) {
  if (width !== undefined) return chart;
  return (
    <ResponsiveContainer width="100%" height={height}>
      {chart}
    </ResponsiveContainer>
  );
}

export default function RechartsBars({ data, height, width, rows }: RechartsBarsProps) {
  const max = Math.max(1, ...data.map((d) => d.value));
  const chart = (
    <RechartsBarChart
      data={[...data]}
      width={width}
      height={height}
      layout={rows ? 'vertical' : 'horizontal'}
      // Room beside (rows) or above (columns) the longest bar for its value.
      margin={rows ? { top: 4, right: 40, bottom: 4, left: 4 } : { top: 20, right: 4, bottom: 0, left: 4 }}
      // The wrapper is the accessible element (role="img" with the values as text).
      accessibilityLayer={false}
    >
      {categoryAxis(rows)}
      {valueAxis(rows, max)}
      <Bar
        dataKey="value"
        maxBarSize={rows ? 22 : 40}
        radius={rows ? [0, 3, 3, 0] : [3, 3, 0, 0]}
        isAnimationActive={false}
      >
        {data.map((d) => (
          <Cell key={d.label} style={{ fill: tokenColor(d.color ?? 'brand.solid') }} />
        ))}
        <LabelList
          dataKey="value"
          position={rows ? 'right' : 'top'}
          formatter={(value: unknown) => formatNumber(Number(value))}
          fontSize={12}
          style={{ fill: tokenColor('fg.muted') }}
        />
      </Bar>
    </RechartsBarChart>
  );
  return sized(chart, height, width);
}

export interface RechartsGroupedBarsProps {
  categories: readonly string[];
  series: readonly BarSeries[];
  height: number;
  width?: number;
}

/** Several values per category (a campaign's response and unsubscribe rates), one row per category. */
export function RechartsGroupedBars({ categories, series, height, width }: RechartsGroupedBarsProps) {
  const data = categories.map((label, index) => ({
    label,
    ...Object.fromEntries(series.map((one, at) => [`s${at}`, one.values[index] ?? 0])),
  }));
  const max = Math.max(Number.MIN_VALUE, ...series.flatMap((one) => one.values));
  const chart = (
    <RechartsBarChart
      data={data}
      width={width}
      height={height}
      layout="vertical"
      margin={{ top: 4, right: 48, bottom: 4, left: 4 }}
      barGap={2}
      accessibilityLayer={false}
    >
      {categoryAxis(true)}
      {valueAxis(true, max > 0 ? max : 1)}
      {series.map((one, at) => (
        <Bar
          key={one.name}
          dataKey={`s${at}`}
          name={one.name}
          maxBarSize={14}
          radius={[0, 3, 3, 0]}
          isAnimationActive={false}
          fill={tokenColor(one.color)}
        >
          <LabelList
            dataKey={`s${at}`}
            position="right"
            fontSize={11}
            formatter={(value: unknown) =>
              one.format ? one.format(Number(value)) : formatNumber(Number(value))
            }
            style={{ fill: tokenColor('fg.muted') }}
          />
        </Bar>
      ))}
    </RechartsBarChart>
  );
  return sized(chart, height, width);
}
