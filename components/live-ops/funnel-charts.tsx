"use client";
// The funnel as charts (recharts): the stages as bars, per UTC day the surfacings and claims as lines, and
// per variant its surfaced and claimed players as two bars on a scale every variant shares.
// The figures are in a table beside them, which is what screen readers and tests read; the charts are
// hidden from assistive technology and inert, so none of recharts' focusable parts is reachable by keyboard.
import { Bar, BarChart, CartesianGrid, Cell, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { DefinitionFunnel } from "./api";
import { STAGES } from "./funnel-stages";
import styles from "./live-ops.module.css";

export function FunnelStagesChart({ funnel }: { funnel: DefinitionFunnel }) {
  const data = STAGES.map(([key, label]) => ({ stage: label, players: funnel.total[key] }));
  return (
    <div className={styles.chart} aria-hidden="true" inert data-testid="funnel-stages-chart">
      <ResponsiveContainer width="100%" height="100%" minWidth={0}>
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          {/* Slanted: six stage names fit a phone's width. */}
          <XAxis dataKey="stage" tick={{ fontSize: 11 }} interval={0} angle={-30} textAnchor="end" height={52} />
          <YAxis allowDecimals={false} tick={{ fontSize: 11 }} width={36} />
          <Tooltip />
          <Bar dataKey="players" fill="var(--accent)" radius={[4, 4, 0, 0]} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

export function FunnelDaysChart({ funnel }: { funnel: DefinitionFunnel }) {
  const data = funnel.byDay.map((d) => ({ day: d.day.slice(5), surfaced: d.surfaced, claimed: d.claimed, assigned: d.assigned }));
  return (
    <div className={styles.chart} aria-hidden="true" inert data-testid="funnel-days-chart">
      <ResponsiveContainer width="100%" height="100%" minWidth={0}>
        <LineChart data={data} margin={{ top: 8, right: 8, bottom: 8, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="day" tick={{ fontSize: 11 }} />
          <YAxis allowDecimals={false} tick={{ fontSize: 11 }} width={36} />
          <Tooltip />
          <Legend />
          <Line type="monotone" dataKey="assigned" name="Assigned" stroke="#9aa3b5" dot={false} isAnimationActive={false} />
          <Line type="monotone" dataKey="surfaced" name="Surfaced" stroke="var(--accent)" dot={false} isAnimationActive={false} />
          <Line type="monotone" dataKey="claimed" name="Claimed" stroke="var(--success)" dot={false} isAnimationActive={false} />
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}

/** One variant's surfaced and claimed players as two bars; `max` is the scale's end, the same for every variant so their charts compare at a glance. */
export function VariantChart({ surfaced, claimed, max }: { surfaced: number; claimed: number; max: number }) {
  const data = [
    { stage: "Surfaced", players: surfaced },
    { stage: "Claimed", players: claimed },
  ];
  return (
    <div className={styles.variantChart} aria-hidden="true" inert data-testid="variant-chart">
      <ResponsiveContainer width="100%" height="100%" minWidth={0}>
        <BarChart data={data} layout="vertical" margin={{ top: 0, right: 12, bottom: 0, left: 0 }} barCategoryGap={6}>
          <CartesianGrid strokeDasharray="3 3" horizontal={false} />
          <XAxis type="number" domain={[0, Math.max(1, max)]} allowDecimals={false} tick={{ fontSize: 11 }} />
          <YAxis type="category" dataKey="stage" tick={{ fontSize: 11 }} width={64} />
          <Bar dataKey="players" radius={[0, 4, 4, 0]} isAnimationActive={false}>
            <Cell fill="var(--accent)" />
            <Cell fill="var(--success)" />
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
