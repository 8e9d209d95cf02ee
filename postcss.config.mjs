// Tailwind CSS v4 through PostCSS, as Next.js builds the portal's styles.
export default { plugins: { '@tailwindcss/postcss': {} } };
