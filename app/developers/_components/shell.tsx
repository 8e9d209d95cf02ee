'use client';
/** The signed-in frame: the clinic, navigation, the member and sign-out. */
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useState, type ReactNode } from 'react';
import { portal } from '../_lib/trpc';
import { Button } from './ui';

export interface NavItem {
  href: string;
  label: string;
  /** Developers (keys, webhooks …) or Practice (the clinic's setup). */
  section: string;
}

export function Shell({
  clinic,
  member,
  nav,
  children,
}: {
  clinic: string;
  member: { name: string; role: string };
  nav: NavItem[];
  children: ReactNode;
}) {
  const path = usePathname();
  const [leaving, setLeaving] = useState(false);
  const signOut = async () => {
    setLeaving(true);
    await portal.session.signOut.mutate().catch(() => undefined);
    window.location.assign('/developers/sign-in');
  };
  return (
    <div className="min-h-screen">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-3">
          <div>
            <p className="text-xs uppercase tracking-wide text-slate-500">Developer portal</p>
            <p className="text-lg font-semibold">{clinic}</p>
          </div>
          <div className="flex items-center gap-3 text-sm">
            <span>
              Signed in as <strong>{member.name}</strong> <span className="text-slate-500">({member.role})</span>
            </span>
            <Button tone="secondary" onClick={signOut} disabled={leaving}>
              {leaving ? 'Signing out…' : 'Sign out'}
            </Button>
          </div>
        </div>
        <nav aria-label="Portal" className="mx-auto flex max-w-6xl flex-wrap gap-x-6 px-4">
          {[...new Set(nav.map((item) => item.section))].map((section) => (
            <div key={section} className="flex flex-wrap items-center gap-1">
              <span id={`nav-${section}`} className="pr-1 text-xs font-semibold uppercase tracking-wide text-slate-600">
                {section}
              </span>
              <ul aria-labelledby={`nav-${section}`} className="flex flex-wrap gap-1">
                {nav
                  .filter((item) => item.section === section)
                  .map((item) => {
                    const current = path === item.href || path.startsWith(`${item.href}/`);
                    return (
                      <li key={item.href}>
                        <Link
                          href={item.href}
                          aria-current={current ? 'page' : undefined}
                          className={`inline-block border-b-2 px-3 py-2 text-sm ${current ? 'border-indigo-600 font-medium text-indigo-700' : 'border-transparent text-slate-600 hover:text-slate-900'}`}
                        >
                          {item.label}
                        </Link>
                      </li>
                    );
                  })}
              </ul>
            </div>
          ))}
        </nav>
      </header>
      <main id="main" className="mx-auto max-w-6xl px-4 py-6">
        {children}
      </main>
    </div>
  );
}
