/**
 * The change history as GET /v3/api/changelog serves it (the server's one reading of CHANGELOG.md,
 * through the portal bridge): the newest release open, older ones a click away, and what is
 * deprecated now.
 */
import type { ReactNode } from 'react';
import type { Changelog as Data, ChangeKind } from '../../../../server/rest/changelog';
import { Badge, Card } from '../../_components/ui';

const KIND: Record<ChangeKind, { label: string; tone: 'green' | 'amber' | 'red' | 'slate' }> = {
  added: { label: 'Added', tone: 'green' },
  changed: { label: 'Changed', tone: 'amber' },
  deprecated: { label: 'Deprecated', tone: 'amber' },
  removed: { label: 'Removed', tone: 'red' },
  fixed: { label: 'Fixed', tone: 'slate' },
  security: { label: 'Security', tone: 'red' },
};

/** An entry's inline Markdown as the file writes it: `code` and **bold**; anything else is text. */
function inline(text: string): ReactNode[] {
  return text.split(/(`[^`]+`|\*\*[^*]+\*\*)/).map((part, i) => {
    if (part.startsWith('`') && part.endsWith('`') && part.length > 1)
      return (
        <code key={i} className="rounded bg-slate-100 px-1 font-mono text-[0.85em] [overflow-wrap:anywhere]">
          {part.slice(1, -1)}
        </code>
      );
    if (part.startsWith('**') && part.endsWith('**') && part.length > 3)
      return <strong key={i}>{part.slice(2, -2)}</strong>;
    return part;
  });
}

export function Changelog({ changelog }: { changelog: Data }) {
  return (
    <Card title="Changelog">
      <p className="text-sm text-slate-600">
        Newest first. Also as data at{' '}
        <a className="text-indigo-700 underline" href="/v3/api/changelog">
          /v3/api/changelog
        </a>
        .
      </p>
      {changelog.deprecations.length > 0 && (
        <section aria-labelledby="deprecated-now" className="mt-4">
          <h3 id="deprecated-now" className="font-semibold">
            Deprecated now
          </h3>
          <ul className="mt-1 list-disc pl-5 text-sm">
            {changelog.deprecations.map((d) => (
              <li key={`${d.kind} ${d.name}`}>
                <code className="font-mono">{d.name}</code> since {d.since}
                {d.sunset ? `, may stop working after ${d.sunset}` : ''}
                {d.use ? <> — use {inline(d.use)}</> : null}. {inline(d.note)}
              </li>
            ))}
          </ul>
        </section>
      )}
      <div className="mt-4 flex flex-col gap-2">
        {changelog.data.map((release, i) => (
          <details key={release.version} open={i === 0} className="rounded-md border border-slate-200">
            <summary className="cursor-pointer px-3 py-2 font-semibold">
              {release.date ? release.version : 'Unreleased (served now)'}
              <span className="ml-2 text-sm font-normal text-slate-600">
                {release.changes.length} change{release.changes.length === 1 ? '' : 's'}
              </span>
            </summary>
            <ul className="flex flex-col gap-2 border-t border-slate-200 px-3 py-3 text-sm">
              {release.changes.map((c, j) => (
                <li key={j} className="flex flex-col gap-1 sm:flex-row sm:gap-3">
                  <span className="sm:w-24 sm:shrink-0">
                    <Badge tone={KIND[c.kind].tone}>{KIND[c.kind].label}</Badge>
                  </span>
                  <span className="min-w-0 break-words">{inline(c.text)}</span>
                </li>
              ))}
            </ul>
          </details>
        ))}
      </div>
    </Card>
  );
}
