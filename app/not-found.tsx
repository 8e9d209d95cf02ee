export default function NotFound() {
  return (
    <main className="mx-auto max-w-xl px-4 py-16">
      <h1 className="text-2xl font-semibold">Not found</h1>
      <p className="mt-2 text-slate-600">
        There is no clinic or page at this address. Check the clinic and region in the address:
        https://&#123;clinic&#125;.&#123;region&#125;.&lt;domain&gt;/developers
      </p>
    </main>
  );
}
