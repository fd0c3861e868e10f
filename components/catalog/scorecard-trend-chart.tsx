"use client";
// A component's scorecard level per day as a step line (recharts). The figures are in the table beside it,
// which is what screen readers and tests read; the chart is hidden from assistive technology and inert.
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import styles from "./catalog.module.css";

export interface TrendChartPoint {
  day: string;
  rank: number;
}

export function ScorecardTrendChart({ points, levels }: { points: TrendChartPoint[]; levels: readonly string[] }) {
  const names = ["none", ...levels];
  const data = points.map((p) => ({ day: p.day.slice(5), rank: p.rank }));
  return (
    <div className={styles.trendChart} aria-hidden="true" inert data-testid="scorecard-trend-chart">
      <ResponsiveContainer width="100%" height="100%" minWidth={0}>
        <LineChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="day" tick={{ fontSize: 11 }} />
          <YAxis domain={[0, levels.length]} ticks={names.map((_, i) => i)} tickFormatter={(v: number) => names[v] ?? ""} tick={{ fontSize: 11 }} width={56} allowDecimals={false} />
          <Tooltip formatter={(v) => names[Number(v)] ?? String(v)} />
          <Line type="stepAfter" dataKey="rank" name="Level" stroke="var(--accent)" dot isAnimationActive={false} />
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
