'use client';
/**
 * Delivery attempts per hour (last 24 h) or per day (last 7 days), succeeded and failed stacked: SVG
 * bars drawn with visx, sized to the card. The same numbers as a sentence (the chart's name) and as a
 * table, for those who do not see the chart.
 */
import { useQuery } from '@tanstack/react-query';
import { Group } from '@visx/group';
import { scaleBand, scaleLinear } from '@visx/scale';
import { Bar } from '@visx/shape';
import { useEffect, useRef, useState } from 'react';
import { Time, useClinicZone } from '../../../_components/time';
import { LoadFailed, Loading } from '../../../_components/ui';
import { portal, portalError } from '../../../_lib/trpc';
import { RANGE_LABELS, type Range } from './message-filters';

const HEIGHT = 140;
const AXIS = 22;
const LEFT = 28;

/** The width of the element's content, followed as it changes (a phone turned, a window resized); the element is there from the first render. */
function useWidth<T extends HTMLElement>(): [React.RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(600);
  useEffect(() => {
    if (!ref.current) return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.max(200, Math.floor(entry.contentRect.width))));
    observer.observe(ref.current);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

export function DeliveryChart({ id, range, onRange }: { id: number; range: Range; onRange: (r: Range) => void }) {
  const stats = useQuery({
    queryKey: ['webhooks', 'stats', id, range],
    queryFn: () => portal.webhooks.stats.query({ id, range }),
    refetchInterval: 5000,
  });
  const zone = useClinicZone();
  const [ref, width] = useWidth<HTMLElement>();
  const label = (iso: string) =>
    new Intl.DateTimeFormat(
      'en-GB',
      range === '24h'
        ? { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }
        : { timeZone: zone, weekday: 'short', day: 'numeric' },
    ).format(new Date(iso));

  const bars = stats.data?.bars ?? [];
  const succeeded = bars.reduce((n, b) => n + b.succeeded, 0);
  const failed = bars.reduce((n, b) => n + b.failed, 0);
  const total = succeeded + failed;
  const sentence =
    total === 0
      ? `No delivery attempts in the ${RANGE_LABELS[range].toLowerCase()}.`
      : `${RANGE_LABELS[range]}: ${total} delivery attempt${total === 1 ? '' : 's'}, ${succeeded} succeeded and ${failed} failed (${Math.round((succeeded / total) * 100)}% success).`;

  const x = scaleBand<number>({ domain: bars.map((_, i) => i), range: [LEFT, width], padding: 0.2 });
  const max = Math.max(1, ...bars.map((b) => b.succeeded + b.failed));
  const y = scaleLinear<number>({ domain: [0, max], range: [HEIGHT - AXIS, 4] });
  // A label under every few bars: as many as fit without touching.
  const every = Math.max(1, Math.ceil(bars.length / Math.floor(width / 56)));

  return (
    <section
      ref={ref}
      aria-labelledby="chart-heading"
      className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6"
    >
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id="chart-heading" className="text-lg font-semibold">
          Delivery success
        </h2>
        <div role="group" aria-label="Period" className="flex gap-1">
          {(Object.keys(RANGE_LABELS) as Range[]).map((r) => (
            <button
              key={r}
              type="button"
              aria-pressed={r === range}
              onClick={() => onRange(r)}
              className={`min-h-9 rounded-md border px-3 text-sm ${r === range ? 'border-indigo-600 bg-indigo-50 font-medium text-indigo-800' : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-100'}`}
            >
              {RANGE_LABELS[r]}
            </button>
          ))}
        </div>
      </div>
      {stats.isPending && <Loading what="delivery statistics" />}
      {stats.isError && <LoadFailed message={portalError(stats.error).message} retry={() => void stats.refetch()} />}
      {stats.data && (
        <>
          <p id="chart-summary" className="text-sm text-slate-700">
            {sentence}
          </p>
          <div className="mt-3 w-full">
            <svg role="img" aria-labelledby="chart-summary" width={width} height={HEIGHT} className="block max-w-full">
              <line x1={LEFT} x2={width} y1={HEIGHT - AXIS} y2={HEIGHT - AXIS} className="stroke-slate-300" />
              <text x={0} y={12} className="fill-slate-500 text-[10px]">
                {max}
              </text>
              <text x={0} y={HEIGHT - AXIS} className="fill-slate-500 text-[10px]">
                0
              </text>
              <Group>
                {bars.map((b, i) => {
                  const left = x(i) ?? 0;
                  const okTop = y(b.succeeded);
                  const failTop = y(b.succeeded + b.failed);
                  return (
                    <g key={b.from}>
                      <Bar
                        x={left}
                        y={okTop}
                        width={x.bandwidth()}
                        height={HEIGHT - AXIS - okTop}
                        className="fill-emerald-600"
                      />
                      <Bar
                        x={left}
                        y={failTop}
                        width={x.bandwidth()}
                        height={okTop - failTop}
                        className="fill-red-600"
                      />
                      {i % every === 0 && (
                        <text
                          x={left + x.bandwidth() / 2}
                          y={HEIGHT - 6}
                          textAnchor="middle"
                          className="fill-slate-600 text-[10px]"
                        >
                          {label(b.from)}
                        </text>
                      )}
                    </g>
                  );
                })}
              </Group>
            </svg>
          </div>
          <p className="mt-2 flex flex-wrap gap-4 text-xs text-slate-600" aria-hidden="true">
            <span className="inline-flex items-center gap-1">
              <span className="inline-block size-3 rounded-sm bg-emerald-600" /> Succeeded (2xx)
            </span>
            <span className="inline-flex items-center gap-1">
              <span className="inline-block size-3 rounded-sm bg-red-600" /> Failed
            </span>
          </p>
          <details className="mt-2 text-sm">
            <summary className="min-h-6 cursor-pointer text-indigo-700 underline">Show as a table</summary>
            <div
              className="mt-2 max-h-72 overflow-y-auto"
              tabIndex={0}
              role="region"
              aria-label="Delivery attempts per period"
            >
              <table className="w-full text-left text-xs">
                <caption className="sr-only">
                  Delivery attempts per {range === '24h' ? 'hour' : 'day'}, {zone}
                </caption>
                <thead>
                  <tr>
                    <th scope="col" className="px-2 py-1 font-medium">
                      From
                    </th>
                    <th scope="col" className="px-2 py-1 font-medium">
                      Succeeded
                    </th>
                    <th scope="col" className="px-2 py-1 font-medium">
                      Failed
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {bars.map((b) => (
                    <tr key={b.from} className="border-t border-slate-100">
                      <td className="px-2 py-1">
                        <Time iso={b.from} />
                      </td>
                      <td className="px-2 py-1">{b.succeeded}</td>
                      <td className="px-2 py-1">{b.failed}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
        </>
      )}
    </section>
  );
}
