"use client";
// A group's components per scorecard level per day, as stacked bars (recharts). The figures are in the table beside
// it, which is what screen readers and tests read; the chart is hidden from assistive technology and inert.
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import styles from "./owners.module.css";

export interface GroupTrendChartPoint {
  day: string;
  levels: Record<string, number>;
}

/** Lowest level first (no level at the bottom of each bar), coloured from muted to the accent. */
const COLOURS = ["var(--muted)", "var(--warning)", "#6b8df0", "var(--accent)", "var(--success)"];

export function GroupTrendChart({ points, levels }: { points: GroupTrendChartPoint[]; levels: readonly string[] }) {
  const data = points.map((p) => ({ day: p.day.slice(5), ...p.levels }));
  return (
    <div className={styles.trendChart} aria-hidden="true" inert data-testid="group-trend-chart">
      <ResponsiveContainer width="100%" height="100%" minWidth={0}>
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="day" tick={{ fontSize: 11 }} />
          <YAxis allowDecimals={false} tick={{ fontSize: 11 }} width={32} />
          <Tooltip />
          <Legend wrapperStyle={{ fontSize: 11 }} />
          {levels.map((level, i) => (
            <Bar key={level} dataKey={level} stackId="levels" fill={COLOURS[Math.min(i, COLOURS.length - 1)]} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
