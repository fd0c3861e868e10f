// A tiny line of daily figures (claims per day in the definitions list). Plain SVG: a chart library
// for a 100×24 line would weigh more than the list. Its label says the figures in words.
export function Sparkline({ values, label, width = 112, height = 28 }: { values: number[]; label: string; width?: number; height?: number }) {
  const max = Math.max(1, ...values);
  const step = values.length > 1 ? (width - 4) / (values.length - 1) : 0;
  const points = values.map((v, i) => `${(2 + i * step).toFixed(1)},${(height - 2 - (v / max) * (height - 4)).toFixed(1)}`).join(" ");
  return (
    <svg role="img" aria-label={label} width={width} height={height} viewBox={`0 0 ${width} ${height}`} data-testid="sparkline">
      <line x1={2} x2={width - 2} y1={height - 2} y2={height - 2} stroke="var(--border)" />
      {values.length > 0 ? <polyline points={points} fill="none" stroke="var(--accent)" strokeWidth={1.5} strokeLinejoin="round" /> : null}
    </svg>
  );
}
