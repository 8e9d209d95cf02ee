#!/usr/bin/env bash
# Generates the migration for both dialects from the one schema (db/schema.ts). Name it: npm run db:generate -- NAME
set -euo pipefail
cd "$(dirname "$0")/.."
name="${1:-change}"
DATABASE_URL=data/generate.db npx drizzle-kit generate --name "$name"
DATABASE_URL=postgres://generate/generate npx drizzle-kit generate --name "$name"
