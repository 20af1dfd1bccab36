import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { apiRequest } from '../../lib/api';
import { formatCost, formatDate, plural } from '../../lib/format';
import { type BellReminder, keys } from '../../lib/queries';
import { Button } from '../../ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../ui/card';
import { Skeleton } from '../../ui/skeleton';

/**
 * The dashboard's pictures: what shipped per week, what the projects cost per month, and the reminders
 * coming due. Plain SVG drawn here (a few hundred bytes), not a chart library: three bar charts need
 * no axes engine, and this part loads only when scrolled to (decision 036). Each has a text summary
 * (also the picture's accessible name) and its figures as a table behind a toggle.
 */

interface Charts {
  timeZone: string;
  shipping: { weeks: string[]; deployments: number[]; releases: number[] };
  costs: { months: string[]; projects: { projectId: string; name: string; costs: number[] }[] };
}

interface Series {
  name: string;
  values: number[];
}

/** Mid-tone series colours, legible on the light and the dark card alike. */
const PALETTE = [
  'oklch(0.6 0.2 277)',
  'oklch(0.7 0.15 160)',
  'oklch(0.78 0.15 75)',
  'oklch(0.66 0.14 230)',
  'oklch(0.64 0.2 15)',
  'oklch(0.62 0.18 320)',
  'oklch(0.72 0.12 195)',
  'oklch(0.6 0.04 260)',
];

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
/** `YYYY-MM-DD` or `YYYY-MM` as a local date (its first day). */
const dayOf = (text: string) => {
  const [y, m, d] = text.split('-').map(Number);
  return new Date(y!, m! - 1, d ?? 1);
};

export function DashboardCharts({ reminders }: { reminders: BellReminder[] }) {
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const { data, error } = useQuery({
    queryKey: [...keys.dashboard, 'charts', timeZone],
    queryFn: () => apiRequest<Charts>('GET', `/api/dashboard/charts?tz=${encodeURIComponent(timeZone)}`),
  });
  return (
    <div className="grid gap-4 lg:grid-cols-3" data-testid="dashboard-charts">
      {data ? (
        <>
          <ShippingChart shipping={data.shipping} />
          <CostChart costs={data.costs} />
        </>
      ) : error ? (
        <p className="text-sm text-destructive lg:col-span-2">Could not load the charts: {error.message}</p>
      ) : (
        <>
          <Skeleton className="h-72" />
          <Skeleton className="h-72" />
        </>
      )}
      <RemindersChart reminders={reminders} />
    </div>
  );
}

function ShippingChart({ shipping }: { shipping: Charts['shipping'] }) {
  const labels = shipping.weeks.map((week) => formatDate(dayOf(week), 'MMM d'));
  const totals = shipping.weeks.map((_, i) => shipping.deployments[i]! + shipping.releases[i]!);
  const busiest = totals.indexOf(Math.max(...totals));
  const summary =
    sum(totals) === 0
      ? 'Nothing shipped in the last 12 weeks.'
      : `${plural(sum(shipping.deployments), 'deployment')} and ${plural(sum(shipping.releases), 'release')} in the last 12 weeks; the busiest was the week of ${labels[busiest]}, with ${totals[busiest]}.`;
  return (
    <ChartCard
      title="Shipped per week"
      summary={summary}
      labels={labels}
      labelHeading="Week of"
      series={[
        { name: 'Deployments', values: shipping.deployments },
        { name: 'Releases', values: shipping.releases },
      ]}
      format={String}
    />
  );
}

function CostChart({ costs }: { costs: Charts['costs'] }) {
  const labels = costs.months.map((month) => formatDate(dayOf(month), 'MMM yyyy'));
  const monthly = costs.months.map((_, i) => sum(costs.projects.map((p) => p.costs[i]!)));
  const summary =
    costs.projects.length === 0
      ? 'No project has a cost estimate yet.'
      : `${formatCost(monthly.at(-1))} a month now, across ${plural(costs.projects.length, 'project')}; ${formatCost(sum(monthly))} over the last 12 months.`;
  return (
    <ChartCard
      title="Monthly cost"
      summary={summary}
      labels={labels}
      labelHeading="Month"
      series={costs.projects.map((p) => ({ name: p.name, values: p.costs }))}
      format={formatCost}
      total
    />
  );
}

function RemindersChart({ reminders }: { reminders: BellReminder[] }) {
  const now = new Date();
  const today = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  const weekStart = (i: number) => new Date(today.getFullYear(), today.getMonth(), today.getDate() + 7 * i);
  const active = reminders.filter((r) => !r.isCompleted);
  const counts = [0, 1, 2, 3].map(
    (i) => active.filter((r) => new Date(r.dueDate) >= weekStart(i) && new Date(r.dueDate) < weekStart(i + 1)).length,
  );
  const overdue = active.filter((r) => new Date(r.dueDate) < now).length;
  const labels = [0, 1, 2, 3].map((i) => formatDate(weekStart(i), 'MMM d'));
  const summary = `${sum(counts) === 0 ? 'No reminders' : plural(sum(counts), 'reminder')} due in the next 4 weeks${overdue ? `; ${overdue} overdue` : ''}.`;
  return (
    <ChartCard
      title="Reminders due"
      summary={summary}
      labels={labels}
      labelHeading="Week from"
      series={[{ name: 'Reminders', values: counts }]}
      format={String}
    />
  );
}

