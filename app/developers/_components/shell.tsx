'use client';
/** The signed-in frame: the clinic, navigation, the member and sign-out. */
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useEffect, useState, type ReactNode } from 'react';
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
  const [menuOpen, setMenuOpen] = useState(false);
  // A link followed closes the phone's menu: the page it opens starts at its content.
  useEffect(() => setMenuOpen(false), [path]);
  const isCurrent = (href: string) => path === href || path.startsWith(`${href}/`);
  const current = nav.find((item) => isCurrent(item.href));
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
          {/* On a phone the links are behind this button: listed, they filled 527 of 844 px on every page. */}
          <button
            type="button"
            aria-expanded={menuOpen}
            aria-controls="portal-menu"
            aria-label={current ? `Menu: ${current.label}` : 'Menu'}
            onClick={() => setMenuOpen(!menuOpen)}
            className="mb-2 inline-flex min-h-10 items-center gap-2 rounded-md border border-slate-300 px-3 text-sm font-medium sm:hidden"
          >
            <span aria-hidden="true">{menuOpen ? '✕' : '☰'}</span> Menu
            {current && <span className="font-normal text-slate-600">: {current.label}</span>}
          </button>
          <div id="portal-menu" className={`w-full flex-wrap gap-x-6 sm:flex ${menuOpen ? 'flex' : 'hidden'}`}>
            {[...new Set(nav.map((item) => item.section))].map((section) => (
              <div key={section} className="flex flex-wrap items-center gap-1">
                <span
                  id={`nav-${section}`}
                  className="pr-1 text-xs font-semibold uppercase tracking-wide text-slate-600"
                >
                  {section}
                </span>
                <ul aria-labelledby={`nav-${section}`} className="flex flex-wrap gap-1">
                  {nav
                    .filter((item) => item.section === section)
                    .map((item) => {
                      const here = isCurrent(item.href);
                      return (
                        <li key={item.href}>
                          <Link
                            href={item.href}
                            aria-current={here ? 'page' : undefined}
                            className={`inline-block border-b-2 px-3 py-2 text-sm ${here ? 'border-indigo-600 font-medium text-indigo-700' : 'border-transparent text-slate-600 hover:text-slate-900'}`}
                          >
                            {item.label}
                          </Link>
                        </li>
                      );
                    })}
                </ul>
              </div>
            ))}
          </div>
        </nav>
      </header>
      <main id="main" className="mx-auto max-w-6xl px-4 py-6">
        {children}
      </main>
    </div>
  );
}
