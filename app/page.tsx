export default function Home() {
  return (
    <main className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-3xl font-semibold">Clinic API</h1>
      <p className="mt-4">
        The REST API lives at{' '}
        <code className="rounded bg-slate-200 px-1">
          https://&#123;clinic&#125;.&#123;region&#125;.&lt;domain&gt;/v3/api
        </code>
        . Authenticate with <code className="rounded bg-slate-200 px-1">Authorization: Bearer &lt;API_KEY&gt;</code>.
      </p>
      <ul className="mt-4 list-disc pl-6">
        <li>
          <a className="text-indigo-700 underline" href="/v3/api/openapi.json">
            OpenAPI document
          </a>
        </li>
        <li>
          Schema discovery: <code>GET /v3/api/schema</code> and <code>GET /v3/api/schema/&#123;resource&#125;</code>
        </li>
        <li>
          The developer portal (API keys, activity, requests, team) is at{' '}
          <code>https://&#123;clinic&#125;.&#123;region&#125;.&lt;domain&gt;/developers</code>.
        </li>
      </ul>
    </main>
  );
}
