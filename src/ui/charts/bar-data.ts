// The data a bar chart draws: what pages pass to bar-chart.tsx and what it hands to the recharts drawing
// (recharts-bars.tsx), which both import it.
export interface BarDatum {
  label: string;
  value: number;
  /** A colour token for this bar (e.g. `green.solid` for a status); the brand colour otherwise. */
  color?: string;
}

/** One value per category, its colour token and how its values read (e.g. "7.5 %"). */
export interface BarSeries {
  name: string;
  color: string;
  values: number[];
  format?: (value: number) => string;
}
