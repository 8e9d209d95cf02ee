/** How Redoc renders this portal's reference: the portal's type and colours, nothing loaded from elsewhere. */
import type { RedocRawOptions } from 'redoc';

/** Tailwind's slate and indigo, as the portal's own pages use them (colours chosen for AA contrast on white and on slate-900). */
const SANS = 'ui-sans-serif, system-ui, sans-serif';
const MONO = 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';

/** The resource shown first, and the one the curl line lists: the one every integration starts with. */
export const FIRST_RESOURCE = 'patients';

export const REDOC_OPTIONS: RedocRawOptions = {
  // The document is ours, but its descriptions are markdown turned into HTML: sanitized all the same.
  sanitize: true,
  // The page links the machine-readable document itself; Redoc's download makes a blob: address.
  hideDownloadButton: true,
  // The browser's own scrollbars in the menu (keyboard- and screen-reader-friendly; no scroll library).
  nativeScrollbars: true,
  // A request body's example opens at two levels, enough to read a patient without a click per field.
  jsonSampleExpandLevel: 2,
  // Its phone menu button is a div without a name: the page's own Resource select does that job.
  hideFab: true,
  theme: {
    // The portal's column is at most 72rem wide whatever the screen, too narrow for Redoc's three columns
    // (parameter tables ran under the dark panel): the examples go under each operation at every width.
    breakpoints: { medium: '1000rem', large: '1000rem' },
    typography: {
      fontFamily: SANS,
      fontSize: '15px',
      headings: { fontFamily: SANS, fontWeight: '600' },
      code: { fontFamily: MONO, color: '#9f1239', backgroundColor: '#f1f5f9', wrap: true },
      links: { color: '#4338ca', visited: '#4338ca', hover: '#3730a3' },
    },
    colors: {
      primary: { main: '#4f46e5' },
      text: { primary: '#0f172a', secondary: '#475569' },
      border: { dark: '#cbd5e1', light: '#e2e8f0' },
    },
    sidebar: { width: '240px', backgroundColor: '#f8fafc', textColor: '#334155', activeTextColor: '#4338ca' },
    rightPanel: { backgroundColor: '#0f172a', textColor: '#f8fafc', width: '40%' },
    codeBlock: { backgroundColor: '#1e293b' },
  },
};
