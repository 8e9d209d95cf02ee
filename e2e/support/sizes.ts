/** The two screens every portal flow is driven on: a laptop and a phone (issue 25's walk-through sizes). */
export const SIZES = [
  { name: 'desktop', viewport: { width: 1440, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;
