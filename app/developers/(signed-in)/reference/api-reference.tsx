'use client';
/**
 * The OpenAPI document this clinic's API serves, rendered by Redoc with this clinic's base URL as its
 * one server, and a curl line to try it with a key the member keeps (never a key in the page).
 */
import { useQuery } from '@tanstack/react-query';
import dynamic from 'next/dynamic';
import { useMemo } from 'react';
import { CopyButton } from '../../_components/copy-button';
import { Card, LoadFailed, Loading } from '../../_components/ui';
import { portal, portalError } from '../../_lib/trpc';
import { FIRST_RESOURCE } from './redoc-options';
import type { OpenApiDocument } from './redoc-view';

// Redoc is most of this page's script: it loads after the page, in its own chunk, in the browser only.
const RedocView = dynamic(() => import('./redoc-view'), {
  ssr: false,
  loading: () => <Loading what="the API reference" />,
});

const DOCUMENT = '/v3/api/openapi.json';

export function ApiReference() {
  const me = useQuery({ queryKey: ['session.me'], queryFn: () => portal.session.me.query() });
  const doc = useQuery({
    queryKey: ['openapi'],
    queryFn: async (): Promise<OpenApiDocument> => {
      const res = await fetch(DOCUMENT);
      if (!res.ok) throw new Error(`The API reference could not be loaded (${res.status})`);
      return res.json();
    },
  });
  const base = me.data?.api_base_url;
  const curl = `curl -H "Authorization: Bearer $API_KEY" "${base ?? '/v3/api'}/${FIRST_RESOURCE}?page_size=5"`;
  const failed = doc.error ?? me.error;
  // One store for Redoc per document and base URL: its servers are this clinic's host, not the document's template.
  const spec = useMemo(
    () => (doc.data && base ? { ...doc.data, servers: [{ url: base, description: 'This clinic' }] } : null),
    [doc.data, base],
  );
  return (
    <>
      <Card title="Try it">
        <p className="text-sm text-slate-600">
          With a key from the API keys page (kept on your server, never pasted into a web page):
        </p>
        <pre
          className="mt-2 overflow-x-auto whitespace-pre-wrap break-all rounded bg-slate-900 p-3 text-xs text-slate-100"
          tabIndex={0}
          aria-label="curl line"
        >
          <code>{curl}</code>
        </pre>
        <div className="mt-2">
          <CopyButton value={curl} label="Copy the curl line" />
        </div>
        <p className="mt-2 text-sm">
          The machine-readable document is at{' '}
          <a className="text-indigo-700 underline [overflow-wrap:anywhere]" href={DOCUMENT}>
            {base ?? '/v3/api'}/openapi.json
          </a>{' '}
          (OpenAPI 3.1, for openapi-typescript or openapi-generator).
        </p>
      </Card>
      <section aria-labelledby="operations-title" className="rounded-lg border border-slate-200 bg-white shadow-sm">
        <h2 id="operations-title" className="px-4 pt-4 text-lg font-semibold sm:px-6">
          Operations
        </h2>
        {(doc.isPending || me.isPending) && !failed && <Loading what="the API reference" />}
        {failed && (
          <div className="p-4">
            <LoadFailed
              message={doc.error instanceof Error ? doc.error.message : portalError(failed).message}
              retry={() => void Promise.all([doc.refetch(), me.refetch()])}
            />
          </div>
        )}
        {spec && <RedocView doc={spec} />}
      </section>
    </>
  );
}
