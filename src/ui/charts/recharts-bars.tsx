// The bars of BarChart (src/ui/bar-chart.tsx), drawn with recharts. Loaded lazily by that wrapper: recharts
// (with its d3 and redux pieces) is its own chunk, fetched by the first page that shows a chart and never
// by the sign-in page or the shell.
import {
  Bar,
  Cell,
  LabelList,
  BarChart as RechartsBarChart,
  ResponsiveContainer,
  XAxis,
  YAxis,
} from 'recharts';
import type { BarDatum } from '../bar-chart';

/** A Chakra colour token (`green.solid`) as the CSS variable the theme defines for it. */
export function tokenColor(token: string): string {
  return `var(--chakra-colors-${token.replaceAll('.', '-')})`;
}

export interface RechartsBarsProps {
  data: readonly BarDatum[];
  height: number;
  /** A fixed width (tests, print); the container's width otherwise. */
  width?: number;
}

export default function RechartsBars({ data, height, width }: RechartsBarsProps) {
  // The value axis runs from 0 to the largest value exactly: the tallest bar reaches the top of the plot,
  // every bar stands on the same zero baseline, and heights are proportional to the values.
  const max = Math.max(1, ...data.map((d) => d.value));
  const chart = (
    <RechartsBarChart
      data={[...data]}
      width={width}
      height={height}
      // Room above the tallest bar for its value.
      margin={{ top: 20, right: 4, bottom: 0, left: 4 }}
      // The wrapper is the accessible element (role="img" with the values as text).
      accessibilityLayer={false}
    >
      {/* Labels that would run into each other are skipped (every value is in the text alternative). */}
      <XAxis
        dataKey="label"
        interval="preserveStartEnd"
        minTickGap={6}
        tickLine={false}
        axisLine={{ stroke: tokenColor('border') }}
        tick={{ fontSize: 11, fill: tokenColor('fg.muted') }}
      />
      <YAxis hide domain={[0, max]} allowDataOverflow />
      <Bar dataKey="value" maxBarSize={40} radius={[3, 3, 0, 0]} isAnimationActive={false}>
        {data.map((d) => (
          <Cell key={d.label} style={{ fill: tokenColor(d.color ?? 'brand.solid') }} />
        ))}
        <LabelList dataKey="value" position="top" fontSize={12} style={{ fill: tokenColor('fg.muted') }} />
      </Bar>
    </RechartsBarChart>
  );
  if (width !== undefined) return chart;
  return (
    <ResponsiveContainer width="100%" height={height}>
      {chart}
    </ResponsiveContainer>
  );
}
