export default function Home() {
  return (
    <main>
      <h1>Clinic API</h1>
      <p>
        The REST API lives at <code>https://&#123;clinic&#125;.&#123;region&#125;.&lt;domain&gt;/v3/api</code>. Authenticate with{' '}
        <code>Authorization: Bearer &lt;API_KEY&gt;</code>.
      </p>
      <ul>
        <li>
          <a href="/v3/api/openapi.json">OpenAPI document</a>
        </li>
        <li>
          Schema discovery: <code>GET /v3/api/schema</code> and <code>GET /v3/api/schema/&#123;resource&#125;</code>
        </li>
      </ul>
    </main>
  );
}