function ChartCard({
  title,
  summary,
  labels,
  labelHeading,
  series,
  format,
  total,
}: {
  title: string;
  summary: string;
  labels: string[];
  labelHeading: string;
  series: Series[];
  format: (value: number) => string;
  /** A Total column in the table (series stacked into one figure). */
  total?: boolean;
}) {
  const [table, setTable] = useState(false);
  const id = useId();
  // Nothing to draw (nothing shipped, no cost, no reminder due): the summary says so, with no empty axis.
  const drawn = series.some((s) => s.values.some((value) => value > 0));
  return (
    <Card data-testid="chart">
      <CardHeader>
        <CardTitle id={`${id}-title`}>{title}</CardTitle>
        <p className="text-sm text-muted-foreground">{summary}</p>
      </CardHeader>
      <CardContent className="flex flex-col items-start gap-3">
        {drawn ? <BarChart labels={labels} series={series} format={format} label={summary} /> : null}
        {drawn && series.length > 1 ? (
          <ul className="flex flex-wrap gap-3 text-xs text-muted-foreground">
            {series.map((s, i) => (
              <li key={s.name} className="flex items-center gap-1.5">
                <span aria-hidden className="size-3 rounded-sm" style={{ background: PALETTE[i % PALETTE.length] }} />
                {s.name}
              </li>
            ))}
          </ul>
        ) : null}
        {drawn ? (
          <Button
            variant="link"
            size="sm"
            className="h-auto p-0"
            aria-expanded={table}
            aria-controls={`${id}-table`}
            onClick={() => setTable(!table)}
          >
            {table ? 'Hide table' : 'Show table'}
          </Button>
        ) : null}
        {drawn && table ? (
          <div className="w-full overflow-x-auto" id={`${id}-table`}>
            <table className="w-full text-sm" aria-labelledby={`${id}-title`}>
              <thead>
                <tr className="text-left text-muted-foreground">
                  <th scope="col" className="px-2 py-1 font-medium">
                    {labelHeading}
                  </th>
                  {series.map((s) => (
                    <th key={s.name} scope="col" className="px-2 py-1 text-right font-medium">
                      {s.name}
                    </th>
                  ))}
                  {total ? (
                    <th scope="col" className="px-2 py-1 text-right font-medium">
                      Total
                    </th>
                  ) : null}
                </tr>
              </thead>
              <tbody>
                {labels.map((label, i) => (
                  <tr key={label} className="border-t">
                    <th scope="row" className="px-2 py-1 text-left font-normal">
                      {label}
                    </th>
                    {series.map((s) => (
                      <td key={s.name} className="px-2 py-1 text-right">
                        {format(s.values[i]!)}
                      </td>
                    ))}
                    {total ? (
                      <td className="px-2 py-1 text-right">{format(sum(series.map((s) => s.values[i]!)))}</td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}

const WIDTH = 300;
const HEIGHT = 120;
const AXIS = 16;

/** Stacked bars, one per label; each segment names its series and figure on hover (its `<title>`). */
function BarChart({
  labels,
  series,
  format,
  label,
}: {
  labels: string[];
  series: Series[];
  format: (value: number) => string;
  label: string;
}) {
  const max = Math.max(1, ...labels.map((_, i) => sum(series.map((s) => s.values[i]!))));
  const slot = WIDTH / labels.length;
  const bar = Math.max(4, slot * 0.6);
  const scale = (HEIGHT - AXIS - 4) / max;
  // At most six labels under the bars: every other one of twelve.
  const every = Math.ceil(labels.length / 6);
  return (
    <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={label} className="w-full">
      <text x={0} y={8} style={{ fontSize: 9, fill: 'var(--muted-foreground)' }}>
        {format(max)}
      </text>
      <line x1={0} x2={WIDTH} y1={HEIGHT - AXIS} y2={HEIGHT - AXIS} style={{ stroke: 'var(--border)' }} />
      {labels.map((name, i) => {
        let top = HEIGHT - AXIS;
        const x = i * slot + (slot - bar) / 2;
        return (
          <g key={name}>
            {series.map((s, k) => {
              const value = s.values[i]!;
              if (value <= 0) return null;
              const height = value * scale;
              top -= height;
              return (
                <rect
                  key={s.name}
                  x={x}
                  y={top}
                  width={bar}
                  height={height}
                  rx={1.5}
                  style={{ fill: PALETTE[k % PALETTE.length] }}
                >
                  <title>{`${s.name}, ${name}: ${format(value)}`}</title>
                </rect>
              );
            })}
            {/* The newest label always, and every `every`-th before it. */}
            {(labels.length - 1 - i) % every === 0 ? (
              <text
                x={i === labels.length - 1 ? WIDTH : i * slot + slot / 2}
                y={HEIGHT - 4}
                textAnchor={i === labels.length - 1 ? 'end' : 'middle'}
                style={{ fontSize: 8, fill: 'var(--muted-foreground)' }}
              >
                {name.replace(/ \d{4}$/, '')}
              </text>
            ) : null}
          </g>
        );
      })}
    </svg>
  );
}
