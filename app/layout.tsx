import type { ReactNode } from 'react';

export const metadata = { title: 'Clinic API — developer portal' };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 880, margin: '2rem auto', padding: '0 1rem', lineHeight: 1.5 }}>{children}</body>
    </html>
  );
}
