/**
 * A database on the suite's PostgreSQL server (CLINIC_TEST_SERVER_URL, vitest.config.ts), made on every
 * node when the suite runs on Citus (CITUS_WORKERS: the workers' host:port, scripts/citus-temp.sh): on
 * each the extension, and on the coordinator the workers registered. Citus 13.0 does not propagate
 * CREATE DATABASE.
 */
import pg from 'pg';

const workers = () => (process.env.CITUS_WORKERS ?? '').split(',').filter(Boolean);

const withHost = (url: string, hostPort: string) => {
  const u = new URL(url);
  u.host = hostPort;
  return u.toString();
};
const withDatabase = (url: string, db: string) => {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
};
const nodes = (server: string) => [server, ...workers().map((w) => withHost(server, w))];

async function onServer(url: string, statement: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Makes the database `name` (on every node of a cluster); its URL on the server (the coordinator). */
export async function createClusterDatabase(server: string, name: string): Promise<string> {
  for (const node of nodes(server)) await onServer(node, `create database ${name}`);
  const coordinator = withDatabase(server, name);
  if (workers().length) {
    for (const node of nodes(server)) await onServer(withDatabase(node, name), 'create extension citus');
    const { hostname, port } = new URL(server);
    await onServer(coordinator, `select citus_set_coordinator_host('${hostname}', ${port})`);
    for (const w of workers())
      await onServer(coordinator, `select citus_add_node('${w.split(':')[0]}', ${w.split(':')[1]})`);
  }
  return coordinator;
}

export async function dropClusterDatabase(server: string, name: string): Promise<void> {
  for (const node of nodes(server)) await onServer(node, `drop database if exists ${name} with (force)`);
}
