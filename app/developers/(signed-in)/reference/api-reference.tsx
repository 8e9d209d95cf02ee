'use client';
/** The OpenAPI document, for reading: operations by tag, and a curl line against this clinic to try. */
import { useQuery } from '@tanstack/react-query';
import { CopyButton } from '../../_components/copy-button';
import { Card, LoadFailed, Loading } from '../../_components/ui';
import { portal, portalError } from '../../_lib/trpc';

interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean; description?: string }[];
}
interface Doc {
  info: { title: string; version: string; description?: string };
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
}

const METHOD_STYLE: Record<string, string> = { get: 'bg-sky-100 text-sky-800', post: 'bg-emerald-100 text-emerald-800', patch: 'bg-amber-100 text-amber-900', delete: 'bg-red-100 text-red-800' };

export function ApiReference() {
  const me = useQuery({ queryKey: ['me'], queryFn: () => portal.session.me.query() });
  const doc = useQuery({
    queryKey: ['openapi'],
    queryFn: async (): Promise<Doc> => {
      const res = await fetch('/v3/api/openapi.json');
      if (!res.ok) throw new Error(`The API reference could not be loaded (${res.status})`);
      return res.json();
    },
  });
  const base = me.data?.api_base_url ?? '/v3/api';
  const ops = doc.data
    ? Object.entries(doc.data.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op, tag: op.tags?.[0] ?? 'other' })))
    : [];
  const tags = doc.data?.tags?.map((t) => t.name) ?? [...new Set(ops.map((o) => o.tag))];
  const curl = `curl -H "Authorization: Bearer $API_KEY" "${base}/patients?page_size=5"`;
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold">API reference</h1>
      <Card title="Try it">
        <p className="text-sm text-slate-600">With a key from the API keys page (kept on your server):</p>
        <pre className="mt-2 overflow-x-auto rounded bg-slate-900 p-3 text-xs text-slate-100" tabIndex={0} aria-label="curl line">
          <code>{curl}</code>
        </pre>
        <div className="mt-2">
          <CopyButton value={curl} label="Copy the curl line" />
        </div>
        <p className="mt-2 text-sm">
          The machine-readable document is at{' '}
          <a className="text-indigo-700 underline" href="/v3/api/openapi.json">
            {base}/openapi.json
          </a>{' '}
          (OpenAPI 3.1, for openapi-typescript or openapi-generator).
        </p>
      </Card>
      {doc.isPending && <Loading what="the API reference" />}
      {doc.isError && <LoadFailed message={doc.error instanceof Error ? doc.error.message : portalError(doc.error).message} retry={() => void doc.refetch()} />}
      {doc.data && (
        <nav aria-label="Resources" className="flex flex-wrap gap-2 text-sm">
          {tags.map((t) => (
            <a key={t} href={`#tag-${t}`} className="rounded border border-slate-300 bg-white px-2 py-1 hover:bg-slate-100">
              {t}
            </a>
          ))}
        </nav>
      )}
      {tags.map((tag) => {
        const mine = ops.filter((o) => o.tag === tag);
        if (!mine.length) return null;
        return (
          <section key={tag} id={`tag-${tag}`} aria-labelledby={`tag-${tag}-title`} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
            <h2 id={`tag-${tag}-title`} className="text-lg font-semibold">
              {tag}
            </h2>
            {doc.data?.tags?.find((t) => t.name === tag)?.description && <p className="text-sm text-slate-600">{doc.data.tags.find((t) => t.name === tag)!.description}</p>}
            <ul className="mt-3 flex flex-col gap-3">
              {mine.map(({ path, method, op }) => (
                <li key={`${method} ${path}`} className="border-t border-slate-100 pt-3">
                  <p className="flex flex-wrap items-center gap-2">
                    <span className={`rounded px-2 py-0.5 font-mono text-xs font-semibold uppercase ${METHOD_STYLE[method] ?? 'bg-slate-200'}`}>{method}</span>
                    <code className="font-mono text-sm">{path}</code>
                    <span className="text-sm text-slate-700">{op.summary}</span>
                  </p>
                  {op.description && <p className="mt-1 text-sm text-slate-600">{op.description}</p>}
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </div>
  );
}
