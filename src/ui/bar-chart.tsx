// The one bar chart of the app (one value per bar, or a few per category), for the dashboards now and the
// reports to come. The drawing is recharts
// (src/ui/charts/recharts-bars.tsx), loaded on first use as its own chunk; this wrapper is what pages
// import, so none of them pulls recharts in statically.
import { Box, HStack, Text } from '@chakra-ui/react';
import { lazy, Suspense } from 'react';
import { formatNumber } from '../../contracts/domain/format';
import type { BarDatum, BarSeries } from './charts/bar-data';

export type { BarDatum, BarSeries } from './charts/bar-data';

const RechartsBars = lazy(() => import('./charts/recharts-bars'));
const RechartsGroupedBars = lazy(() =>
  import('./charts/recharts-bars').then((module) => ({ default: module.RechartsGroupedBars })),
);
/** A row's height in the rows layout: the chart grows with its categories rather than squeezing them. */
const ROW_HEIGHT = 28;

/** The chart's text alternative: every value, in words. */
export function barChartSummary(label: string, data: readonly BarDatum[]): string {
  return `${label}: ${data.map((d) => `${d.label} ${formatNumber(d.value)}`).join(', ')}`;
}

/**
 * An accessible bar chart: the box is an image whose label carries every value as text (screen readers,
 * anyone who prefers numbers); the bars, each with its value above it, draw once recharts has loaded.
 */
export function BarChart({
  data,
  label,
  height,
  rows,
}: {
  data: BarDatum[];
  label: string;
  height?: number;
  /** One row per bar with its label beside it: every bar labelled, however long the labels. */
  rows?: boolean;
}) {
  const drawn = height ?? (rows ? data.length * ROW_HEIGHT + 8 : 160);
  return (
    <Box role="img" aria-label={barChartSummary(label, data)} h={`${drawn}px`} w="full" minW="0">
      {/* The box keeps its height while the chunk loads: nothing below it jumps. */}
      <Suspense fallback={null}>
        <RechartsBars data={data} height={drawn} rows={rows} />
      </Suspense>
    </Box>
  );
}

/** The grouped chart's text alternative: every category with each series' value. */
export function groupedChartSummary(
  label: string,
  categories: readonly string[],
  series: readonly BarSeries[],
) {
  const value = (one: BarSeries, index: number) => {
    const raw = one.values[index] ?? 0;
    return one.format ? one.format(raw) : formatNumber(raw);
  };
  return `${label}: ${categories
    .map(
      (category, index) =>
        `${category}: ${series.map((one) => `${one.name} ${value(one, index)}`).join(', ')}`,
    )
    .join('; ')}`;
}

/**
 * A few values per category (a campaign's response and unsubscribe rates), one row per category with
 * its label, a legend naming the colours, and every value in the text alternative.
 */
export function GroupedBarChart({
  categories,
  series,
  label,
}: {
  categories: string[];
  series: BarSeries[];
  label: string;
}) {
  const height = categories.length * (series.length * 16 + 12) + 8;
  return (
    <Box w="full" minW="0">
      <HStack gap="4" mb="2" wrap="wrap" aria-hidden="true">
        {series.map((one) => (
          <HStack key={one.name} gap="1.5">
            <Box w="3" h="3" rounded="sm" bg={one.color} />
            <Text fontSize="xs" color="fg.muted">
              {one.name}
            </Text>
          </HStack>
        ))}
      </HStack>
      <Box role="img" aria-label={groupedChartSummary(label, categories, series)} h={`${height}px`}>
        <Suspense fallback={null}>
          <RechartsGroupedBars categories={categories} series={series} height={height} />
        </Suspense>
      </Box>
    </Box>
  );
}
