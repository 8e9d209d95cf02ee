/** @type {import('next').NextConfig} */
const nextConfig = {
  // The API never goes through Next (server/main.ts); keep server-only packages out of the bundle.
  serverExternalPackages: ['trpc-to-openapi', 'better-sqlite3', 'pg', 'pino'],
  typescript: { ignoreBuildErrors: false },
  poweredByHeader: false,
};

export default nextConfig;
