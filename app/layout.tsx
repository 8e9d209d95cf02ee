import type { ReactNode } from 'react';
import './globals.css';

// Rendered per request, never prerendered: each page's scripts carry the nonce of its own
// Content-Security-Policy (server/security-headers.ts), which a page built ahead of time cannot know.
export const dynamic = 'force-dynamic';
export const metadata = { title: 'Clinic API — developer portal' };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 font-sans text-slate-900 antialiased">{children}</body>
    </html>
  );
}
