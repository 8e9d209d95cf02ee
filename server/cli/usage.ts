/** What `clinic help` prints, and the error for bad arguments (one line on stderr, exit code 2). */
export class UsageError extends Error {}

export const USAGE = `usage:
  clinic account create --clinic NAME --region REGION --name "Clinic name" --timezone Area/City --currency XXX [--locale en] [--legacy]
  clinic account update --clinic NAME --region REGION [--name "Clinic name"] [--timezone Area/City] [--currency XXX] [--locale en]
  clinic key create --clinic NAME --region REGION --name "Integration" --access read_write|read_only|restricted [--permissions GROUP:read|write,...] [--allow-ip CIDR,...] [--expires 90d|1y]
  clinic key rotate --clinic NAME --region REGION --key-id N [--grace 24h|1h|now]
  clinic key revoke --clinic NAME --region REGION --key-id N
  clinic key list --clinic NAME --region REGION
  clinic user create --clinic NAME --region REGION --email EMAIL --name "Name" --role owner|admin|practitioner|receptionist [--practitioner-id N] [--password-stdin]
  clinic user reset-password --clinic NAME --region REGION --email EMAIL   (prints or emails a one-time link)
  clinic user deactivate|reactivate --clinic NAME --region REGION --email EMAIL
  clinic user list --clinic NAME --region REGION
  clinic webhook create --clinic NAME --region REGION --url URL [--events all|a,b] [--description D]
  clinic webhook list --clinic NAME --region REGION
  clinic webhook rotate --clinic NAME --region REGION --endpoint-id N [--grace 24h|1h|now]
  clinic webhook disable|enable --clinic NAME --region REGION --endpoint-id N
  clinic webhook replay --clinic NAME --region REGION --event-id ID [--endpoint-id N]
  clinic webhook recover --clinic NAME --region REGION --endpoint-id N --since ISO8601
  clinic practice-settings --clinic NAME --region REGION [--missed-after-hours N|off]
  clinic worker
  clinic seed --clinic NAME --region REGION
  clinic migrate
  clinic citus distribute [--shards N]   (PostgreSQL with Citus: distributes the tables by clinic; idempotent)
  clinic backup --to FILE          (SQLite; consistent while the server runs)
  clinic restore --from FILE       (SQLite; with the server stopped)
  clinic demo`;

/** A command that cannot do what was asked, said in full (exit code 2 unless given). */
export class CommandError extends Error {
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
  }
}
