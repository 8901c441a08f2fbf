// The one bar chart of the app, for the dashboards now and the reports to come. The drawing is recharts
// (src/ui/charts/recharts-bars.tsx), loaded on first use as its own chunk; this wrapper is what pages
// import, so none of them pulls recharts in statically.
import { Box } from '@chakra-ui/react';
import { lazy, Suspense } from 'react';

export interface BarDatum {
  label: string;
  value: number;
  /** A colour token for this bar (e.g. `green.solid` for a status); the brand colour otherwise. */
  color?: string;
}

const RechartsBars = lazy(() => import('./charts/recharts-bars'));

/** The chart's text alternative: every value, in words. */
export function barChartSummary(label: string, data: readonly BarDatum[]): string {
  return `${label}: ${data.map((d) => `${d.label} ${d.value}`).join(', ')}`;
}

/**
 * An accessible bar chart: the box is an image whose label carries every value as text (screen readers,
 * anyone who prefers numbers); the bars, each with its value above it, draw once recharts has loaded.
 */
export function BarChart({
  data,
  label,
  height = 160,
}: {
  data: BarDatum[];
  label: string;
  height?: number;
}) {
  return (
    <Box role="img" aria-label={barChartSummary(label, data)} h={`${height}px`} w="full" minW="0">
      {/* The box keeps its height while the chunk loads: nothing below it jumps. */}
      <Suspense fallback={null}>
        <RechartsBars data={data} height={height} />
      </Suspense>
    </Box>
  );
}
